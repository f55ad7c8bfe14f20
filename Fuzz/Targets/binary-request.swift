import LocalizationWire

/// One binary frame payload from a client, as the daemon decodes it, and one from the
/// daemon, as the client decodes it. Any bytes must decode or fail; a decoded request must
/// encode back to the very same payload (the format has one spelling per request).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = FuzzInput.bytes(data, size)
    if case .success(let request) = BinaryFrameCodec.decodeRequest(payload) {
        let frame = BinaryFrameCodec.encode(request)
        let encoded = Array(frame.dropFirst(BinaryFrameHeader.size))
        FuzzInput.require(encoded == payload, "\(request) encodes to \(encoded), decoded from \(payload)")
    }
    _ = try? BinaryFrameCodec.decodeServerMessage(payload)
    return 0
}
