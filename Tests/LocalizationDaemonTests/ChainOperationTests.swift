import Foundation
import LocalizationCore
import LocalizationDaemon
import LocalizationSockets
import LocalizationWire
import Synchronization
import TestSupport
import Testing

/// The `chain` op (protocol 1.7) is enough for a client that maps the segments to answer
/// every plain lookup as the daemon does: walking the reply's languages over the segments
/// — the first whose segment has the key answers, a pseudo-language lacking it is the
/// daemon's to derive — gives the daemon's value, found and language for every key of the
/// examples, in every table, for tags whose chains take CLDR's data (parents, likely
/// subtags, last resorts), lists, `Accept-Language` and no language.
@Suite struct ChainOperationTests {
    let peer = PeerInfo(pid: 1, uid: 1000, gid: 1000)

    func ask(_ service: LookupService, _ operation: WireOperation) -> WireReply {
        let answer = Mutex<WireReply?>(nil)
        service.handle(WireRequest(id: .number(1), operation: operation), from: peer) { reply in
            answer.withLock { $0 = reply }
        }
        return answer.withLock { $0 }!
    }

    @Test func walkingTheChainGivesTheDaemonsAnswers() throws {
        let store = ResourceStore(
            roots: [PackagePaths.exampleResources], developmentLanguage: LanguageTag(language: "en"))
        store.rescan()
        let missing = MissingKeyReport()
        let service = LookupService(
            store: store, missing: missing, counters: DaemonCounters(),
            actions: LookupService.Actions(reload: { done in done(store.rescan()) }, status: { nil }),
            administrators: [])
        let segments = store.snapshot.segments
        let preferences: [[String]] = [
            ["de"], ["de-AT"], ["zh-TW"], ["zh-Hant-HK"], ["pt-PT"], ["pt"], ["en-AU"], ["en-XA"], ["ar-XB"],
            ["sv", "de"], ["JA"], ["ja_JP.UTF-8"], ["fr-CH, fr;q=0.9, en;q=0.8"], [], ["Base"],
        ]
        let tables = Set(segments.languages.flatMap { segments.tableNames(of: $0) }).sorted() + [""]
        var keys = Set(["nobody has this"])
        for table in tables {
            for language in segments.languages {
                keys.formUnion(try segments.resolvedTable(table, chain: segments.chain([language])).keys)
            }
        }
        var walked = 0
        var reported = 0
        for languages in preferences {
            for table in tables {
                guard case .fields(let fields) = ask(service, .chain(languages: languages, table: table)),
                    case .array(let names)? = fields["languages"], case .array(let fallback)? = fields["fallback"],
                    case .array(let pseudo)? = fields["pseudo"]
                else { Issue.record("no chain for \(languages) \(table)"); continue }
                #expect(fields["generation"] == .integer(Int64(store.snapshot.generation)))
                #expect(names.count == fallback.count && names.count == pseudo.count)
                for key in keys.sorted() {
                    guard case .lookup(let want) = ask(service, .lookup(key: key, languages: languages, table: table))
                    else { Issue.record("no answer for \(key)"); continue }
                    // The walk a mapped client makes.
                    var answer: (entry: TableEntry, language: String, fallback: Bool)? = nil
                    var derived = false
                    for (index, name) in names.enumerated() {
                        guard case .string(let language) = name else { continue }
                        let segment = segments.segment(language: language, table: ResourceCatalog.tableName(table))
                        if let segment, let number = try segment.reader.entryNumber(of: key) {
                            answer = (try segment.reader.entry(number), language, fallback[index] == .bool(true))
                            break
                        }
                        if pseudo[index] == .bool(true) {
                            derived = true  // the daemon's to derive: a client asks it
                            break
                        }
                    }
                    if derived { continue }
                    walked += 1
                    #expect(want.found == (answer != nil), "\(languages) \(table) \(key)")
                    #expect(want.language == answer?.language, "\(languages) \(table) \(key)")
                    // A plural entry is asked (its value is selected by counts); a plain one is its value.
                    if let answer, answer.entry.plural == nil {
                        #expect(want.value == answer.entry.value, "\(languages) \(table) \(key)")
                    } else if answer == nil {
                        #expect(want.value == key)
                    }
                    if answer?.fallback ?? true { reported += 1 }
                }
            }
        }
        #expect(walked > 1_000)
        #expect(reported > 100)
    }

    @Test func theOpTravelsInBothEncodings() throws {
        let request = WireRequest(id: .number(7), operation: .chain(languages: ["sv", "de"], table: "Plurals"))
        #expect(try JSONLineCodec.decodeRequest(Array(JSONLineCodec.encode(request).dropLast())).get() == request)
        let frame = BinaryFrameCodec.encode(request)
        #expect(try BinaryFrameCodec.decodeRequest(Array(frame[BinaryFrameHeader.size...])).get() == request)
        let line = Array(#"{"op":"chain","lang":"de-AT"}"#.utf8)
        #expect(try JSONLineCodec.decodeRequest(line).get().operation == .chain(languages: ["de-AT"], table: nil))
    }
}
