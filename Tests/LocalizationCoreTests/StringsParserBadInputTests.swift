import Foundation
import LocalizationCore
import Testing

/// A file that must not parse: where the error must point, and words its message must hold.
struct BadStringsCase: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var line: Int
    var column: Int
    var message: String

    init(_ name: String, _ source: String, _ line: Int, _ column: Int, _ message: String) {
        self.init(name, Array(source.utf8), line, column, message)
    }

    init(_ name: String, _ bytes: [UInt8], _ line: Int, _ column: Int, _ message: String) {
        self.name = name
        self.bytes = bytes
        self.line = line
        self.column = column
        self.message = message
    }

    var testDescription: String { name }
}

/// The error `StringsParser` throws for `bytes`, or `nil` (and a recorded issue) if it parses.
func parseError(_ bytes: [UInt8], file: String? = nil) -> ResourceParseError? {
    do {
        let parsed = try StringsParser.parse(bytes, file: file)
        Issue.record("parsed without error: \(parsed.table)")
        return nil
    } catch {
        return error
    }
}

/// A fixed-seed generator (SplitMix64), so a failing mutation can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct StringsParserBadInputTests {
    static let utf8Cases: [BadStringsCase] = [
        .init(
            "truncated inside a string", "\"a\" = \"b\";\n\"c\" = \"d", 2, 7, "unterminated string that starts at 2:7"),
        .init("truncated inside an escape", "\"a\" = \"b\\", 1, 7, "unterminated string that starts at 1:7"),
        .init(
            "truncated after a key", "\"a\" = \"b\";\n\"c\"", 2, 4,
            "expected '=' or ';' after the key that starts at 2:1, but the file ends"),
        .init("truncated after '='", "\"a\" = \"b\";\n\"c\" =", 2, 6, "missing value after the '=' at 2:5"),
        .init("a lone string", "\"abc\"", 1, 6, "expected '=' or ';' after the key that starts at 1:1"),
        .init(
            "missing ';' before the next key", "\"a\" = \"b\"\n\"c\" = \"d\";", 1, 10,
            "missing ';' after the value that starts at 1:7"),
        .init("missing ';' at the end", "x = y", 1, 6, "missing ';' after the value that starts at 1:5"),
        .init("missing ';' before '}'", "{ \"a\" = \"b\" }", 1, 12, "missing ';' after the value that starts at 1:9"),
        .init("missing value", "\"a\" = ;", 1, 7, "missing value after the '=' at 1:5"),
        .init(
            "two strings in a row", "\"a\" \"b\";", 1, 5,
            "expected '=' or ';' after the key that starts at 1:1, found '\"'"),
        .init(
            "comment glued to an unquoted key (CF reads 'key/' as the key)", "key/* c */ = v;", 1, 5,
            "expected '=' or ';' after the key that starts at 1:1, found '*'"),
        .init(
            "unterminated comment after a value", "\"a\" = \"b\"\n/* never closed", 2, 1,
            "unterminated comment that starts at 2:1"),
        .init("unterminated comment after a key", "\"a\" /* = \"b\";", 1, 5, "unterminated comment that starts at 1:5"),
        .init(
            "a dictionary value never closed", "{ \"a\" = { \"b\" = \"c\"; ; }", 1, 22,
            "unexpected ';' in the dictionary that starts at 1:9: expected a key or '}'"),
        .init("nested braces", "{ { } }", 1, 3, "unexpected '{' (nested braces are not allowed)"),
        .init("no key at the very start", "= \"a\" = \"b\";", 1, 1, "unexpected '=' where a key was expected"),
        .init(
            "garbage where a key should be, inside braces", "{ \"a\" = \"b\";\n@@@ }", 2, 1,
            "unexpected '@' where a key was expected"),
        .init(
            "one ';' too many, inside braces", "{ \"a\" = \"b\";; }", 1, 13, "unexpected ';' where a key was expected"),
        .init("junk after the closing brace", "{ \"a\" = \"b\"; } x", 1, 16, "unexpected 'x' after the closing '}'"),
        .init("missing closing brace", "{ \"a\" = \"b\";\n", 2, 1, "missing '}' to close the '{' at 1:1"),
        .init("unquoted value with a space", "a = b c;", 1, 6, "missing ';' after the value that starts at 1:5"),
        .init(
            "array without a comma", "\"a\" = (\"b\" \"c\");", 1, 12,
            "unexpected '\"' in the array that starts at 1:7: expected ',' or ')'"),
        .init(
            "data with odd digits", "\"a\" = <0fb>;", 1, 10,
            "an odd number of hex digits in the data that starts at 1:7"),
        .init("data that is not hex", "\"a\" = <g0>;", 1, 8, "unexpected 'g' in the data"),
        .init("value that cannot start a string", "\"a\" = @x;", 1, 7, "unexpected '@' after the '=' at 1:5"),
    ]

    static let encodingCases: [BadStringsCase] = [
        .init(
            "invalid UTF-8 in a value", Array("\"a\" = \"".utf8) + [0xFF] + Array("\";".utf8), 1, 8,
            "invalid UTF-8 (byte 0xFF)"),
        .init(
            "invalid UTF-8 in a comment", Array("/* ".utf8) + [0xC3] + Array(" */".utf8), 1, 4,
            "invalid UTF-8 (byte 0xC3)"),
        .init(
            "invalid UTF-8 in a line comment", Array("// ".utf8) + [0xFE] + [0x0A], 1, 4, "invalid UTF-8 (byte 0xFE)"),
        .init(
            "invalid UTF-8 after other characters", Array("\n\n\"é\" = \"".utf8) + [0xE3, 0x81] + Array("\";".utf8), 3,
            8,
            "invalid UTF-8 (byte 0xE3)"),
        .init(
            "overlong UTF-8", Array("\"a\" = \"".utf8) + [0xC0, 0xAF] + Array("\";".utf8), 1, 8,
            "invalid UTF-8 (byte 0xC0)"),
        .init(
            "UTF-8-encoded surrogate", Array("\"a\" = \"".utf8) + [0xED, 0xA0, 0x80] + Array("\";".utf8), 1, 8,
            "invalid UTF-8 (byte 0xED)"),
        .init(
            "UTF-8 cut short at the end", Array("\"a\" = \"".utf8) + [0xE3, 0x81], 1, 8, "invalid UTF-8 (byte 0xE3)"),
        .init(
            "invalid UTF-8 between entries", Array("\"a\" = \"b\";".utf8) + [0x80], 1, 11, "invalid UTF-8 (byte 0x80)"),
        .init(
            "invalid UTF-8 before an escape", Array("\"a\" = \"é".utf8) + [0xFF] + Array("\\n\";".utf8), 1, 9,
            "invalid UTF-8 (byte 0xFF)"),
        .init(
            "invalid UTF-8 between escapes", Array("\"a\" = \"\\t".utf8) + [0xC3, 0x28] + Array("\\n\";".utf8), 1, 10,
            "invalid UTF-8 (byte 0xC3)"),
        .init(
            "invalid UTF-8 after a backslash", Array("\"a\" = \"\\".utf8) + [0xFF] + Array("\";".utf8), 1, 9,
            "invalid UTF-8 (byte 0xFF)"),
        .init(
            "odd-length UTF-16", Array(utf16Bytes("\"a\" = \"b\";", bigEndian: false, bom: true).dropLast()), 1, 10,
            "odd number of bytes"),
        .init(
            "unpaired high surrogate in UTF-16",
            utf16Bytes("\"a\" = \"", bigEndian: false, bom: true) + [0x00, 0xD8]
                + utf16Bytes("\";", bigEndian: false, bom: false),
            1, 8, "unpaired surrogate 0xD800"),
        .init(
            "unpaired low surrogate in UTF-16",
            utf16Bytes("\"a\" = \"", bigEndian: true, bom: true) + [0xDC, 0x00]
                + utf16Bytes("\";", bigEndian: true, bom: false),
            1, 8, "unpaired surrogate 0xDC00"),
        .init(
            "high surrogate at the end of UTF-16",
            utf16Bytes("\n\"a\" = \"", bigEndian: false, bom: true) + [0x3D, 0xD8], 2, 8,
            "unpaired surrogate 0xD83D"),
    ]

    @Test(arguments: utf8Cases + encodingCases)
    func badInputIsALocatedError(_ testCase: BadStringsCase) throws {
        let error = try #require(parseError(testCase.bytes, file: "fr.lproj/Localizable.strings"))
        #expect(error.location.line == testCase.line && error.location.column == testCase.column, "\(error)")
        #expect(error.message.contains(testCase.message), "\(error)")
        #expect(error.location.file == "fr.lproj/Localizable.strings")
    }

    /// Where CoreFoundation drops the rest of the file at an unterminated comment, so does
    /// this parser, and says so: an early end, which lint and the daemon report (it used to
    /// be an error here, which lost every string of the file where Foundation kept those
    /// before it; `StringsParserFoundationLeniencyTests`).
    @Test func asLenientAsCoreFoundationAtAnUnclosedComment() throws {
        let bytes = Array("\"a\" = \"b\";\n/* \"c\" = \"d\";".utf8)
        #expect(foundationStringsTable(bytes) == ["a": "b"], "Foundation's lenience changed: update this test")
        let table = try StringsParser.parseTable(bytes)
        #expect(table.dictionary == ["a": "b"])
        #expect(table.earlyEnd?.location.line == 2 && table.earlyEnd?.location.column == 1)
    }

    /// The same mistakes in UTF-16 are reported at the same line and column.
    @Test(arguments: utf8Cases, [false, true])
    func badInputInUTF16(_ testCase: BadStringsCase, bigEndian: Bool) throws {
        let text = String(decoding: testCase.bytes, as: UTF8.self)
        let error = try #require(parseError(utf16Bytes(text, bigEndian: bigEndian, bom: true)))
        #expect(error.location.line == testCase.line && error.location.column == testCase.column, "\(error)")
        #expect(error.message.contains(testCase.message), "\(error)")
    }

    /// About 50 MB of entries with comments and non-ASCII text parses whole, in linear time.
    @Test func fiftyMegabyteFile() throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(52_000_000)
        var count = 0
        while bytes.count < 50_000_000 {
            bytes += Array("/* Class = \"NSMenuItem\"; title = \"Item \(count)\"; ObjectID = \"x-\(count)\"; */\n".utf8)
            bytes += Array("\"key.\(count)\" = \"Valeur n° \(count) — « ok » \\\"多言語化\\\"\\n\";\n\n".utf8)
            count += 1
        }
        let clock = ContinuousClock()
        var parsed: ParsedStrings?
        let elapsed = try clock.measure { parsed = try StringsParser.parse(bytes) }
        let result = try #require(parsed)
        #expect(result.table.count == count)
        #expect(result.table["key.\(count - 1)"] == "Valeur n° \(count - 1) — « ok » \"多言語化\"\n")
        #expect(result.entries.last?.location == SourceLocation(line: 3 * count - 1, column: 1))
        print("fiftyMegabyteFile: \(bytes.count) bytes, \(count) entries in \(elapsed)")
        #expect(elapsed < .seconds(60))
    }

    /// Errors in huge files come back quickly and point right, however far in they are.
    @Test(arguments: ["string", "comment", "late"])
    func fiftyMegabyteErrors(kind: String) throws {
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 50_000_000)
        let (bytes, line, column, message): ([UInt8], Int, Int, String) =
            switch kind {
            case "string": (Array("\"a\" = \"".utf8) + filler, 1, 7, "unterminated string that starts at 1:7")
            case "comment":
                (Array("\"a\" = \"b\" /*".utf8) + filler, 1, 11, "unterminated comment that starts at 1:11")
            default: (Array("/*".utf8) + filler + Array("*/\n\"a\" = \"b\"\n".utf8), 2, 10, "missing ';'")
            }
        let error = try #require(parseError(bytes))
        #expect(error.location.line == line && error.location.column == column, "\(error)")
        #expect(error.message.contains(message))
    }

    /// Thousands of random edits of a real file (fixed seed): parsing returns or throws a
    /// located error, never crashes or hangs. The file is the corpus's: skipped where a
    /// user's own clone has no `../shared`.
    @Test(.enabled(if: Corpus.isPresent, "the corpus ../shared/corpus/iina is absent"))
    func randomMutationsNeverCrash() throws {
        let sampleURL = Corpus.root.appendingPathComponent("fr.lproj/MainMenu.strings")
        var original = Array(try Data(contentsOf: sampleURL))
        // Keep each mutation quick in a debug build: a few kilobytes, ending after an entry.
        if original.count > 6_000 {
            let entryEnd = Array("\";\n".utf8)
            let end = (0..<6_000).last { original[$0...].starts(with: entryEnd) } ?? 5_998
            original = Array(original[...(end + 1)])
        }
        #expect(throws: Never.self) { try StringsParser.parse(original) }
        let specials: [UInt8] =
            Array("\"'\\/*{};=\n\r\t".utf8) + [0x00, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF4, 0xFF, 0xFE]
        var generator = SeededGenerator(state: 20_241_129)
        var parsedCount = 0
        var errorCount = 0
        for _ in 0..<3_000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...2, using: &generator) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<12, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1:
                    bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...16, using: &generator)))
                case 2: bytes.insert(specials.randomElement(using: &generator)!, at: index)
                case 3: bytes.removeSubrange(index...)
                case 4: bytes.insert(contentsOf: bytes[index..<min(bytes.count, index + 40)], at: index)
                case 5: bytes.insert(contentsOf: [0xFF, 0xFE], at: 0)
                case 6: bytes[index] = specials.randomElement(using: &generator)!
                default:
                    // A printable ASCII byte, which often leaves the file valid.
                    bytes[index] = UInt8.random(in: 0x20...0x7E, using: &generator)
                }
            }
            do {
                let parsed = try StringsParser.parse(bytes)
                #expect(parsed.entries.count == parsed.table.count + parsed.duplicates.count)
                parsedCount += 1
            } catch {
                #expect(error.location.line >= 1 && error.location.column >= 1)
                #expect(!error.message.isEmpty)
                errorCount += 1
            }
        }
        print("randomMutationsNeverCrash: \(parsedCount) parsed, \(errorCount) errors")
        #expect(parsedCount > 0 && errorCount > 0)
    }
}
