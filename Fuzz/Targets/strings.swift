import LocalizationCore

/// `.strings` files, as the daemon reads them from disk: any bytes (UTF-8, UTF-16 with or
/// without BOM, XML or binary property lists) must parse or throw, never crash or hang.
/// A successful parse must agree with itself: the table holds each entry's key.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let parsed = try? StringsParser.parse(FuzzInput.bytes(data, size), file: "fuzz.strings") else { return 0 }
    for entry in parsed.entries {
        FuzzInput.require(parsed.table[entry.key] != nil, "entry \(entry.key.debugDescription) missing from the table")
    }
    return 0
}
