import Foundation
import LocalizationCore
import Testing

/// One grammar case: `.strings` source, the table it must give, and whether Foundation (which
/// runs CoreFoundation's parser) gives the same.
struct StringsCase: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String
    var expected: [String: String]
    var foundationAgrees = true

    var testDescription: String { name }
}

/// `text` as UTF-16, little- or big-endian, with or without a byte order mark.
func utf16Bytes(_ text: String, bigEndian: Bool, bom: Bool) -> [UInt8] {
    let units = (bom ? [0xFEFF] : []) + Array(text.utf16)
    return units.flatMap { unit -> [UInt8] in
        let high = UInt8(unit >> 8)
        let low = UInt8(truncatingIfNeeded: unit)
        return bigEndian ? [high, low] : [low, high]
    }
}

@Suite struct StringsParserHardCaseTests {
    static let cases: [StringsCase] = [
        StringsCase(
            name: "named escapes",
            source: #""k" = "a\nb\tc\rd\"e\\f\ag\bh\fi\vj";"#,
            expected: ["k": "a\nb\tc\rd\"e\\f\u{7}g\u{8}h\u{C}i\u{B}j"]),
        StringsCase(
            name: "any other escaped character stands for itself",
            source: #""k" = "\q\z\'\é\😀\/";"#,
            expected: ["k": "qz'é😀/"]),
        StringsCase(
            name: "backslash before a line break",
            source: "\"k\" = \"a\\\nb\";",
            expected: ["k": "a\nb"]),
        StringsCase(
            name: "\\U with one to four hex digits, stopping at a non-digit",
            source: #""k" = "\U00e9\U41\U4E2D\Ug\U0041B";"#,
            expected: ["k": "éA中\u{0}gAB"]),
        StringsCase(
            name: "\\U surrogate pair joins",
            source: #""k" = "\UD83D\UDE00 \Ud83d\UdE00";"#,
            expected: ["k": "😀 😀"]),
        StringsCase(
            name: "lowercase \\u is no escape: just the letter u",
            source: #""k" = "\UD83D\uDE00";"#,
            expected: ["k": "\u{FFFD}uDE00"]),
        StringsCase(
            name: "lone \\U surrogates become U+FFFD",
            source: #""k" = "\UD83D x \UDE00 y \UD83D\UD83D";"#,
            expected: ["k": "\u{FFFD} x \u{FFFD} y \u{FFFD}\u{FFFD}"]),
        StringsCase(
            name: "octal escapes, NeXTSTEP from 0o200",
            source: #""k" = "\101\0609\0\341\376\777\12";"#,
            expected: ["k": "A09\u{0}Æ\u{0}\u{0}\n"]),
        StringsCase(
            name: "slash continues an unquoted string, even as // or /*",
            source: "url = http://example.com/a/;\nkey//not-a-comment\n = v/;\n",
            expected: ["url": "http://example.com/a/", "key//not-a-comment": "v/"]),
        StringsCase(
            name: "unquoted strings use A-Z a-z 0-9 _ $ / : . -",
            source: "a_b$c:d.e-f/9 = Z.z;",
            expected: ["a_b$c:d.e-f/9": "Z.z"]),
        StringsCase(
            name: "comments between key, '=', value and ';'",
            source:
                "\"k\" /* c */ = /* d */ \"v\" /* e */ ; // end\n\"k2\"//x\n=//y\n\"v2\"//z\n;/**/\"k3\"/***/=\"v3\";",
            expected: ["k": "v", "k2": "v2", "k3": "v3"]),
        StringsCase(
            name: "comment markers inside strings are text",
            source: #""/* a */" = "// b";"#,
            expected: ["/* a */": "// b"]),
        StringsCase(
            name: "outer braces",
            source: "// header\n{\n  \"a\" = \"b\";\n  c = d;\n}\n// trailer\n",
            expected: ["a": "b", "c": "d"]),
        StringsCase(
            name: "empty outer braces",
            source: "{ }",
            expected: [:]),
        StringsCase(
            name: "shorthand key; means value = key",
            source: "\"key\";\n'k2'; k3 ;",
            expected: ["key": "key", "k2": "k2", "k3": "k3"]),
        StringsCase(
            name: "single-quoted strings",
            source: #"'a' = 'b"c'; "d" = 'e\'f';"#,
            expected: ["a": "b\"c", "d": "e'f"]),
        StringsCase(
            name: "duplicate keys: the last wins",
            source: "\"a\" = \"1\";\n\"a\" = \"2\";\n\"a\" = \"3\";",
            expected: ["a": "3"]),
        StringsCase(
            name: "U+2028 and U+2029 are whitespace",
            source: "\"a\"\u{2028}=\u{2029}\"b\";\u{2028}// x\u{2029}\"c\" = \"d\";",
            expected: ["a": "b", "c": "d"]),
        StringsCase(
            name: "CRLF, CR and LF line ends, and a multi-line value",
            source: "\"a\" = \"1\";\r\n\"b\" = \"x\r\ny\";\r\"c\" = \"3\";\n",
            expected: ["a": "1", "b": "x\r\ny", "c": "3"]),
        StringsCase(
            name: "empty key and value",
            source: #""" = "";"#,
            expected: ["": ""]),
        StringsCase(
            name: "non-ASCII everywhere strings may be",
            source: "/* 多言語化 */ \"多言語化\" = \"Multilingualization — ça marche\"; // ✓",
            expected: ["多言語化": "Multilingualization — ça marche"]),
        StringsCase(
            name: "whitespace and comments only",
            source: "\n  /* nothing */ // here\n\t",
            expected: [:]),
        StringsCase(
            name: "empty file is an empty table (Foundation refuses zero bytes)",
            source: "",
            expected: [:],
            foundationAgrees: false),
    ]

    @Test(arguments: cases)
    func grammarCase(_ testCase: StringsCase) throws {
        let bytes = Array(testCase.source.utf8)
        let parsed = try StringsParser.parse(bytes)
        #expect(sameStrings(parsed.table, testCase.expected), "ours: \(parsed.table)")
        if testCase.foundationAgrees {
            let foundation = try #require(foundationStringsTable(bytes), "Foundation refused it")
            #expect(sameStrings(foundation, testCase.expected), "Foundation: \(foundation)")
        } else {
            #expect(foundationStringsTable(bytes).map { sameStrings($0, testCase.expected) } != true)
        }
    }

    /// Every case again, as UTF-16 LE and BE with a byte order mark, and as UTF-8 with one:
    /// the same table, and Foundation agrees wherever it did in UTF-8.
    @Test(arguments: cases.filter { !$0.source.isEmpty }, ["utf-16le", "utf-16be", "utf-8 bom"])
    func encodedWithByteOrderMark(_ testCase: StringsCase, encoding: String) throws {
        let bytes =
            switch encoding {
            case "utf-16le": utf16Bytes(testCase.source, bigEndian: false, bom: true)
            case "utf-16be": utf16Bytes(testCase.source, bigEndian: true, bom: true)
            default: [0xEF, 0xBB, 0xBF] + Array(testCase.source.utf8)
            }
        let parsed = try StringsParser.parse(bytes)
        #expect(sameStrings(parsed.table, testCase.expected))
        if testCase.foundationAgrees {
            #expect(foundationStringsTable(bytes).map { sameStrings($0, testCase.expected) } == true)
        }
    }

    /// UTF-16 without a byte order mark is recognised by a zero in its first two bytes and
    /// reads like the same text with one. Foundation on Linux takes it for UTF-8 and fails or
    /// misreads it, so the text with a byte order mark is the reference here.
    @Test(arguments: [false, true])
    func utf16WithoutByteOrderMark(bigEndian: Bool) throws {
        let source = "/* 多言語化 */\n\"多言語化\" = \"Multilingualization\";\n'a' = \"😀\\n\";\n"
        let withMark = try StringsParser.parse(utf16Bytes(source, bigEndian: bigEndian, bom: true))
        let withoutMark = try StringsParser.parse(utf16Bytes(source, bigEndian: bigEndian, bom: false))
        #expect(withoutMark.table == withMark.table)
        #expect(withoutMark.entries == withMark.entries)
        #expect(withMark.table == ["多言語化": "Multilingualization", "a": "😀\n"])
        let foundation = foundationStringsTable(utf16Bytes(source, bigEndian: bigEndian, bom: false))
        #expect(foundation != withMark.table, "Foundation now reads UTF-16 without a BOM: update this comment")
    }

    @Test func byteOrderMarkOnlyIsAnEmptyTable() throws {
        for bytes: [UInt8] in [[0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF]] {
            let parsed = try StringsParser.parse(bytes)
            #expect(parsed.table.isEmpty && parsed.entries.isEmpty)
        }
    }

    /// Every octal escape from 0o200 to 0o377 reads as CoreFoundation's NeXTSTEP table has it.
    @Test func octalEscapesMatchFoundation() throws {
        for byte in 0o200...0o377 {
            let source = Array("\"k\" = \"\\\(String(byte, radix: 8))\";".utf8)
            let ours = try StringsParser.parse(source).table
            let foundation = try #require(foundationStringsTable(source))
            #expect(sameStrings(ours, foundation), "\\\(String(byte, radix: 8)): \(ours) vs \(foundation)")
        }
    }

    @Test func duplicatesAreReportedWithTheirLocations() throws {
        let source = "\"a\" = \"1\";\n\"b\" = \"2\";\n\"a\" = \"3\";\n  'a' = \"4\"; b;\n"
        let parsed = try StringsParser.parse(Array(source.utf8), file: "dup.strings")
        #expect(parsed.table == ["a": "4", "b": "b"])
        #expect(parsed.entries.map(\.key) == ["a", "b", "a", "a", "b"])
        #expect(parsed.entries.map(\.value) == ["1", "2", "3", "4", "b"])
        #expect(parsed.duplicates.map(\.key) == ["a", "a", "b"])
        #expect(parsed.duplicates.map(\.value) == ["3", "4", "b"])
        #expect(
            parsed.duplicates.map(\.location) == [
                SourceLocation(file: "dup.strings", line: 3, column: 1),
                SourceLocation(file: "dup.strings", line: 4, column: 3),
                SourceLocation(file: "dup.strings", line: 4, column: 14),
            ])
        #expect(foundationStringsTable(Array(source.utf8)) == parsed.table)
    }

    /// Key locations count lines (LF, CR, CRLF) and Unicode scalars, in UTF-8 and UTF-16 alike.
    @Test(arguments: ["utf-8", "utf-16le", "utf-16be"])
    func keyLocations(encoding: String) throws {
        let source = "/* é 😀 */ \"a\" = \"x\ny\";\r\n\"b\" = c;\r  d;\n\t/* 中\n文 */ 'e' = f;"
        let bytes =
            switch encoding {
            case "utf-16le": utf16Bytes(source, bigEndian: false, bom: true)
            case "utf-16be": utf16Bytes(source, bigEndian: true, bom: true)
            default: Array(source.utf8)
            }
        let parsed = try StringsParser.parse(bytes)
        let locations = parsed.entries.map { [$0.location.line, $0.location.column] }
        #expect(locations == [[1, 11], [3, 1], [4, 3], [6, 6]])
    }

    /// A key that holds a line break (escaped or not) is located where it starts, not on the
    /// line where it ends.
    @Test(arguments: ["utf-8", "utf-16le"])
    func keysWithLineBreaksAreLocatedWhereTheyStart(encoding: String) throws {
        let source = "\"a\" = \"1\";\n\"b\\\nc\" = \"2\";\n'd\r\ne' = \"3\";\n\"f\" = \"4\";"
        let bytes = encoding == "utf-8" ? Array(source.utf8) : utf16Bytes(source, bigEndian: false, bom: true)
        let parsed = try StringsParser.parse(bytes)
        #expect(parsed.table == ["a": "1", "b\nc": "2", "d\r\ne": "3", "f": "4"])
        let locations = parsed.entries.map { [$0.location.line, $0.location.column] }
        #expect(locations == [[1, 1], [2, 1], [4, 1], [6, 1]])
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func propertyListStringsFiles(format: PropertyListSerialization.PropertyListFormat) throws {
        let table = ["a": "b", "多言語化": "Multilingualization", "empty": ""]
        let data = try PropertyListSerialization.data(fromPropertyList: table, format: format, options: 0)
        let parsed = try StringsParser.parse(Array(data), file: "x.strings")
        #expect(parsed.table == table)
        #expect(parsed.entries.map(\.key) == table.keys.sorted())
        #expect(parsed.duplicates.isEmpty)
    }

    /// A damaged binary property list `.strings` is read by our own binary reader (Foundation's
    /// crashed on some damaged binary input on Linux, and leaks on others): thousands of
    /// random damages never crash, and a file cut short anywhere is an error.
    @Test func damagedBinaryPropertyListsNeverCrash() throws {
        let table = ["a": "b", "多言語化": "Multilingualization", "count": "%d files"]
        let original = [UInt8](try PropertyListSerialization.data(fromPropertyList: table, format: .binary, options: 0))
        var mutator = ByteMutator(seed: 3)
        var failures = 0
        for _ in 0..<3000 {
            do {
                _ = try StringsParser.parse(mutator.damaged(original), file: "x.strings")
            } catch {
                failures += 1
                #expect(error.location.file == "x.strings" && !error.message.isEmpty)
            }
        }
        #expect(failures > 0)
        // Each cut is reported by our reader, never by Foundation's ("not a valid property list").
        for length in stride(from: 6, to: original.count, by: 1) {
            let error = try #require(throws: ResourceParseError.self) {
                try StringsParser.parse(Array(original.prefix(length)))
            }
            #expect(error.message.hasPrefix("damaged binary property list"), "cut at \(length): \(error.message)")
        }
    }

    @Test func propertyListThatIsNotADictionaryOfStrings() throws {
        for object in [["a", "b"], ["a": ["nested": "x"]]] as [Any] {
            let data = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
            #expect(throws: ResourceParseError.self) { try StringsParser.parse(Array(data)) }
        }
    }
}
