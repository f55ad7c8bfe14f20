import LocalizationCore
import LocalizationWire
import Testing

/// Malformed, mistyped and unusual JSON requests all become precise error replies.
@Suite struct JSONLineCodecTests {
    private func decode(_ text: String) -> Result<WireRequest, WireRequestFailure> {
        JSONLineCodec.decodeRequest(Array(text.utf8))
    }

    private func failure(_ text: String) throws -> WireRequestFailure {
        guard case .failure(let failure) = decode(text) else {
            Issue.record("expected \(text) to fail")
            throw WireError(code: .internal, message: "decoded")
        }
        return failure
    }

    @Test(arguments: [
        "", "{", "}", "nul", "{\"op\":}", "{\"op\":\"status\"", "{\"op\":\"status\"}}", "{'op':'status'}",
        "{\"op\":\"status\",}", "[1,2", "{\"op\":\"st\u{1}atus\"}", "{\"op\":\"\\x\"}", "{\"a\":01}", "{\"a\":1.}",
        "{\"a\":-}", "{\"a\":1e}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\u12\"}", "{\"a\":1e999}",
        "{\"op\":\"status\"} x", "\u{FEFF}{\"op\":\"status\"}",
    ])
    func malformedJSONIsABadRequest(_ text: String) throws {
        let failure = try failure(text)
        #expect(failure.error.code == .badRequest)
        #expect(failure.id == nil)
        #expect(failure.error.message.hasPrefix("malformed JSON at byte"))
    }

    /// The reply names the fault and its byte, as docs/PROTOCOL.md shows (`not json`).
    @Test(arguments: [
        ("not json", "malformed JSON at byte 0: invalid literal"),
        (#"{"op":"status",}"#, "malformed JSON at byte 14: trailing comma before '}'"),
        ("\u{FEFF}{\"op\":\"status\"}", "malformed JSON at byte 0: unexpected character"),
        (#"{"a":1e999}"#, "malformed JSON at byte 5: number out of range"),
        (#"{"a":01}"#, "malformed JSON at byte 5: a number cannot start with 0"),
        (#"{"op":"status"} x"#, "malformed JSON at byte 16: garbage after the top-level value"),
        (#"{"op":"#, "malformed JSON at byte 6: unexpected end of input"),
        (#"{"op" "status"}"#, "malformed JSON at byte 6: expected ':' after a key"),
        (#"{"a":"\ud800"}"#, #"malformed JSON at byte 6: a \u escape of a high surrogate with no low one after it"#),
    ])
    func malformedJSONNamesTheFaultAndItsByte(_ text: String, _ message: String) throws {
        #expect(try failure(text).error == WireError(code: .badRequest, message: message))
    }

    @Test func invalidUTF8IsABadRequest() {
        let result = JSONLineCodec.decodeRequest([UInt8]("{\"op\":\"".utf8) + [0xFF, 0xFE] + [UInt8]("\"}".utf8))
        guard case .failure(let failure) = result else {
            Issue.record("invalid UTF-8 accepted")
            return
        }
        #expect(
            failure.error
                == WireError(code: .badRequest, message: "malformed JSON at byte 6: string is not valid UTF-8"))
    }

    @Test(arguments: [
        (#"[1]"#, "a request must be a JSON object"),
        (#"{"id":1}"#, "missing \"op\""),
        (#"{"id":1,"op":7}"#, "\"op\" must be a string"),
        (#"{"id":1,"op":"lookup"}"#, "missing \"key\""),
        (#"{"id":1,"op":"lookup","key":5}"#, "\"key\" must be a string"),
        (#"{"id":1,"op":"lookup","key":"k","lang":5}"#, "\"lang\" must be a string or a list of strings"),
        (#"{"id":1,"op":"lookup","key":"k","lang":["en",5]}"#, "\"lang\" must be a string or a list of strings"),
        (#"{"id":1,"op":"lookup","key":"k","table":[]}"#, "\"table\" must be a string"),
        (
            #"{"id":1,"op":"lookup","key":"k","count":true}"#,
            #""count" must be a number or a decimal string such as "1.50""#
        ),
        (
            #"{"id":1,"op":"lookup","key":"k","count":"1,5"}"#,
            #""count" must be a number or a decimal string such as "1.50""#
        ),
        (
            #"{"id":1,"op":"lookup","key":"k","counts":3}"#,
            #""counts" must be a list of numbers, decimal strings such as "1.50", or nulls"#
        ),
        (
            #"{"id":1,"op":"lookup","key":"k","counts":{"1":3}}"#,
            #""counts" must be a list of numbers, decimal strings such as "1.50", or nulls"#
        ),
        (
            #"{"id":1,"op":"lookup","key":"k","counts":[1,true]}"#,
            #""counts"[1] must be a number, a decimal string such as "1.50", or null"#
        ),
        (
            #"{"id":1,"op":"lookup","key":"k","counts":["1,5"]}"#,
            #""counts"[0] must be a number, a decimal string such as "1.50", or null"#
        ),
        (
            #"{"id":1,"op":"lookup","key":"k","counts":[[2]]}"#,
            #""counts"[0] must be a number, a decimal string such as "1.50", or null"#
        ),
        (#"{"id":1,"op":"lookup","key":"k","count":1,"counts":[1]}"#, #"give "count" or "counts", not both"#),
        (#"{"id":1,"op":"batch","keys":"a"}"#, "\"keys\" must be a list of strings"),
        (#"{"id":1,"op":"batch"}"#, "missing \"keys\""),
        (#"{"id":{},"op":"status"}"#, "\"id\" must be a string or an integer"),
        (#"{"id":1.5,"op":"status"}"#, "\"id\" must be a string or an integer"),
    ])
    func wrongTypesAreBadRequestsNamingTheField(_ text: String, _ message: String) throws {
        let failure = try failure(text)
        #expect(failure.error == WireError(code: .badRequest, message: message))
        if text.contains(#""id":1,"#) { #expect(failure.id == .number(1)) }
    }

    @Test func unknownOpEchoesTheID() throws {
        let failure = try failure(#"{"id":"abc","op":"frobnicate"}"#)
        #expect(failure.error.code == .unknownOp)
        #expect(failure.error.message == #"unknown op "frobnicate""#)
        #expect(failure.id == .string("abc"))
        let reply = String(decoding: JSONLineCodec.encode(failure.reply), as: UTF8.self)
        #expect(
            reply == #"{"id":"abc","ok":false,"error":{"code":"unknown_op","message":"unknown op \"frobnicate\""}}"#
                + "\n")
    }

    /// A count may be an integer, a JSON number with a fraction, or decimal text that keeps
    /// its trailing zeros (`1.50` has two visible fraction digits, which CLDR rules test).
    @Test(arguments: [(#"21"#, "21"), (#"1.5"#, "1.5"), (#""1.50""#, "1.50"), (#"-3"#, "-3"), (#""1.2c6""#, "1.2c6")])
    func countsAreIntegersOrDecimals(_ json: String, _ expected: String) throws {
        let request = try decode(#"{"op":"lookup","key":"k","count":\#(json)}"#).get()
        guard case .lookup(_, _, _, .count(let count), _) = request.operation else {
            Issue.record("no count in \(request)")
            return
        }
        #expect(count.description == expected)
        #expect(count == PluralOperands(expected))
    }

    /// `counts` (protocol 1.3): one count per argument, each as `count` accepts, or null;
    /// a null `counts` is no `counts`, and a null `count` beside it is no `count`.
    @Test func countsAreListsOfCountsOrNulls() throws {
        let request = try decode(#"{"op":"lookup","key":"k","counts":[3,null,1.5,"1.50",-2],"count":null}"#).get()
        let expected: [PluralOperands?] = [
            PluralOperands(3), nil, PluralOperands("1.5"), PluralOperands("1.50"), PluralOperands(-2),
        ]
        #expect(request.operation == .lookup(key: "k", languages: [], table: nil, plural: .counts(expected)))
        let empty = try decode(#"{"op":"lookup","key":"k","counts":[]}"#).get()
        #expect(empty.operation == .lookup(key: "k", languages: [], table: nil, plural: .counts([])))
        let none = try decode(#"{"op":"lookup","key":"k","counts":null,"count":2}"#).get()
        #expect(none.operation == .lookup(key: "k", languages: [], table: nil, plural: .count(PluralOperands(2))))
    }

    /// At most `WireOperation.maximumCounts` positions: a longer list is refused whole.
    @Test func tooManyCountsAreABadRequest() throws {
        let limit = WireOperation.maximumCounts
        let fits = "[" + Array(repeating: "1", count: limit).joined(separator: ",") + "]"
        let request = try decode(#"{"op":"lookup","key":"k","counts":\#(fits)}"#).get()
        guard case .lookup(_, _, _, .counts(let counts), _) = request.operation else {
            Issue.record("no counts in \(request)")
            return
        }
        #expect(counts.count == limit)
        let tooMany = "[" + Array(repeating: "null", count: limit + 1).joined(separator: ",") + "]"
        let failure = try failure(#"{"id":4,"op":"lookup","key":"k","counts":\#(tooMany)}"#)
        #expect(
            failure.error
                == WireError(code: .badRequest, message: #""counts" lists 65 arguments; at most 64"#))
        #expect(failure.id == .number(4))
    }

    /// `args` (protocol 1.4): strings and numbers, each kept as its kind (a decimal string
    /// is text, not a count); a batch gives one list or null per key.
    @Test func argsAreStringsAndNumbers() throws {
        let request = try decode(#"{"op":"lookup","key":"k","args":["Ana",3,1.5,"1.50"]}"#).get()
        #expect(
            request.operation
                == .lookup(
                    key: "k", languages: [], table: nil,
                    arguments: [.string("Ana"), .integer(3), .double(1.5), .string("1.50")]))
        let batch = try decode(#"{"op":"batch","keys":["a","b"],"args":[null,[2]]}"#).get()
        #expect(
            batch.operation == .batch(keys: ["a", "b"], languages: [], table: nil, arguments: [nil, [.integer(2)]]))
    }

    /// Anything else in `args` is refused with the position at fault, never formatted.
    @Test(arguments: [
        (#"{"op":"lookup","key":"k","args":[true]}"#, #""args"[0] must be a string or a finite number, not true"#),
        (#"{"op":"lookup","key":"k","args":["a",{}]}"#, #""args"[1] must be a string or a finite number, not {}"#),
        (#"{"op":"lookup","key":"k","args":"Ana"}"#, #""args" must be a list of strings and numbers"#),
        (#"{"op":"batch","keys":["a"],"args":[[1],[2]]}"#, #""args" must list one argument list (or null) per key"#),
        (
            #"{"op":"batch","keys":["a"],"args":[[null]]}"#,
            #""args"[0][0] must be a string or a finite number, not null"#
        ),
    ])
    func badArgsAreABadRequest(_ line: String, _ message: String) throws {
        #expect(try failure(line).error == WireError(code: .badRequest, message: message))
    }

    @Test func tooManyArgsAreABadRequest() throws {
        let tooMany =
            "[" + Array(repeating: "1", count: WireOperation.maximumArguments + 1).joined(separator: ",") + "]"
        #expect(
            try failure(#"{"op":"lookup","key":"k","args":\#(tooMany)}"#).error
                == WireError(code: .badRequest, message: #""args" lists 65 arguments; at most 64"#))
    }

    /// Invalid UTF-8 inside a `counts` string fails as malformed JSON, never as a count.
    @Test func invalidUTF8InCountsIsABadRequest() throws {
        let line = [UInt8](#"{"op":"lookup","key":"k","counts":[""#.utf8) + [0x31, 0xC3] + [UInt8](#""]}"#.utf8)
        guard case .failure(let failure) = JSONLineCodec.decodeRequest(line) else {
            Issue.record("invalid UTF-8 accepted")
            return
        }
        #expect(failure.error.code == .badRequest)
        #expect(failure.error.message.contains("UTF-8"))
    }

    /// A lookup with `counts` is encoded without a `count` (`PluralCounts` holds one or
    /// the other, never both).
    @Test func encodingCountsSendsOnlyCounts() throws {
        let both = WireRequest(operation: .lookup(key: "k", languages: ["fr"], table: nil, plural: .counts([nil])))
        let line = String(decoding: JSONLineCodec.encode(both), as: UTF8.self)
        #expect(line == #"{"op":"lookup","key":"k","lang":"fr","counts":[null]}"# + "\n")
    }

    @Test func langMayBeAStringOrAListAndTableDefaults() throws {
        let single = try decode(#"{"op":"lookup","key":"k","lang":"ja"}"#).get()
        #expect(single.operation == .lookup(key: "k", languages: ["ja"], table: nil))
        let list = try decode(#"{"op":"table","lang":["sv","de"],"table":null}"#).get()
        #expect(list.operation == .table(languages: ["sv", "de"], table: nil))
        #expect(list.id == nil)
    }

    @Test func unicodeKeysAndEscapesDecode() throws {
        let text =
            #"{"op":"lookup","key":"多言語化 \u00e9\ud83d\ude00\n\t\"\\\/","lang":"ja","extra":{"ignored":[true,null]}}"#
        let request = try decode("  \t" + text + " \r").get()
        #expect(request.operation == .lookup(key: "多言語化 é😀\n\t\"\\/", languages: ["ja"], table: nil))
        let emoji = try decode(#"{"op":"batch","keys":["👩‍👩‍👧","🇯🇵","ｶﾀｶﾅ"]}"#).get()
        #expect(emoji.operation == .batch(keys: ["👩‍👩‍👧", "🇯🇵", "ｶﾀｶﾅ"], languages: [], table: nil))
    }

    @Test func duplicateMembersKeepTheLast() throws {
        let request = try decode(#"{"op":"status","op":"reload"}"#).get()
        #expect(request.operation == .reload)
    }

    @Test func deepNestingIsRefusedWithoutCrashing() throws {
        let deep =
            #"{"op":"status","x":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            + "}"
        let failure = try failure(deep)
        #expect(failure.error.code == .badRequest)
        #expect(failure.error.message.contains("nested deeper"))
    }

    /// 64 levels of arrays and objects (the request's own object counted) are read; the
    /// 65th is refused where it opens, in a JSON line as in a binary frame's value.
    @Test func nestingIsLimitedTo64Levels() throws {
        func line(levels: Int) -> String {
            #"{"op":"status","x":"# + String(repeating: "[", count: levels - 1)
                + String(repeating: "]", count: levels - 1) + "}"
        }
        #expect(try decode(line(levels: 64)).get().operation == .status)
        #expect(
            try failure(line(levels: 65)).error
                == WireError(
                    code: .badRequest,
                    message: "malformed JSON at byte 82: arrays and objects nested deeper than 64 levels"))
    }

    @Test func numbersKeepTheirKind() throws {
        let value = try WireValue(
            jsonText: #"[0,-0,9223372036854775807,-9223372036854775808,9223372036854775808,1.5,-2e3,1E+2]"#)
        #expect(value == [0, 0, .integer(.max), .integer(.min), 9_223_372_036_854_775_808.0, 1.5, -2000.0, 100.0])
        #expect(WireValue.array([1.0, 0.1, -2e-7]).jsonText == "[1.0,0.1,-2e-07]")
        #expect(try WireValue(jsonText: WireValue.double(-2e-7).jsonText) == .double(-2e-7))
    }

    @Test(arguments: [
        #"[1]"#, #"{"ok":true,"value":5,"found":true,"generation":1}"#,
        #"{"ok":true,"values":["a"],"found":[],"generation":1}"#,
        #"{"ok":true,"entries":{"a":1},"generation":1}"#, #"{"ok":false}"#, #"{"event":"exploded"}"#,
        #"{"ok":true,"value":"v","found":true}"#,
        #"{"event":"changed","generation":-1,"changes":[]}"#,
    ])
    func malformedRepliesThrow(_ text: String) {
        #expect(throws: WireError.self) { try JSONLineCodec.decodeServerMessage(Array(text.utf8)) }
    }
}
