import LocalizationCore

/// `.strings` files, as the daemon reads them from disk: any bytes (UTF-8, UTF-16 with or
/// without BOM, XML or binary property lists) must parse or throw, never crash or hang.
/// A successful parse must agree with itself: the table holds each entry's key, and in the
/// byte-buffer form (`parseTable`) every span is valid UTF-8 (its string has the same bytes)
/// and the key index finds each key's last value; loaded as the daemon loads it
/// (`KeySharing`: values packed in one buffer, the second time by position in the first's
/// key index), the table holds what the parse does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    guard let parsed = try? StringsParser.parse(bytes, file: "fuzz.strings") else { return 0 }
    for entry in parsed.entries {
        FuzzInput.require(parsed.table[entry.key] != nil, "entry \(entry.key.debugDescription) missing from the table")
    }
    guard let table = try? StringsParser.parseTable(bytes, file: "fuzz.strings") else {
        FuzzInput.require(false, "parse succeeded but parseTable failed")
        return 0
    }
    FuzzInput.require(table.spans.count == parsed.entries.count, "parseTable found another number of entries")
    table.forEachWinningEntry { position in
        let span = table.spans[position]
        let key = table.key(at: position)
        let value = table.value(at: position)
        FuzzInput.require(
            Array(key.utf8) == Array(table.buffer[Int(span.keyStart)..<Int(span.keyStart + span.keyLength)]),
            "key \(key.debugDescription) is not valid UTF-8 in the buffer")
        FuzzInput.require(
            Array(value.utf8) == Array(table.buffer[Int(span.valueStart)..<Int(span.valueStart + span.valueLength)]),
            "value \(value.debugDescription) is not valid UTF-8 in the buffer")
        FuzzInput.require(table.value(forKey: key) == value, "the index does not give \(key.debugDescription)'s value")
    }
    var sharing = KeySharing()
    let plain = ParsedResource.table(LocalizationTable(strings: parsed.table))
    for _ in 0..<2 {
        let shared = try? sharing.parse(bytes, kind: .strings, file: "fuzz.strings", table: "Fuzz")
        FuzzInput.require(shared == plain, "the table KeySharing loads differs from the parsed one")
    }
    return 0
}
