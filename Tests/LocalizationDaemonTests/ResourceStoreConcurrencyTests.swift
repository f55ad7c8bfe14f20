import Dispatch
import LocalizationCore
import LocalizationDaemon
import TestSupport
import Testing

/// A refresh reads the disk with no lock held and swaps its result in under one: two that
/// overlap (the daemon serialises them; another caller may not) must both land, neither
/// undoing the other.
@Suite struct ResourceStoreConcurrencyTests {
    @Test func overlappingRefreshesBothLand() throws {
        let root = try TemporaryDirectory()
        let ja = try root.write(#""k" = "ja 0";"#, to: "ja.lproj/Localizable.strings")
        let en = try root.write(#""k" = "en 0";"#, to: "en.lproj/Localizable.strings")
        let store = ResourceStore(roots: [root.path], developmentLanguage: LanguageTag(language: "en"))
        store.rescan()
        for round in 1...20 {
            try root.write(#""k" = "ja \#(round)";"#, to: "ja.lproj/Localizable.strings")
            try root.write(#""k" = "en \#(round)";"#, to: "en.lproj/Localizable.strings")
            let generation = store.snapshot.generation
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                store.refresh(paths: [index == 0 ? ja : en])
            }
            let segments = store.snapshot.segments
            for language in ["ja", "en"] {
                let value = try segments.lookup("k", chain: segments.chain([try LanguageTag(language)])).value
                #expect(value == "\(language) \(round)")
            }
            #expect(store.snapshot.generation == generation + 2)
        }
    }
}
