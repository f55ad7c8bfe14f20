import LocalizationCore
import Testing

/// A `.strings` file made at random from the grammar's tricky pieces, with what it must parse to.
///
/// The pieces are chosen so that their readings simply join: every `\U` escape has four digits
/// and every octal escape three, so no escape runs on into the next piece, and a lone `\U`
/// surrogate is followed by a letter.
struct GeneratedStringsFile {
    /// The source text.
    var source = ""
    /// Each entry's key, value and where its key starts, in file order.
    var entries: [(key: String, value: String, offset: Int)] = []
    /// UTF-8 offsets between two pieces, where a stray byte is the first thing wrong in the file.
    var pieceBoundaries: [Int] = []

    /// A piece of a quoted string's source and what it reads as.
    private static let quotedPieces: [(source: String, value: String)] = [
        ("plain", "plain"), ("x", "x"), (" ", " "), ("", ""),
        (String(repeating: "a", count: 15), String(repeating: "a", count: 15)),
        (String(repeating: "b", count: 16), String(repeating: "b", count: 16)),
        (String(repeating: "c", count: 17), String(repeating: "c", count: 17)),
        ("\\n", "\n"), ("\\t", "\t"), ("\\r", "\r"), ("\\a", "\u{7}"), ("\\b", "\u{8}"), ("\\f", "\u{C}"),
        ("\\v", "\u{B}"), ("\\\"", "\""), ("\\'", "'"), ("\\\\", "\\"), ("\\q", "q"), ("\\/", "/"),
        ("\\U00e9", "é"), ("\\U4E2D", "中"), ("\\UD83D\\UDE00", "😀"), ("\\UD83Dx", "\u{FFFD}x"),
        ("\\UDE00", "\u{FFFD}"), ("\\101", "A"), ("\\341", "Æ"), ("\\012", "\n"),
        ("\\é", "é"), ("\\😀", "😀"), ("\\\n", "\n"), ("\\\r\n", "\r\n"),
        ("é", "é"), ("中文", "中文"), ("😀", "😀"),
        ("Ünïcödé text, more than sixteen bytes", "Ünïcödé text, more than sixteen bytes"),
        ("\n", "\n"), ("\r\n", "\r\n"), ("\r", "\r"), ("\t", "\t"), ("\u{2028}", "\u{2028}"),
        ("/*", "/*"), ("*/", "*/"), ("//", "//"), ("=;{}", "=;{}"),
    ]

    /// Whitespace and comments between tokens; each one starts with whitespace, so none glues
    /// onto an unquoted string before it.
    private static let separators = [
        " ", "  ", "\n", "\r\n", "\r", "\t", "\n\n", " /* c */ ", " /* é 中 😀 */", "\n/* a\nb\r\nc */\n",
        " // line é\n", "\u{2028}", " \u{2029} ", " /**/", " /***/ ", "\n\t" + String(repeating: " ", count: 17),
        " /* Class = \"NSMenuItem\"; title = \"Ouvrir…\"; ObjectID = \"a-b-c\"; */\n",
    ]

    private static let unquoted = ["a_b", "K9", "x.y-z", "url:/a/b", "$v", "http://example.com/p"]

    /// A file of up to `maximumEntries` entries made with `generator`.
    init(maximumEntries: Int, using generator: inout SeededGenerator) {
        // Leading spaces move everything against the 16-byte blocks the scanner reads.
        append(String(repeating: " ", count: Int.random(in: 0..<24, using: &generator)))
        let braces = Int.random(in: 0..<4, using: &generator) == 0
        if braces { append("{") }
        append(Self.separators.randomElement(using: &generator)!)
        for _ in 0..<Int.random(in: 0...maximumEntries, using: &generator) {
            let keyOffset = source.utf8.count
            let key = appendString(using: &generator, shortKey: true)
            append(Self.separators.randomElement(using: &generator)!)
            if Int.random(in: 0..<6, using: &generator) == 0 {
                append(";")
                entries.append((key, key, keyOffset))
            } else {
                append("=")
                append(Self.separators.randomElement(using: &generator)!)
                let value = appendString(using: &generator, shortKey: false)
                append(Self.separators.randomElement(using: &generator)!)
                append(";")
                entries.append((key, value, keyOffset))
            }
            append(Self.separators.randomElement(using: &generator)!)
        }
        if braces { append("}\n") }
    }

    /// Appends a quoted or unquoted string and returns what it reads as. A key is at most two
    /// pieces, so that files often hold the same key twice.
    private mutating func appendString(using generator: inout SeededGenerator, shortKey: Bool) -> String {
        if Int.random(in: 0..<5, using: &generator) == 0 {
            let text = Self.unquoted.randomElement(using: &generator)!
            append(text)
            return text
        }
        let quote = Bool.random(using: &generator) ? "\"" : "'"
        append(quote)
        var value = ""
        let count = shortKey ? Int.random(in: 0...2, using: &generator) : Int.random(in: 0...8, using: &generator)
        // No piece holds a quote unescaped, so any of them fits between either quote.
        for _ in 0..<count {
            let piece = Self.quotedPieces.randomElement(using: &generator)!
            append(piece.source)
            value += piece.value
        }
        append(quote)
        return value
    }

    private mutating func append(_ piece: String) {
        pieceBoundaries.append(source.utf8.count)
        source += piece
    }

    /// A random offset between two pieces, past the first byte (where a stray byte could make a
    /// byte order mark); `nil` for a file of one piece.
    func randomInnerBoundary(using generator: inout SeededGenerator) -> Int? {
        pieceBoundaries.filter { $0 > 0 }.randomElement(using: &generator)
    }

    /// The table the entries make: the last of each key wins.
    var table: [String: String] {
        var table: [String: String] = [:]
        for entry in entries { table[entry.key] = entry.value }
        return table
    }

    /// The line and column of UTF-8 offset `offset`, counted the plain way: over the Unicode
    /// scalars before it, a line ending at `\n`, `\r` or `\r\n`.
    func location(ofOffset offset: Int) -> (line: Int, column: Int) {
        let prefix = String(decoding: source.utf8.prefix(offset), as: UTF8.self)
        var line = 1
        var column = 1
        var previous: Unicode.Scalar?
        for scalar in prefix.unicodeScalars {
            if scalar == "\n" && previous == "\r" {
                // The second half of one line break.
            } else if scalar == "\n" || scalar == "\r" {
                line += 1
                column = 1
            } else {
                column += 1
            }
            previous = scalar
        }
        return (line, column)
    }
}

@Suite struct StringsParserPropertyTests {
    /// Random files of the grammar's tricky pieces (escapes, non-ASCII text, line breaks,
    /// comments, at every alignment) parse to what their pieces say, in UTF-8 and in UTF-16 of
    /// both byte orders, with every key where it is.
    @Test func randomFilesParseToTheirPieces() throws {
        var generator = SeededGenerator(state: 6_2026)
        for _ in 0..<250 {
            let file = GeneratedStringsFile(maximumEntries: 8, using: &generator)
            for encoding in ["utf-8", "utf-16le", "utf-16be"] {
                let bytes =
                    switch encoding {
                    case "utf-16le": utf16Bytes(file.source, bigEndian: false, bom: true)
                    case "utf-16be": utf16Bytes(file.source, bigEndian: true, bom: true)
                    default: Array(file.source.utf8)
                    }
                let parsed = try StringsParser.parse(bytes)
                let context = "\(encoding): \(file.source.debugDescription)"
                // Byte for byte: `==` on strings would accept canonically equivalent ones.
                #expect(
                    parsed.entries.map { Array($0.key.utf8) } == file.entries.map { Array($0.key.utf8) }, "\(context)")
                #expect(
                    parsed.entries.map { Array($0.value.utf8) } == file.entries.map { Array($0.value.utf8) },
                    "\(context)")
                #expect(sameStrings(parsed.table, file.table), "\(context)")
                let locations = parsed.entries.map { [$0.location.line, $0.location.column] }
                let expected = file.entries.map { entry in
                    let location = file.location(ofOffset: entry.offset)
                    return [location.line, location.column]
                }
                #expect(locations == expected, "\(context)")
                #expect(parsed.entries.count == parsed.table.count + parsed.duplicates.count, "\(context)")
            }
        }
    }

    /// A byte that cannot be UTF-8, put between two pieces of a random file, is the error,
    /// located where it is, whether it lands in a string, an escape, a comment or whitespace.
    @Test func aStrayByteIsReportedWhereItIs() throws {
        var generator = SeededGenerator(state: 7_2026)
        let strayBytes: [UInt8] = [0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF4, 0xF5, 0xFE, 0xFF]
        for _ in 0..<250 {
            let file = GeneratedStringsFile(maximumEntries: 6, using: &generator)
            guard let offset = file.randomInnerBoundary(using: &generator) else { continue }
            let stray = strayBytes.randomElement(using: &generator)!
            var bytes = Array(file.source.utf8)
            bytes.insert(stray, at: offset)
            try expectError(
                bytes, atOffset: offset, of: file,
                saying: "invalid UTF-8 (byte 0x\(String(stray, radix: 16, uppercase: true)))")
        }
    }

    /// An unpaired surrogate put between two pieces of a random UTF-16 file is the error, located
    /// where it is, and so is a last unit cut in half.
    @Test(arguments: [false, true])
    func brokenUTF16IsReportedWhereItIs(bigEndian: Bool) throws {
        var generator = SeededGenerator(state: bigEndian ? 8_2026 : 9_2026)
        for _ in 0..<150 {
            let file = GeneratedStringsFile(maximumEntries: 6, using: &generator)
            guard let offset = file.randomInnerBoundary(using: &generator) else { continue }
            let surrogate = UInt16.random(in: 0xD800...0xDFFF, using: &generator)
            let before = String(decoding: file.source.utf8.prefix(offset), as: UTF8.self)
            let after = String(decoding: file.source.utf8.dropFirst(offset), as: UTF8.self)
            let high = UInt8(surrogate >> 8)
            let low = UInt8(surrogate & 0xFF)
            let bytes =
                utf16Bytes(before, bigEndian: bigEndian, bom: true) + (bigEndian ? [high, low] : [low, high])
                + utf16Bytes(after, bigEndian: bigEndian, bom: false)
            try expectError(
                bytes, atOffset: offset, of: file,
                saying: "unpaired surrogate 0x\(String(surrogate, radix: 16, uppercase: true))")

            // Cut in the middle of the last unit (every file ends in a character of one unit):
            // the error is where that character was.
            let whole = utf16Bytes(file.source, bigEndian: bigEndian, bom: true)
            let lastLength = String(file.source.unicodeScalars.last!).utf8.count
            try expectError(
                Array(whole.dropLast()), atOffset: file.source.utf8.count - lastLength, of: file,
                saying: "odd number of bytes")
        }
    }

    /// Parsing `bytes` must fail at UTF-8 offset `offset` of `file`'s source, with `message`.
    private func expectError(
        _ bytes: [UInt8], atOffset offset: Int, of file: GeneratedStringsFile, saying message: String
    ) throws {
        let context = "\(message) at \(offset) of \(file.source.debugDescription)"
        let error = try #require(parseError(bytes), "\(context)")
        let location = file.location(ofOffset: offset)
        #expect(error.location.line == location.line, "\(context): \(error)")
        #expect(error.location.column == location.column, "\(context): \(error)")
        #expect(error.message.contains(message), "\(context): \(error)")
    }
}
