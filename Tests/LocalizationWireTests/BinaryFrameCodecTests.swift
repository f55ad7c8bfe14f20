import LocalizationCore
import LocalizationWire
import Testing

/// Binary payloads are bounds-checked: lies about lengths and counts become errors.
@Suite struct BinaryFrameCodecTests {
    private func payload(_ request: WireRequest) -> [UInt8] {
        Array(BinaryFrameCodec.encode(request).dropFirst(BinaryFrameHeader.size))
    }

    @Test func headerCarriesMagicVersionAndBigEndianLength() {
        let frame = BinaryFrameCodec.encode(WireRequest(id: .number(0x0102_0304), operation: .status))
        #expect(frame == [0xA5, 0x01, 0, 0, 0, 5, 0x07, 0x01, 0x02, 0x03, 0x04])
    }

    @Test func lookupLayoutIsAsDocumented() {
        let frame = BinaryFrameCodec.encode(
            WireRequest(id: .number(7), operation: .lookup(key: "ké", languages: ["ja"], table: nil)))
        let expected: [UInt8] = [
            0xA5, 0x01, 0, 0, 0, 27,
            0x02, 0, 0, 0, 7,
            0, 0, 0, 3, 0x6B, 0xC3, 0xA9,
            0, 0, 0, 1, 0, 0, 0, 2, 0x6A, 0x61,
            0, 0, 0, 0,
            0,
        ]
        #expect(frame == expected)
    }

    @Test func everyTruncationIsABadRequestNotACrash() {
        let full = payload(
            WireRequest(id: .number(9), operation: .batch(keys: ["a", "日本"], languages: ["ja", "en"], table: "T")))
        for length in 0..<full.count {
            guard case .failure(let failure) = BinaryFrameCodec.decodeRequest(Array(full.prefix(length))) else {
                Issue.record("truncated payload of \(length) bytes decoded")
                continue
            }
            #expect(failure.error.code == .badRequest)
            #expect(failure.id == (length >= 5 ? .number(9) : nil))
        }
    }

    @Test func trailingBytesAreRefused() {
        let result = BinaryFrameCodec.decodeRequest(payload(WireRequest(id: .number(1), operation: .status)) + [0])
        guard case .failure(let failure) = result else { Issue.record("trailing byte accepted"); return }
        #expect(failure.error.message.contains("trailing"))
    }

    @Test func unknownOpCodeIsUnknownOpWithID() {
        guard case .failure(let failure) = BinaryFrameCodec.decodeRequest([0x7F, 0, 0, 0, 42]) else {
            Issue.record("unknown op code accepted"); return
        }
        #expect(failure.error.code == .unknownOp)
        #expect(failure.id == .number(42))
    }

    @Test func hugeCountsAreRefusedBeforeAllocating() {
        // A batch claiming four billion keys in a 20-byte payload.
        let lying: [UInt8] = [0x03, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]
        guard case .failure(let failure) = BinaryFrameCodec.decodeRequest(lying) else {
            Issue.record("accepted"); return
        }
        #expect(failure.error.message.contains("exceeds the payload"))
        let hugeString: [UInt8] = [0x02, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0x61]
        guard case .failure(let stringFailure) = BinaryFrameCodec.decodeRequest(hugeString) else {
            Issue.record("accepted"); return
        }
        #expect(stringFailure.error.code == .badRequest)
    }

    /// Keys are checked by decoding with repair and comparing: sequences whose repair has
    /// their own length (a truncated 4-byte sequence, three bytes, becomes one U+FFFD, three
    /// bytes), surrogates and overlong forms are refused; U+FFFD itself and every valid
    /// string are taken as sent.
    @Test(
        arguments: [
            [0xF0, 0x90, 0x80], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0x61, 0xFF, 0x62], [0xBF],
            [0xF4, 0x90, 0x80, 0x80],
        ] as [[UInt8]])
    func keysThatAreNotUTF8AreRefused(key: [UInt8]) {
        var payload: [UInt8] = [0x02, 0, 0, 0, 1, 0, 0, 0, UInt8(key.count)] + key
        payload += [0, 0, 0, 0, 0, 0, 0, 0, 0]
        guard case .failure(let failure) = BinaryFrameCodec.decodeRequest(payload) else {
            Issue.record("accepted \(key)"); return
        }
        #expect(failure.error.message.contains("key is not valid UTF-8"))
    }

    @Test(arguments: ["", "k", "\u{FFFD}", "a\u{FFFD}b", "多言語化", "😀 e\u{301} ﬁ", String(repeating: "長い鍵", count: 40)])
    func validKeysAreTakenAsSent(key: String) {
        let request = WireRequest(id: .number(3), operation: .lookup(key: key, languages: ["ja"], table: nil))
        #expect(BinaryFrameCodec.decodeRequest(payload(request)) == .success(request))
    }

    /// A reply encoded at the end of a connection's output is the same frame as one encoded
    /// apart, and what was there before it is left alone.
    @Test func repliesEncodedIntoAnOutputEqualRepliesEncodedApart() {
        let replies: [WireServerMessage] = [
            .reply(id: .number(7), .lookup(WireLookupResult(value: "あ", found: true, language: "ja", generation: 3))),
            .reply(id: nil, .error(WireError(code: .badRequest, message: "no"))),
            .event(.changed(generation: 4, changes: [WireTableChange(language: "ja", table: "Localizable")])),
        ]
        var output: [UInt8] = [1, 2, 3]
        var expected = output
        for reply in replies {
            BinaryFrameCodec.encode(reply, appendingTo: &output)
            expected += BinaryFrameCodec.encode(reply)
        }
        #expect(output == expected)
    }

    @Test func invalidUTF8AndBadFlagsAreRefused() {
        let badKey: [UInt8] = [0x02, 0, 0, 0, 1, 0, 0, 0, 1, 0xC3, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        guard case .failure(let failure) = BinaryFrameCodec.decodeRequest(badKey) else {
            Issue.record("accepted"); return
        }
        #expect(failure.error.message.contains("UTF-8"))
        let badFlag: [UInt8] = [0x02, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7]
        guard case .failure(let flagFailure) = BinaryFrameCodec.decodeRequest(badFlag) else {
            Issue.record("accepted"); return
        }
        #expect(flagFailure.error.message == "count flag must be 0, 1, 2 or 3")
        // Flag 2 is decimal text, and it must be a decimal.
        var badDecimal: [UInt8] = [0x02, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 3]
        badDecimal += Array("1,5".utf8)
        guard case .failure(let decimalFailure) = BinaryFrameCodec.decodeRequest(badDecimal) else {
            Issue.record("accepted"); return
        }
        #expect(decimalFailure.error == WireError(code: .badRequest, message: #"count "1,5" is not a decimal"#))
        // Found by scripts/fuzz: a whole number as text would be a second spelling of flag 1.
        var wholeAsText: [UInt8] = [0x02, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2]
        wholeAsText += Array("12".utf8)
        guard case .failure(let wholeFailure) = BinaryFrameCodec.decodeRequest(wholeAsText) else {
            Issue.record("accepted"); return
        }
        #expect(wholeFailure.error == WireError(code: .badRequest, message: #"count "12" must be sent as an i64"#))
    }

    /// The `counts` example of docs/PROTOCOL.md, byte by byte.
    @Test func lookupCountsLayoutIsAsDocumented() {
        let frame = BinaryFrameCodec.encode(
            WireRequest(
                id: .number(8),
                operation: .lookup(
                    key: "k", languages: ["fr"], table: nil,
                    plural: .counts([PluralOperands(3), nil, PluralOperands("1.5")]))))
        let expected: [UInt8] = [
            0xA5, 0x01, 0, 0, 0, 47,
            0x02, 0, 0, 0, 8,
            0, 0, 0, 1, 0x6B,
            0, 0, 0, 1, 0, 0, 0, 2, 0x66, 0x72,
            0, 0, 0, 0,
            3, 0, 0, 0, 3,
            1, 0, 0, 0, 0, 0, 0, 0, 3,
            0,
            2, 0, 0, 0, 3, 0x31, 0x2E, 0x35,
        ]
        #expect(frame == expected)
    }

    /// A lookup of "k" with no languages and the default table, up to its has-count byte.
    private static let lookupPrefix: [UInt8] = [0x02, 0, 0, 0, 1, 0, 0, 0, 1, 0x6B, 0, 0, 0, 0, 0, 0, 0, 0]

    /// Malformed `counts` lists are `bad_request` with the request's id, never a crash.
    @Test(
        arguments: [
            // 65 entries, each a null: one over the limit.
            ([3, 0, 0, 0, 65] + Array(repeating: 0, count: 65), "counts lists 65 arguments; at most 64"),
            // A length that lies about the payload is refused before anything is reserved.
            ([3, 0xFF, 0xFF, 0xFF, 0xFF, 0], "counts lists 4294967295 arguments; at most 64"),
            // An entry flag of 3: lists do not nest.
            ([3, 0, 0, 0, 1, 3, 0, 0, 0, 0], "counts[0] flag must be 0, 1 or 2"),
            ([3, 0, 0, 0, 2, 0, 9], "counts[1] flag must be 0, 1 or 2"),
            ([3, 0, 0, 0, 1, 2, 0, 0, 0, 3, 0x31, 0x2C, 0x35], #"counts[0] "1,5" is not a decimal"#),
            // A whole number as text would be a second spelling of flag 1.
            ([3, 0, 0, 0, 1, 2, 0, 0, 0, 2, 0x31, 0x32], #"counts[0] "12" must be sent as an i64"#),
            ([3, 0, 0, 0, 1, 2, 0, 0, 0, 2, 0x31, 0xC3], "UTF-8"),
            ([3, 0, 0, 0, 2, 1, 0, 0, 0], "truncated"),
            ([3, 0, 0, 0, 2, 0], "truncated"),
            ([3, 0, 0, 0, 0, 0], "trailing"),
        ] as [([UInt8], String)])
    func malformedCountsAreBadRequests(_ tail: [UInt8], _ message: String) {
        guard case .failure(let failure) = BinaryFrameCodec.decodeRequest(Self.lookupPrefix + tail) else {
            Issue.record("accepted \(tail)")
            return
        }
        #expect(failure.error.code == .badRequest)
        #expect(failure.error.message.contains(message), "\(failure.error.message)")
        #expect(failure.id == .number(1))
    }

    /// Every truncation of a lookup with `counts` fails cleanly.
    @Test func everyTruncationOfCountsIsABadRequest() {
        let full = payload(
            WireRequest(
                id: .number(5),
                operation: .lookup(
                    key: "k", languages: ["ru"], table: "T",
                    plural: .counts([PluralOperands(21), nil, PluralOperands("1.50")]))))
        #expect((try? BinaryFrameCodec.decodeRequest(full).get()) != nil)
        for length in 0..<full.count {
            guard case .failure(let failure) = BinaryFrameCodec.decodeRequest(Array(full.prefix(length))) else {
                Issue.record("truncated payload of \(length) bytes decoded")
                continue
            }
            #expect(failure.error.code == .badRequest)
        }
    }

    /// A lookup with `counts` is encoded with the list flag alone (`PluralCounts` holds
    /// one count or a list, never both).
    @Test func encodingCountsSendsOnlyCounts() throws {
        let both = payload(
            WireRequest(id: .number(1), operation: .lookup(key: "k", languages: [], table: nil, plural: .counts([nil])))
        )
        #expect(both == Self.lookupPrefix + [3, 0, 0, 0, 1, 0])
        let decoded = try BinaryFrameCodec.decodeRequest(both).get()
        #expect(decoded.operation == .lookup(key: "k", languages: [], table: nil, plural: .counts([nil])))
    }

    @Test func malformedServerPayloadsThrow() {
        #expect(throws: WireError.self) { try BinaryFrameCodec.decodeServerMessage([0x99, 0, 0, 0, 0]) }
        #expect(throws: WireError.self) {
            try BinaryFrameCodec.decodeServerMessage([0x80, 0, 0, 0, 0, 0x07, 0xFF, 0xFF, 0xFF, 0xFF])
        }
        let truncatedObject: [UInt8] = [0x80, 0, 0, 0, 0, 0x07, 0, 0, 0, 1, 0, 0, 0, 1, 0x61]
        #expect(throws: WireError.self) { try BinaryFrameCodec.decodeServerMessage(truncatedObject) }
        var nested: [UInt8] = [0x80, 0, 0, 0, 0, 0x07, 0, 0, 0, 1, 0, 0, 0, 1, 0x61]
        for _ in 0..<10_000 { nested += [0x06, 0, 0, 0, 1] }
        nested.append(0x00)
        #expect(throws: WireError.self) { try BinaryFrameCodec.decodeServerMessage(nested) }
    }
}
