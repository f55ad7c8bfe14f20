import Foundation
import Testing

@testable import LocalizationCore

/// Two things CoreFoundation's old-style parser accepts in a `.strings` file that l10nd used
/// to refuse whole (issue 25): a `/*` comment never closed, which CoreFoundation reads to
/// the end of the file, and values that are arrays, dictionaries or data. Foundation keeps
/// the file's string keys; so does the parser, and it says what it left out. Foundation on
/// this machine (`PropertyListSerialization`, CoreFoundation's parser, as `Bundle` reads a
/// table) is the oracle.
@Suite struct StringsParserFoundationLeniencyTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        /// The keys whose values are no strings, in file order.
        var skipped: [String] = []
        var testDescription: String { name }
    }

    static let accepted: [Case] = [
        Case(name: "a trailing comment never closed", text: "\"a\" = \"b\";\n/* never closed"),
        Case(
            name: "a comment never closed hides entries", text: "\"a\" = \"b\";\n/* never closed\n\"c\" = \"d\";"),
        Case(name: "a closed comment, then one never closed", text: "\"a\" = \"b\"; /* x */ /* y"),
        Case(name: "only a comment never closed", text: "/* nothing else"),
        Case(
            name: "an array", text: "\"a\" = \"b\";\n\"arr\" = (\"x\", \"y\");\n\"c\" = \"d\";", skipped: ["arr"]),
        Case(
            name: "a dictionary", text: "\"a\" = \"b\";\n\"dict\" = { \"x\" = \"y\"; };\n\"c\" = \"d\";",
            skipped: ["dict"]),
        Case(name: "data", text: "\"a\" = \"b\";\n\"data\" = <0fbd>;\n\"c\" = \"d\";", skipped: ["data"]),
        Case(name: "data with spaces", text: "\"data\" = < 0f\tbd\n01 >;\n\"c\" = \"d\";", skipped: ["data"]),
        Case(
            name: "empty ones", text: "\"e\" = ();\n\"f\" = {};\n\"g\" = <>;\n\"c\" = \"d\";", skipped: ["e", "f", "g"]),
        Case(
            name: "nested, with a trailing comma",
            text: "\"a\" = \"b\";\n\"arr\" = (\"x\", (\"y\"), {\"k\"=\"v\";}, <00>,);\n\"c\" = \"d\";", skipped: ["arr"]
        ),
        Case(
            name: "a dictionary of arrays and data",
            text: "\"d\" = {\"x\" = (\"y\", <ab>); z; \"w\" = {};};\n\"c\" = \"d\";", skipped: ["d"]),
        Case(
            name: "comments inside an array", text: "\"d\" = ( /* hi */ \"x\" , // z\n \"y\" );\n\"c\" = \"d\";",
            skipped: ["d"]),
        Case(name: "an escaped string inside", text: "\"d\" = (\"x\\ny\\U00e9\");\n\"c\" = \"d\\t\";", skipped: ["d"]),
        Case(name: "a later string wins", text: "\"a\" = (\"x\");\n\"a\" = \"b\";\n", skipped: ["a"]),
        Case(name: "a later array wins", text: "\"a\" = \"b\";\n\"a\" = (\"x\");\n\"c\" = \"d\";", skipped: ["a"]),
        Case(name: "inside outer braces", text: "{ \"a\" = (\"x\"); \"c\" = \"d\"; }", skipped: ["a"]),
        Case(name: "the first entry", text: "\"a\" = (\"b\");", skipped: ["a"]),
    ]

    /// What CoreFoundation refuses in them, so does the parser.
    static let refused: [Case] = [
        Case(name: "odd hex digits", text: "\"a\" = \"b\";\n\"d\" = <0fb>;\n\"c\" = \"d\";"),
        Case(name: "not hex", text: "\"a\" = \"b\";\n\"d\" = <zz>;"),
        Case(name: "a comment in data", text: "\"a\" = \"b\";\n\"d\" = <0f /* x */ bd>;"),
        Case(name: "no comma", text: "\"a\" = \"b\";\n\"arr\" = (\"x\" \"y\");"),
        Case(name: "an array never closed", text: "\"a\" = \"b\";\n\"arr\" = (\"x\""),
        Case(name: "a lone comma", text: "\"a\" = \"b\";\n\"arr\" = (,);"),
        Case(name: "no ';' after data", text: "\"a\" = \"b\";\n\"d\" = <0fbd>\n\"c\" = \"d\";"),
        Case(name: "no ';' inside a dictionary", text: "\"a\" = \"b\";\n\"d\" = {\"x\" = \"y\"};"),
        Case(name: "a comment never closed after a key", text: "\"a\" = \"b\";\n\"c\" /* never closed"),
        Case(name: "a comment never closed after a value", text: "\"a\" = \"b\"\n/* never closed"),
        Case(name: "a comment never closed inside braces", text: "{ \"a\" = \"b\"; /* never closed"),
        Case(name: "a comment never closed inside an array", text: "\"a\" = (\"b\", /* never closed"),
    ]

    /// The string keys and values Foundation reads from `bytes`, and the keys whose values
    /// are something else; `nil` when it refuses the bytes.
    static func foundation(_ bytes: [UInt8]) -> (strings: [String: String], others: Set<String>)? {
        guard let object = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil),
            let dictionary = object as? [String: Any]
        else { return nil }
        var strings: [String: String] = [:]
        var others: Set<String> = []
        for (key, value) in dictionary {
            if let string = value as? String { strings[key] = string } else { others.insert(key) }
        }
        return (strings, others)
    }

    @Test(arguments: accepted)
    func keepsTheStringsFoundationKeeps(_ example: Case) throws {
        let bytes = Array(example.text.utf8)
        let oracle = try #require(Self.foundation(bytes), "Foundation refused \(example.name)")
        let table = try StringsParser.parseTable(bytes, file: "fr.lproj/Localizable.strings")
        #expect(sameStrings(table.dictionary, oracle.strings))
        #expect(table.nonStringValues.map(table.key(of:)) == example.skipped)
        // Every key Foundation holds as something other than a string is one this table
        // left out, and said so.
        #expect(oracle.others.isSubset(of: Set(table.nonStringValues.map(table.key(of:)))))
    }

    @Test(arguments: refused)
    func refusesWhatFoundationRefuses(_ example: Case) {
        let bytes = Array(example.text.utf8)
        #expect(Self.foundation(bytes) == nil, "Foundation read \(example.name)")
        #expect(throws: ResourceParseError.self) { try StringsParser.parseTable(bytes) }
    }

    /// A comment never closed where a key could start ends the parse, said where it starts;
    /// anywhere else the error names the comment.
    @Test func anUnclosedCommentIsAnEarlyEnd() throws {
        let table = try StringsParser.parseTable(
            Array("\"a\" = \"b\";\n  /* never closed\n\"c\" = \"d\";".utf8), file: "x.strings")
        let end = try #require(table.earlyEnd)
        #expect(end.cause == .unclosedComment)
        #expect(end.location == SourceLocation(file: "x.strings", line: 2, column: 3))
        #expect(
            table.problems.map(\.description) == [
                "x.strings:2:3: the comment that starts here is never closed, so it runs to the end of the file: the 1 "
                    + "entries before it are served (as Foundation serves them), the rest of the file is not"
            ])
        #expect(throws: ResourceParseError.self) { try StringsParser.parseTable(Array("\"a\" /* x".utf8)) }
        do {
            _ = try StringsParser.parseTable(Array("\"a\" = \"b\";\n\"c\" = /* x".utf8))
        } catch {
            #expect(error.description == "2:7: unterminated comment that starts at 2:7")
        }
    }

    /// Each value that is no string is a problem of its own, an entry lost, at its key.
    @Test func nonStringValuesAreListedProblems() throws {
        let table = try StringsParser.parseTable(
            Array("\"a\" = \"b\";\n\"list\" = (\"x\");\n  \"blob\" = <00>;\n".utf8), file: "de.lproj/A.strings")
        #expect(table.dictionary == ["a": "b"])
        let problems = table.problems
        #expect(problems.map(\.location.line) == [2, 3])
        #expect(problems.map(\.location.column) == [1, 3])
        #expect(problems.allSatisfy { $0.isEntryLost })
        #expect(problems[0].message.hasPrefix("the value of \"list\" is an array, not a string"))
        #expect(problems[1].message.hasPrefix("the value of \"blob\" is data, not a string"))
        // The readers that serve files hand them on: the daemon lists them beside the file.
        let read = try ParsedResource.read(Array("\"k\" = {};\n".utf8), kind: .strings, file: "f.strings")
        #expect(read.problems.map { $0.message.hasPrefix("the value of \"k\" is a dictionary") } == [true])
        var sharing = KeySharing()
        let shared = try sharing.read(Array("\"k\" = <00>;".utf8), kind: .strings, file: "f.strings", table: "T")
        #expect(shared.problems.count == 1)
        let segment = try SegmentSource.read(Array("\"k\" = ();".utf8), kind: .strings)
        #expect(segment.problems.count == 1)
    }

    /// Files made at random of string entries, array, dictionary and data values nested in
    /// each other, comments, and now and then a comment never closed at the end: the parser
    /// keeps exactly the string keys and values Foundation keeps, and names every other key.
    @Test(arguments: 0..<8)
    func randomFilesAgreeWithFoundation(seed: UInt64) throws {
        var generator = SeededGenerator(state: 0x5EED_0025 &+ seed)
        let strings = ["\"a\"", "\"é\\n\"", "plain", "'q'", "\"\\U00e9\"", "x.y-z", "\"/*\"", "\"\""]
        let gaps = [" ", "\n", " /* c */ ", " // l\n", "\t", "\r\n", "\u{2028}"]
        func gap() -> String { gaps.randomElement(using: &generator)! }
        func value(depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 2 ? 1 : 5), using: &generator) {
            case 1:
                let items = (0..<Int.random(in: 0...3, using: &generator)).map { _ in value(depth: depth + 1) }
                let trailing = !items.isEmpty && Bool.random(using: &generator) ? "," : ""
                return "(" + gap() + items.joined(separator: "," + gap()) + trailing + gap() + ")"
            case 2:
                let pairs = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    Bool.random(using: &generator)
                        ? strings.randomElement(using: &generator)! + ";"
                        : strings.randomElement(using: &generator)! + gap() + "=" + gap() + value(depth: depth + 1)
                            + ";"
                }
                return "{" + gap() + pairs.joined(separator: gap()) + gap() + "}"
            case 3:
                let bytes = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    String(format: "%02x", Int.random(in: 0..<256, using: &generator))
                }
                return "<" + bytes.joined(separator: [" ", "", "\n"].randomElement(using: &generator)!) + ">"
            default: return strings.randomElement(using: &generator)!
            }
        }
        for _ in 0..<200 {
            var text = gap()
            for index in 0..<Int.random(in: 1...8, using: &generator) {
                let key = Bool.random(using: &generator) ? "\"k\(index % 5)\"" : "k\(index % 5)"
                text += key + gap() + "=" + gap() + value(depth: 0) + gap() + ";" + gap()
            }
            if Int.random(in: 0..<4, using: &generator) == 0 { text += "/* never closed \"z\" = \"y\";" }
            let bytes = Array(text.utf8)
            let oracle = try #require(Self.foundation(bytes), "Foundation refused \(text.debugDescription)")
            let table = try StringsParser.parseTable(bytes)
            #expect(sameStrings(table.dictionary, oracle.strings), "\(text.debugDescription)")
            #expect(
                oracle.others.isSubset(of: Set(table.nonStringValues.map(table.key(of:)))), "\(text.debugDescription)")
        }
    }

    /// A file of a thousand nested arrays is refused with a message, not a crash.
    @Test func deepNestingIsRefused() {
        let text = "\"a\" = " + String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000) + ";"
        #expect(throws: ResourceParseError.self) { try StringsParser.parseTable(Array(text.utf8)) }
    }

    /// UTF-16 files take the same path after transcoding.
    @Test func utf16FilesToo() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "\"a\" = (\"x\");\n\"b\" = \"c\";\n/* open".utf16 {
            bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let table = try StringsParser.parseTable(bytes)
        #expect(table.dictionary == ["b": "c"])
        #expect(table.nonStringValues.count == 1)
        #expect(table.earlyEnd?.cause == .unclosedComment)
    }
}
