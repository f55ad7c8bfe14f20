import Foundation
import LocalizationCore
import LocalizationDaemon
import LocalizationSockets
import LocalizationWire
import TestSupport
import Testing

/// The service's fastest path, binary lookups answered from the segments straight from the
/// frame (`LookupService.answerFrames`), sends exactly the bytes the general path sends —
/// decoding the frame, looking the key up, encoding the reply — for every key of the
/// examples in every language and table, from the first frame on and at once after a
/// reload: nothing is compiled for it.
@Suite struct SegmentLookupFrameTests {
    let peer = PeerInfo(pid: 1, uid: 1000, gid: 1000)

    func service(root: String, missing: MissingKeyReport = MissingKeyReport()) -> (LookupService, ResourceStore) {
        let store = ResourceStore(roots: [root], developmentLanguage: LanguageTag(language: "en"))
        store.rescan()
        let service = LookupService(
            store: store, missing: missing, counters: DaemonCounters(),
            actions: LookupService.Actions(reload: { done in done(store.rescan()) }, status: { nil }),
            administrators: [])
        return (service, store)
    }

    /// Every (language, table, key) a client could ask about: each language with tables,
    /// the pseudo-languages, a few that are not compiled as such, and a key nobody has.
    func questions(_ segments: SegmentSet) throws -> [(language: String, table: String, key: String)] {
        let languages =
            segments.languages.map(\.identifier) + ["en-XA", "ar-XB", "zh-TW", "pt-PT", "JA", "ja_JP.UTF-8", "de,fr"]
        let tables = Set(segments.languages.flatMap { segments.tableNames(of: $0) }).sorted() + [""]
        var keys = Set(["nobody has this"])
        for table in tables {
            for language in segments.languages {
                keys.formUnion(try segments.resolvedTable(table, chain: segments.chain([language])).keys)
            }
        }
        return languages.flatMap { language in
            tables.flatMap { table in keys.sorted().map { (language, table, $0) } }
        }
    }

    /// The frame's reply from `answerFrames`, or nil when it declined; and the general path's.
    func replies(
        _ service: LookupService, language: String, table: String, key: String, id: UInt32
    ) throws -> (fast: [UInt8]?, general: [UInt8]) {
        let frame = BinaryFrameCodec.encode(
            WireRequest(id: .number(Int64(id)), operation: .lookup(key: key, languages: [language], table: table)))
        let payload = Array(frame[BinaryFrameHeader.size...])
        var framer = MessageFramer()
        framer.append(contentsOf: frame)
        var output: [UInt8] = [1, 2, 3]
        let answered = service.answerFrames(from: &framer, appendingTo: &output, outputLimit: .max) == 1
        #expect(answered || output == [1, 2, 3], "a declined frame left bytes behind")
        #expect(framer.bufferedByteCount == (answered ? 0 : frame.count))
        let request = try BinaryFrameCodec.decodeRequest(payload).get()
        let reply = try #require(service.answerAtOnce(request, from: peer))
        return (answered ? Array(output[3...]) : nil, BinaryFrameCodec.encode(.reply(id: request.id, reply)))
    }

    /// Asks every question; returns how many the fast path answered.
    @discardableResult
    func compareAll(_ service: LookupService, _ segments: SegmentSet) throws -> Int {
        var answered = 0
        for (index, question) in try questions(segments).enumerated() {
            let replies = try replies(
                service, language: question.language, table: question.table, key: question.key, id: UInt32(index))
            if let fast = replies.fast {
                answered += 1
                #expect(fast == replies.general, "\(question)")
            }
        }
        return answered
    }

    @Test func segmentAnswersAreTheGeneralPathsBytesBeforeAndAfterAReload() throws {
        let root = try TemporaryDirectory()
        let resources = root.path + "/Resources"
        try FileManager.default.copyItem(atPath: PackagePaths.exampleResources, toPath: resources)
        let (service, store) = service(root: resources)

        #expect(try replies(service, language: "ja", table: "", key: "設定", id: 1).fast != nil)
        let answered = try compareAll(service, store.snapshot.segments)
        #expect(answered > 100, "the fast path answered only \(answered) questions")

        // A reload: the next frame already answers from the new segments.
        try root.write("\"設定\" = \"新しい設定\";\n\"新しい\" = \"キー\";\n", to: "Resources/ja.lproj/Localizable.strings")
        store.rescan()
        let fresh = try #require(try replies(service, language: "ja", table: "", key: "設定", id: 2).fast)
        #expect(String(decoding: fresh, as: UTF8.self).contains("新しい設定"))
        #expect(try replies(service, language: "ja", table: "", key: "新しい", id: 3).fast != nil)
        #expect(try compareAll(service, store.snapshot.segments) > 100)
    }

    /// A burst of saves, each reload followed by a binary lookup: every lookup answers the
    /// save just made, and no lookup compiles anything.
    @Test func eachReloadIsAnsweredAtOnceWithNoCompile() throws {
        let root = try TemporaryDirectory()
        let resources = root.path + "/Resources"
        try FileManager.default.copyItem(atPath: PackagePaths.exampleResources, toPath: resources)
        let (service, store) = service(root: resources)
        for save in 1...10 {
            try root.write("\"設定\" = \"設定 \(save)\";\n", to: "Resources/ja.lproj/Localizable.strings")
            store.rescan()
            let fast = try #require(try replies(service, language: "ja", table: "", key: "設定", id: UInt32(save)).fast)
            #expect(String(decoding: fast, as: UTF8.self).contains("設定 \(save)"))
        }
        try compareAll(service, store.snapshot.segments)
    }

    /// A burst is answered in order up to the first frame the fast path declines (a miss),
    /// which is left whole in the framer with everything after it; and no frame is answered
    /// once the output holds the limit.
    @Test func aBurstStopsAtTheFirstDeclinedFrameAndAtTheOutputLimit() throws {
        let (service, _) = service(root: PackagePaths.exampleResources)
        func frame(_ key: String, _ id: Int64) -> [UInt8] {
            BinaryFrameCodec.encode(
                WireRequest(id: .number(id), operation: .lookup(key: key, languages: ["ja"], table: nil)))
        }
        let tail = frame("nobody has this", 3) + frame("設定", 4)
        var framer = MessageFramer()
        framer.append(contentsOf: frame("設定", 1) + frame("設定", 2) + tail)
        var output: [UInt8] = []
        #expect(service.answerFrames(from: &framer, appendingTo: &output, outputLimit: .max) == 2)
        #expect(framer.bufferedByteCount == tail.count)
        // Two frames of one length: the same key and language, ids of one size.
        let half = output.count / 2
        let messages = try [0, half].map { start in
            try BinaryFrameCodec.decodeServerMessage(Array(output[(start + BinaryFrameHeader.size)..<(start + half)]))
        }
        for (index, reply) in messages.enumerated() {
            guard case .reply(.number(let id), .lookup(let result)) = reply else {
                Issue.record("not a lookup reply: \(reply)")
                continue
            }
            #expect(id == Int64(index + 1))
            #expect(result.found && result.language == "ja")
        }

        var limited = MessageFramer()
        limited.append(contentsOf: frame("設定", 1) + frame("設定", 2))
        var full: [UInt8] = [0, 0]
        #expect(service.answerFrames(from: &limited, appendingTo: &full, outputLimit: 3) == 1)
        #expect(service.answerFrames(from: &limited, appendingTo: &full, outputLimit: 3) == 0)
    }

    /// The fast path answers only what the requested language has itself, so the
    /// missing-key report, which notes fallbacks and misses, is the general path's alone.
    @Test func fallbacksAndMissesStillReachTheMissingKeyReport() throws {
        let missing = MissingKeyReport()
        let (service, _) = service(root: PackagePaths.exampleResources, missing: missing)
        #expect(try replies(service, language: "ja", table: "", key: "設定", id: 1).fast != nil)
        _ = try replies(service, language: "ja", table: "", key: "nobody has this", id: 2)
        #expect(missing.entries.contains { $0.key == "nobody has this" && $0.language == "ja" })
        // Japanese has no 保存 of its own: the development language answers it, and the
        // report says so.
        _ = try replies(service, language: "ja", table: "", key: "保存", id: 3)
        #expect(missing.entries.contains { $0.key == "保存" && $0.language == "ja" && $0.servedBy != nil })
    }
}
