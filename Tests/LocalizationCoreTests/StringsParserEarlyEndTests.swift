import Foundation
import Testing

@testable import LocalizationCore

/// Outside braces, a character that cannot start a key ends CoreFoundation's parse as a
/// success, keeping every entry before it (issue 25: a French file ending `…";=` lost its
/// 497 keys here while Foundation served them). The parser does the same and says where;
/// Foundation on this machine (CoreFoundation's parser) is the reference.
@Suite struct StringsParserEarlyEndTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let keys: [String: String]
        let line: Int
        let column: Int
        let found: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "'=' after a ';' (the issue's file)",
            text: "\"New Drive…\" = \"Nouveau lecteur…\";=\n\"Later\" = \"Plus tard\";\n",
            keys: ["New Drive…": "Nouveau lecteur…"], line: 1, column: 35, found: "'='"),
        Case(
            name: "one ';' too many", text: "\"a\" = \"b\";;\n\"c\" = \"d\";", keys: ["a": "b"], line: 1, column: 11,
            found: "';'"),
        Case(name: "stray '@'", text: "\"a\" = \"b\";\n@@@", keys: ["a": "b"], line: 2, column: 1, found: "'@'"),
        Case(
            name: "unquoted non-ASCII key", text: "\"a\" = \"b\";\né = \"x\";", keys: ["a": "b"], line: 2, column: 1,
            found: "'é' (U+00E9)"),
        Case(name: "NUL byte", text: "\"a\" = \"b\";\u{0}", keys: ["a": "b"], line: 1, column: 11, found: "U+0000"),
        Case(name: "stray '}'", text: "\"a\" = \"b\"; }", keys: ["a": "b"], line: 1, column: 12, found: "'}'"),
        Case(
            name: "a brace after entries", text: "\"a\" = \"b\"; { \"c\" = \"d\"; }", keys: ["a": "b"], line: 1,
            column: 12, found: "'{'"),
        Case(
            name: "after a comment", text: "\"a\" = \"b\"; /* note */ ; \"c\" = \"d\";", keys: ["a": "b"], line: 1,
            column: 23, found: "';'"),
    ]

    @Test(arguments: cases)
    func keepsTheEntriesBeforeTheCharacter(_ example: Case) throws {
        let bytes = Array(example.text.utf8)
        let table = try StringsParser.parseTable(bytes, file: "fr.lproj/Localizable.strings")
        let parsed = ParsedStrings(table)
        #expect(parsed.table == example.keys)
        let end = try #require(table.earlyEnd)
        #expect(end.location.line == example.line && end.location.column == example.column)
        #expect(end.found == example.found)
        #expect(end.location.file == "fr.lproj/Localizable.strings")
    }

    /// The same bytes as CoreFoundation reads them on this machine: the same keys.
    @Test(arguments: cases)
    func agreesWithFoundation(_ example: Case) throws {
        let bytes = Array(example.text.utf8)
        let foundation = try #require(foundationStringsTable(bytes), "Foundation refused \(example.name)")
        #expect(sameStrings(ParsedStrings(try StringsParser.parseTable(bytes)).table, foundation))
    }

    /// The place is the same whatever the block search's kernel and wherever its block edges
    /// fall (run with `L10N_SCAN_KERNEL=portable` or `avx2` for the other kernels).
    @Test(arguments: [14, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129])
    func endsAtTheSamePlaceAroundBlockEdges(length: Int) throws {
        let text = String(repeating: "a", count: length)
        let source = "\"k\" = \"\(text)\";\n/* \(text) */ ;\"x\" = \"y\";"
        let table = try StringsParser.parseTable(Array(source.utf8))
        #expect(ParsedStrings(table).table == ["k": text])
        #expect(table.earlyEnd?.location.line == 2)
        #expect(table.earlyEnd?.location.column == length + 8)
        #expect(foundationStringsTable(Array(source.utf8)) == ["k": text])
    }

    /// UTF-16 files take the same path after transcoding.
    @Test func utf16FilesEndEarlyToo() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "\"a\" = \"b\";;".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let table = try StringsParser.parseTable(bytes)
        #expect(ParsedStrings(table).table == ["a": "b"])
        #expect(table.earlyEnd?.location.column == 11)
    }

    /// Before any entry, Foundation refuses the file: still an error.
    @Test func beforeAnyEntryItIsStillAnError() {
        let bytes = Array("= \"a\" = \"b\";".utf8)
        #expect(foundationStringsTable(bytes) == nil)
        #expect(throws: ResourceParseError.self) { try StringsParser.parseTable(bytes) }
    }

    /// Inside braces CoreFoundation wants the `}`: still an error.
    @Test func insideBracesItIsStillAnError() {
        #expect(throws: ResourceParseError.self) { try StringsParser.parseTable(Array("{ \"a\" = \"b\";; }".utf8)) }
    }

    /// A whole file has no early end.
    @Test func aWholeFileHasNone() throws {
        #expect(try StringsParser.parseTable(Array("\"a\" = \"b\";\n".utf8)).earlyEnd == nil)
    }
}
