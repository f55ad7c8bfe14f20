import LocalizationCore

/// String Catalogs (`.xcstrings`, JSON): any bytes must read or throw.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? StringCatalogReader.parse(FuzzInput.bytes(data, size), file: "fuzz.xcstrings")
    return 0
}
