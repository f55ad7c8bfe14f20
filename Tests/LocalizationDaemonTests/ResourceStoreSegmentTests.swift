import Foundation
import LocalizationCore
import LocalizationDaemon
import TestSupport
import Testing

/// The store keeps its tables as compiled segments: a refresh rebuilds the (language,
/// table) pairs its files touched and shares every other segment, as the same object.
@Suite struct ResourceStoreSegmentTests {
    let root: TemporaryDirectory
    let store: ResourceStore

    init() throws {
        root = try TemporaryDirectory()
        try root.write(#""k" = "ja 1";"#, to: "ja.lproj/Localizable.strings")
        try root.write(#""k" = "fr 1";"#, to: "fr.lproj/Localizable.strings")
        try root.write(#""k" = "en 1";"#, to: "en.lproj/Localizable.strings")
        try root.write(#""title" = "ja settings";"#, to: "ja.lproj/Settings.strings")
        store = ResourceStore(roots: [root.path], developmentLanguage: LanguageTag(language: "en"), holdGrace: .zero)
        store.rescan()
    }

    func value(_ key: String, _ language: String, table: String? = nil, in store: ResourceStore? = nil) throws
        -> String
    {
        let segments = (store ?? self.store).snapshot.segments
        return try segments.lookup(key, in: table, chain: segments.chain([try LanguageTag(language)])).value
    }

    /// Every (language, table) the store serves, with its segment.
    func segments(_ snapshot: ResourceSnapshot) -> [SegmentKey: Segment] {
        var result: [SegmentKey: Segment] = [:]
        for (table, byLanguage) in snapshot.segments.segments {
            for (language, segment) in byLanguage { result[SegmentKey(language: language, table: table)] = segment }
        }
        return result
    }

    @Test func aRefreshRebuildsOnlyTheTouchedPair() throws {
        let before = segments(store.snapshot)
        #expect(before.count == 4)
        let path = try root.write(#""k" = "ja 2";"#, to: "ja.lproj/Localizable.strings")
        let summary = store.refresh(paths: [path])
        #expect(summary.changes == [TableChange(language: "ja", table: "Localizable")])
        let after = segments(store.snapshot)
        let touched = SegmentKey(language: "ja", table: "Localizable")
        #expect(Set(after.keys) == Set(before.keys))
        for (key, segment) in after {
            #expect((segment === before[key]) == (key != touched), "\(key.language)/\(key.table)")
        }
        #expect(try value("k", "ja") == "ja 2")
        #expect(try value("title", "ja", table: "Settings") == "ja settings")
    }

    /// A save that changes the bytes but not the entries (a comment, other spacing) builds
    /// the same segment: no change, no new generation, the old segment kept.
    @Test func anUnchangedSaveIsNoChange() throws {
        let before = store.snapshot
        let path = try root.write("/* reworded */\n\"k\"   =  \"ja 1\" ;\n", to: "ja.lproj/Localizable.strings")
        let summary = store.refresh(paths: [path])
        #expect(summary.filesParsed == 1)
        #expect(summary.changes.isEmpty)
        #expect(store.snapshot.generation == before.generation)
        #expect(
            store.snapshot.segments.segment(language: "ja", table: "Localizable")
                === before.segments.segment(language: "ja", table: "Localizable"))
    }

    /// A String Catalog whose French entry names an argument past the format's 32-bit
    /// numbers cannot be built into a segment: French keeps its last segment, the failure is
    /// listed naming `fr/Localizable`, and the next good save clears it.
    @Test func aBuildFailureKeepsTheLastSegmentAndIsListed() throws {
        let catalog = try TemporaryDirectory()
        func french(_ localization: String) -> String {
            """
            { "sourceLanguage" : "en", "version" : "1.0", "strings" : { "files" : { "localizations" : {
              "en" : { "stringUnit" : { "state" : "translated", "value" : "files" } },
              "fr" : \(localization)
            } } } }
            """
        }
        func plain(_ text: String) -> String { #"{ "stringUnit" : { "state" : "translated", "value" : "\#(text)" } }"# }
        let path = try catalog.write(french(plain("fichiers")), to: "Localizable.xcstrings")
        let store = ResourceStore(
            roots: [catalog.path], developmentLanguage: LanguageTag(language: "en"), holdGrace: .zero)
        store.rescan()
        #expect(try value("files", "fr", in: store) == "fichiers")
        let english = store.snapshot.segments.segment(language: "en", table: "Localizable")

        let unbuildable = """
            { "stringUnit" : { "state" : "translated", "value" : "%#@count@" },
              "substitutions" : { "count" : { "argNum" : 3000000000, "formatSpecifier" : "lld",
                "variations" : { "plural" : {
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg fichier" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg fichiers" } } } } } } }
            """
        try catalog.write(french(unbuildable), to: "Localizable.xcstrings")
        let failed = store.refresh(paths: [path])
        #expect(failed.changes.isEmpty)
        #expect(failed.newErrors.map(\.location.file) == ["fr/Localizable"])
        #expect(store.snapshot.errors.map(\.location.file) == ["fr/Localizable"])
        #expect(store.snapshot.errors.first?.message.contains("argument number 3000000000") == true)
        #expect(try value("files", "fr", in: store) == "fichiers")
        #expect(store.snapshot.segments.segment(language: "en", table: "Localizable") === english)

        try catalog.write(french(plain("des fichiers")), to: "Localizable.xcstrings")
        let fixed = store.refresh(paths: [path])
        #expect(fixed.changes == [TableChange(language: "fr", table: "Localizable")])
        #expect(store.snapshot.errors.isEmpty)
        #expect(try value("files", "fr", in: store) == "des fichiers")
    }

    /// A `.strings` file in one root and a String Catalog of the same table in a later one
    /// make one segment: the earlier root's entries win, the catalog gives the rest, and an
    /// edit of either rebuilds it.
    @Test func aCatalogAndStringsPairInTwoRoots() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        let strings = try first.write(#""k" = "A fr";"#, to: "fr.lproj/Localizable.strings")
        func catalog(_ only: String) -> String {
            """
            { "sourceLanguage" : "en", "version" : "1.0", "strings" : {
              "k" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated", "value" : "B fr" } } } },
              "only" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated", "value" : "\(only)" } } } }
            } }
            """
        }
        let path = try second.write(catalog("B only"), to: "Localizable.xcstrings")
        let store = ResourceStore(
            roots: [first.path, second.path], developmentLanguage: LanguageTag(language: "en"), holdGrace: .zero)
        store.rescan()
        #expect(try value("k", "fr", in: store) == "A fr")
        #expect(try value("only", "fr", in: store) == "B only")

        try second.write(catalog("B only 2"), to: "Localizable.xcstrings")
        // (`en` may be listed too: a catalog's entries are laid out in its dictionaries'
        // order, which differs between two parses of the same text.)
        #expect(store.refresh(paths: [path]).changes.contains(TableChange(language: "fr", table: "Localizable")))
        #expect(try value("k", "fr", in: store) == "A fr")
        #expect(try value("only", "fr", in: store) == "B only 2")

        try first.write(#""other" = "A other";"#, to: "fr.lproj/Localizable.strings")
        #expect(store.refresh(paths: [strings]).changes == [TableChange(language: "fr", table: "Localizable")])
        #expect(try value("k", "fr", in: store) == "B fr")
    }
}
