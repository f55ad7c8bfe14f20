import LocalizationWire

/// One JSON line from a client, as the daemon decodes it, and one from the daemon, as the
/// client decodes it. Any bytes must decode or fail; a decoded request must survive being
/// encoded and decoded again unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = FuzzInput.bytes(data, size)
    if case .success(let request) = JSONLineCodec.decodeRequest(line) {
        let encoded = JSONLineCodec.encode(request)
        FuzzInput.require(encoded.last == UInt8(ascii: "\n"), "encoded request lacks its newline")
        let again = JSONLineCodec.decodeRequest(Array(encoded.dropLast()))
        FuzzInput.require(
            again == .success(request), "\(request) → \(String(decoding: encoded, as: UTF8.self)) → \(again)")
    }
    _ = try? JSONLineCodec.decodeServerMessage(line)
    return 0
}
