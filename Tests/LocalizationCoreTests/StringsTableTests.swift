import Testing

@testable import LocalizationCore

/// The byte-buffer form of a parsed `.strings` file (`StringsParser.parseTable`): what each
/// span holds, the key index, and that decoding escapes in place leaves the caller's bytes
/// alone. (Every parse through `StringsParser.parse` goes through it too, so the parser
/// suites test its content in depth.)
@Suite struct StringsTableTests {
    static let source = """
        /* A comment */
        "plain" = "value";
        "escaped\\tkey" = "line\\none \\U00e9\\UD83D\\UDE00";
        unquoted = 'single';
        "short";
        "plain" = "later";
        "日本語" = "値";
        """

    @Test func spansHoldDecodedKeysAndValues() throws {
        let bytes = Array(Self.source.utf8)
        let table = try StringsParser.parseTable(bytes)
        #expect(table.spans.count == 6)
        #expect(table.count == 5)
        #expect((0..<6).map(table.key(at:)) == ["plain", "escaped\tkey", "unquoted", "short", "plain", "日本語"])
        #expect((0..<6).map(table.value(at:)) == ["value", "line\none é😀", "single", "short", "later", "値"])
        #expect(table.index.replaced == [0])
        #expect(table.value(forKey: "plain") == "later")
        #expect(table.value(forKey: "escaped\tkey") == "line\none é😀")
        #expect(table.value(forKey: "日本語") == "値")
        #expect(table.value(forKey: "missing") == nil)
        #expect(table.value(forKey: "") == nil)
        #expect(table.dictionary == ParsedStrings(table).table)
        var winners: [Int] = []
        table.forEachWinningEntry { winners.append($0) }
        #expect(winners == [1, 2, 3, 4, 5])
    }

    @Test func decodingEscapesLeavesTheCallersBytesAlone() throws {
        let bytes = Array(Self.source.utf8)
        let copy = bytes
        let table = try StringsParser.parseTable(bytes)
        #expect(bytes == copy)
        #expect(table.value(forKey: "escaped\tkey") == "line\none é😀")
    }

    @Test func utf16AndByteOrderMarksGiveTheSameEntries() throws {
        let utf8 = try StringsParser.parseTable(Array(Self.source.utf8))
        let withMark = try StringsParser.parseTable([0xEF, 0xBB, 0xBF] + Array(Self.source.utf8))
        let utf16 = try StringsParser.parseTable(
            [0xFF, 0xFE] + Self.source.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] })
        for other in [withMark, utf16] {
            #expect((0..<6).map(other.entry(at:)) == (0..<6).map(utf8.entry(at:)))
            #expect(other.count == utf8.count)
        }
    }

    /// Decoded strings are written into the buffer only after the scan (in place for UTF-16,
    /// whose transcoding is the parse's own), so entries after a string with escapes on the
    /// same line, and errors after it, are located in the text as written, in every encoding.
    @Test func escapesDoNotMoveLaterLocations() throws {
        let entries = "\"a\\U00e9\\n\\t\" = \"b\\\"c\"; \"d\" = \"\\101\\UD83D\\UDE00\"; \"e\" = \"f\";\n\"g\" = \"h\";"
        let broken = entries + " \"x\\n\" = \"y\" @"
        func encodings(_ source: String) -> [[UInt8]] {
            let units = Array(source.utf16)
            return [
                Array(source.utf8), [0xFF, 0xFE] + units.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] },
                [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8(truncatingIfNeeded: $0)] },
            ]
        }
        let tables = try encodings(entries).map { try StringsParser.parseTable($0) }
        #expect(tables[0].spans.count == 4)
        #expect((0..<4).map(tables[0].value(at:)) == ["b\"c", "A😀", "f", "h"])
        for table in tables.dropFirst() {
            #expect((0..<4).map(table.entry(at:)) == (0..<4).map(tables[0].entry(at:)))
        }
        let errors = encodings(broken).map { bytes in
            Result { () throws(ResourceParseError) in try StringsParser.parseTable(bytes) }.map(\.count)
        }
        guard case .failure(let error) = errors[0] else {
            Issue.record("no error")
            return
        }
        #expect(error.location.line == 2)
        #expect(error.location.column == 23)
        #expect(errors.allSatisfy { $0 == .failure(error) })
    }

    /// The transcoder takes ASCII eight units at a time and keeps the ASCII ones before a unit
    /// that is not: every mix of one-, two-, three- and four-byte characters at every offset
    /// must come out as the standard library's UTF-8.
    @Test func utf16MixesAtEveryOffsetTranscodeExactly() throws {
        let pieces = ["a", "bc", "é", "Ж", "日本", "😀", "x y", "\u{2028}"]
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            var value = ""
            for _ in 0..<length { value += pieces.randomElement(using: &generator)! }
            for bigEndian in [false, true] {
                let source = "\"k\" = \"\(value)\";"
                let units = source.utf16.flatMap { unit -> [UInt8] in
                    let bytes = [UInt8(truncatingIfNeeded: unit), UInt8(unit >> 8)]
                    return bigEndian ? bytes.reversed() : bytes
                }
                let table = try StringsParser.parseTable((bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + units)
                #expect(Array(table.value(at: 0).utf8) == Array(value.utf8), "\(value.debugDescription)")
            }
        }
    }

    @Test func aPropertyListFileIsSortedWithoutOffsets() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>b</key><string>2</string><key>a</key><string>1</string></dict></plist>
            """
        let table = try StringsParser.parseTable(Array(xml.utf8), file: "x.strings")
        #expect(table.count == 2)
        #expect(
            table.entry(at: 0)
                == StringsEntry(key: "a", value: "1", location: SourceLocation(file: "x.strings", line: 1, column: 1)))
        #expect(table.value(forKey: "b") == "2")
    }

    @Test func manyKeysAreAllFound() throws {
        let keys = (0..<5000).map { "key.\($0).\(String(repeating: "x", count: $0 % 23))" }
        let bytes = Array(keys.map { "\"\($0)\" = \"v\($0)\";\n" }.joined().utf8)
        let table = try StringsParser.parseTable(bytes)
        #expect(table.count == keys.count)
        for key in keys { #expect(table.value(forKey: key) == "v" + key) }
        #expect(table.value(forKey: "key.5000.") == nil)
    }

    @Test func anEmptyFileIsAnEmptyTable() throws {
        let table = try StringsParser.parseTable([])
        #expect(table.isEmpty && table.count == 0)
        #expect(table.value(forKey: "a") == nil)
    }
}
