import LocalizationCore
import LocalizationWire
import Testing

/// The in-place view of a one-language lookup frame reads what the decoder reads, refuses
/// every other shape (those go to the decoder), and writes the reply the encoder writes.
@Suite struct BinaryLookupFrameTests {
    private func payload(_ operation: WireOperation, id: Int64 = 9) -> [UInt8] {
        Array(
            BinaryFrameCodec.encode(WireRequest(id: .number(id), operation: operation)).dropFirst(
                BinaryFrameHeader.size))
    }

    @Test(
        arguments: [("設定", "ja", nil), ("", "en-XA", "Settings"), ("a\u{301}", "zh-Hant", "Menu")]
            as [(
                String, String, String?
            )])
    func readsWhatTheDecoderReads(key: String, language: String, table: String?) throws {
        let bytes = payload(.lookup(key: key, languages: [language], table: table), id: 0xFFFF_FFFF)
        try bytes.withUnsafeBytes { raw in
            let frame = try #require(BinaryLookupFrame(raw))
            #expect(frame.id == 0xFFFF_FFFF)
            #expect(Array(frame.key) == Array(key.utf8))
            #expect(Array(frame.language) == Array(language.utf8))
            #expect(Array(frame.table) == Array((table ?? "").utf8))
        }
    }

    @Test func otherShapesAndDamagedFramesAreLeftToTheDecoder() {
        let others: [[UInt8]] = [
            payload(.lookup(key: "k", languages: ["ja", "de"], table: nil)),
            payload(.lookup(key: "k", languages: [], table: nil)),
            payload(.lookup(key: "k", languages: ["ja"], table: nil, plural: .count(PluralOperands(2)))),
            payload(.lookup(key: "k", languages: ["ja"], table: nil, plural: .none, arguments: [.integer(1)])),
            payload(.batch(keys: ["k"], languages: ["ja"], table: nil)),
            payload(.status),
        ]
        for other in others {
            #expect(other.withUnsafeBytes { BinaryLookupFrame($0) } == nil, "\(other)")
        }
        let whole = payload(.lookup(key: "key", languages: ["ja"], table: "T"))
        for length in 0..<whole.count {
            #expect(Array(whole[..<length]).withUnsafeBytes { BinaryLookupFrame($0) } == nil, "cut at \(length)")
        }
        #expect((whole + [0]).withUnsafeBytes { BinaryLookupFrame($0) } == nil)
        var lying = whole
        lying[8] = 200  // the key's length past the payload
        #expect(lying.withUnsafeBytes { BinaryLookupFrame($0) } == nil)
    }

    @Test(arguments: ["Réglages", "", String(repeating: "長", count: 300)])
    func writesTheReplyTheEncoderWrites(value: String) throws {
        let bytes = payload(.lookup(key: "k", languages: ["fr"], table: nil), id: 0x0102_0304)
        var output: [UInt8] = [7, 7]
        try bytes.withUnsafeBytes { raw in
            let frame = try #require(BinaryLookupFrame(raw))
            var value = value
            var language = "fr"
            value.withUTF8 { value in
                language.withUTF8 { language in
                    frame.appendReply(
                        value: UnsafeRawBufferPointer(value), language: UnsafeRawBufferPointer(language),
                        generation: 0x0A0B_0C0D_0E0F_1011, to: &output)
                }
            }
        }
        let expected = BinaryFrameCodec.encode(
            .reply(
                id: .number(0x0102_0304),
                .lookup(
                    WireLookupResult(
                        value: value, found: true, language: "fr", generation: 0x0A0B_0C0D_0E0F_1011, formatted: nil))))
        #expect(output == [7, 7] + expected)
    }
}
