import LocalizationCore
import Testing

/// The scanner around the search's block edges: strings, escapes and comments whose stops fall
/// at, before and after 16, 32 and 64 bytes from where a search starts. (Run the suite with
/// `L10N_SCAN_KERNEL=portable` or `avx2` for the other kernels.)
@Suite struct StringsScannerBlockEdgeTests {
    private static let lengths = [14, 15, 16, 17, 30, 31, 32, 33, 62, 63, 64, 65, 66, 126, 127, 128, 129]

    private static func letters(_ count: Int) -> String { String(repeating: "a", count: count) }

    @Test(arguments: lengths)
    func aStringEndsAtTheEdge(length: Int) throws {
        let value = Self.letters(length)
        let parsed = try StringsParser.parse(Array("\"k\" = \"\(value)\";\n\"\(value)\" = \"v\";".utf8))
        #expect(parsed.table == ["k": value, value: "v"])
        #expect(parsed.entries.map(\.location.line) == [1, 2])
    }

    @Test(arguments: lengths)
    func anEscapeIsSplitAtTheEdge(length: Int) throws {
        // The backslash just before, at and after the edge, and its character after it.
        let value = Self.letters(length - 1)
        let source = "\"k\" = \"\(value)\\\"b\\n\\U00e9\\101\";\n\"k2\" = \"\(value)\\\\\";"
        let parsed = try StringsParser.parse(Array(source.utf8))
        #expect(parsed.table == ["k": value + "\"b\néA", "k2": value + "\\"])
        #expect(parsed.entries.map(\.location.line) == [1, 2])
    }

    @Test(arguments: lengths)
    func aCommentSpansTheEdge(length: Int) throws {
        // The closing `*/` split by the edge, a lone `*` and a line break at it.
        let text = Self.letters(length)
        let source = "/* \(text)*/\n/*\(text)* \(text)\n*/\n// \(text)\n\"k\" = /*\(text)*/ \"v\";"
        let parsed = try StringsParser.parse(Array(source.utf8))
        #expect(parsed.table == ["k": "v"])
        #expect(parsed.entries.first?.location.line == 5)
    }

    @Test(arguments: lengths)
    func lineBreaksInAStringAtTheEdgeAreCounted(length: Int) throws {
        let value = Self.letters(length)
        let source = "\"k\" = \"\(value)\n\(value)\r\n\(value)\";\n\"k2\" = \"v\";"
        let parsed = try StringsParser.parse(Array(source.utf8))
        #expect(parsed.table == ["k": "\(value)\n\(value)\r\n\(value)", "k2": "v"])
        #expect(parsed.entries.map(\.location.line) == [1, 4])
    }

    @Test(arguments: lengths)
    func badUTF8AtTheEdgeIsLocated(length: Int) throws {
        // A text that is not valid UTF-8 is checked as it is read: the bad byte just after a
        // string's first block, with valid non-ASCII before it in another string.
        let start = Array("\"é\" = \"\(Self.letters(length))".utf8)
        let error = try #require(parseError(start + [0xFF] + Array("\";".utf8)))
        #expect(error.location.line == 1)
        #expect(error.location.column == 8 + length)
        #expect(error.message.hasPrefix("invalid UTF-8 (byte 0xFF)"))
    }

    @Test(arguments: lengths)
    func anUnterminatedStringOrCommentEndingAtTheEdgeIsLocated(length: Int) throws {
        let string = try #require(parseError(Array("\"k\" = \"\(Self.letters(length))".utf8)))
        #expect(string.message == "unterminated string that starts at 1:7")
        // After a value, before its `;` (where a key may start, it ends the file as it does
        // Foundation's: StringsParserFoundationLeniencyTests).
        let comment = try #require(parseError(Array("\"k\" = \"v\"\n/*\(Self.letters(length))*".utf8)))
        #expect(comment.message == "unterminated comment that starts at 2:1")
    }
}
