import LocalizationCore

/// A compiled segment (docs/FORMAT.md, version 3) as any process maps it: any bytes must
/// open and answer, or throw `SegmentError` — never read outside the buffer (AddressSanitizer
/// watches every read), trap or hang.
///
/// Each input is opened twice: as it is, checksums verified (damage mostly stops at the
/// CRC), and with the checksums skipped, so the bounds checks behind them meet the damage
/// too. The first entries are read back whole — key, value, plural block, stand-in mark —
/// and each key looked up again; every span must lie inside the buffer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    func inside(_ span: UnsafeRawBufferPointer) -> Bool {
        span.isEmpty
            || (span.baseAddress! >= buffer.baseAddress!
                && span.baseAddress! + span.count <= buffer.baseAddress! + size)
    }
    for verifying in [true, false] {
        guard let reader = try? SegmentReader(buffer, verifyingChecksums: verifying) else { continue }
        FuzzInput.require(inside(reader.languageBytes) && inside(reader.tableBytes), "a name lies outside the buffer")
        for number in 0..<min(reader.keyCount, 64) {
            guard let key = try? reader.key(of: number) else { continue }
            FuzzInput.require(inside(key), "key \(number) lies outside the buffer")
            _ = try? reader.entryNumber(of: key)
            if let value = try? reader.value(of: number) {
                FuzzInput.require(inside(value), "value \(number) lies outside the buffer")
            }
            _ = try? reader.plural(of: number)
            _ = try? reader.isSourceKeyStandIn(number)
        }
        _ = try? reader.entryNumber(of: "Localizable")
        _ = try? reader.entryNumber(of: "Cafe\u{301}")
    }
    return 0
}
