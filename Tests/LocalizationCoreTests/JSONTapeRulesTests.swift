import Testing

@testable import LocalizationCore

/// The one JSON reader's rules are its caller's: what a String Catalog refuses, the wire's
/// lines may hold, and the other way round; the syntax is the same for both.
@Suite struct JSONTapeRulesTests {
    /// The wire's rules, as `LocalizationWire` spells them (its tests check its replies).
    private let wire = JSONTape.Rules(maximumDepth: 64, refusesRepeatedKeys: false, allowsByteOrderMark: false)

    private func fault(_ text: String, _ rules: JSONTape.Rules) -> JSONTape.Fault? {
        do {
            _ = try JSONTape(Array(text.utf8), rules: rules)
            return nil
        } catch {
            return error
        }
    }

    @Test func aRepeatedKeyIsACatalogFaultAndBothMembersOnTheWire() throws {
        let text = #"{"op":"status","op":"reload"}"#
        #expect(fault(text, .stringCatalog)?.message.hasPrefix(#"duplicate key "op" (first at 1:2)"#) == true)
        let tape = try JSONTape(Array(text.utf8), rules: wire)
        #expect(tape.nodes[0].count == 2)
        #expect(tape.string(at: 4) == "reload")
    }

    @Test func theDepthLimitIsTheCallers() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(fault(deep, .stringCatalog) == nil)
        #expect(fault(deep, wire)?.message == "arrays and objects nested deeper than 64 levels")
        #expect(fault(deep, wire)?.offset == 64)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(fault(tooDeep, .stringCatalog)?.message == "arrays and objects nested deeper than 512 levels")
    }

    @Test func aByteOrderMarkOpensAFileNotALine() {
        let text = "\u{FEFF}{}"
        #expect(fault(text, .stringCatalog) == nil)
        #expect(fault(text, wire)?.message == "unexpected character")
        #expect(fault(text, wire)?.offset == 0)
    }

    /// Both refuse a trailing comma, after any syntax error.
    @Test func aTrailingCommaIsRefusedByBoth() {
        for rules in [JSONTape.Rules.stringCatalog, wire] {
            #expect(fault("[1,]", rules)?.message == "trailing comma before ']'")
            #expect(fault("[1,] x", rules)?.message == "garbage after the top-level value")
        }
    }

    /// A string's bytes are checked only when asked: a catalog's file is checked whole first.
    @Test func aStringThatIsNotUTF8IsNilOnlyWhenValidated() throws {
        let tape = try JSONTape([UInt8](#"[""#.utf8) + [0xC3] + [UInt8](#"","\u00e9"]"#.utf8))
        #expect(tape.validString(at: 1) == nil)
        #expect(tape.string(at: 1) == "\u{FFFD}")
        #expect(tape.validString(at: 2) == "é")
    }

    /// What JSONSerialization decoded, the tape decodes; what it refused is `nil`.
    @Test(arguments: [
        (#""plain""#, "plain"), (#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#, "a\"b\\c/d\né😀"), (#""""#, ""),
    ])
    func jsonTextDecodesALiteral(_ literal: String, _ text: String) {
        #expect(JSONText.decode(Array(literal.utf8)) == text)
        #expect(JSONText.decode(Array(JSONText.literal(text).utf8)) == text)
    }

    @Test(arguments: [#""open"#, #""a" "b""#, "3", "null", #"["a"]"#, #""\x""#, ""])
    func jsonTextRefusesWhatIsNotOneLiteral(_ literal: String) {
        #expect(JSONText.decode(Array(literal.utf8)) == nil)
    }
}
