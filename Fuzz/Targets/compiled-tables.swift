import LocalizationCore

/// Compiled tables (docs/FORMAT.md) as a client maps them: any bytes must open and answer
/// lookups, or throw `CompiledTablesError` — never read outside the buffer (AddressSanitizer
/// watches every read), trap or hang.
///
/// Each input is opened twice: as it is, checksums verified (damage mostly stops at the
/// CRC), and with the checksums skipped, so the bounds checks behind them meet the damage
/// too. Every table's first keys are read back and looked up in every language, plural
/// blocks rebuilt; every key span must lie inside the buffer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    for verifying in [true, false] {
        guard let tables = try? CompiledTables(buffer, verifyingChecksums: verifying) else { continue }
        for table in tables.tables {
            for number in 0..<min(table.keyCount, 64) {
                guard let key = try? tables.key(number, in: table) else { continue }
                FuzzInput.require(
                    key.isEmpty
                        || (key.baseAddress! >= buffer.baseAddress!
                            && key.baseAddress! + key.count <= buffer.baseAddress! + size),
                    "key \(number) lies outside the buffer")
                for language in tables.languages.prefix(16) {
                    guard let answer = try? tables.lookup(key, language: language, table: table) else { continue }
                    _ = answer.valueString
                    _ = answer.languageIdentifier
                    _ = try? answer.plural?.format()
                }
            }
        }
        _ = try? tables.lookup("Localizable", language: "en")
    }
    return 0
}
