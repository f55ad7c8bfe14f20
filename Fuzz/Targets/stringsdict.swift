import LocalizationCore

/// `.stringsdict` files (XML or binary property lists): any bytes must read or throw.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? StringsDictReader.parse(FuzzInput.bytes(data, size), file: "fuzz.stringsdict")
    return 0
}
