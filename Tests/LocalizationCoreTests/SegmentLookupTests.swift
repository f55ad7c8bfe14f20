import Foundation
import LocalizationCore
import TestSupport
import Testing

/// The lookup over segments answers every lookup exactly as the catalog does: built from
/// the same files, for every table, every key (each also decomposed and composed, and a
/// key no table has), every language alone, pseudo-languages, tags only a fallback serves
/// and lists of several preferences, with and without counts for plural entries — the same
/// value, found or not, the same answering language and the same plural forms.
@Suite struct SegmentLookupTests {
    /// Root lists the catalog and the segments are built from, each with how sparsely the
    /// (preference list, key) pairs of a big tree are sampled (1: all of them).
    static let trees: [(name: String, roots: [String], every: Int)] = {
        var trees: [(String, [String], Int)] = [
            ("examples", [PackagePaths.exampleResources], 1),
            ("examples over fixtures", PackagePaths.sharedLocalizerRoots, 1),
            ("fixtures over examples", PackagePaths.sharedLocalizerRoots.reversed(), 1),
            ("string catalog", [PackagePaths.stringCatalog], 1),
            ("string catalog over examples", [PackagePaths.stringCatalog, PackagePaths.exampleResources], 1),
        ]
        for project in ["iina", "mastodon-ios"] {
            if let root = PackagePaths.shared("corpus/" + project) { trees.append((project, [root], 29)) }
        }
        return trees
    }()

    @Test(arguments: trees.indices)
    func segmentsAnswerAsTheCatalogDoes(tree: Int) throws {
        let (name, roots, every) = Self.trees[tree]
        let (catalog, segments) = try Self.load(roots)
        var compared = 0
        let mismatches = try Self.mismatches(catalog, segments, every: every, compared: &compared)
        #expect(mismatches.isEmpty, "\(name): \(mismatches.count) mismatches, first \(mismatches.prefix(8))")
        #expect(compared > 500, "\(name): only \(compared) lookups compared")
    }

    /// The comparison can fail: a set in which one segment says something else is caught.
    @Test func aDifferentSegmentIsCaught() throws {
        let (catalog, segments) = try Self.load([PackagePaths.exampleResources])
        let parsed = try StringsParser.parseTable(Array("\"多言語化\" = \"autre\";".utf8))
        let changed = segments.replacing(
            try Segment(SegmentPlan(language: "fr", table: "Localizable", pieces: [.strings(parsed)])),
            language: "fr", table: "Localizable")
        var compared = 0
        let mismatches = try Self.mismatches(catalog, changed, every: 1, compared: &compared)
        #expect(mismatches.contains { $0.hasPrefix("[\"fr\"]/Localizable/\"多言語化\"") && $0.contains("autre") })
    }

    /// The catalog `ResourceSet` assembles from `roots`, and the segments built from the
    /// same files.
    static func load(_ roots: [String]) throws -> (ResourceCatalog, SegmentSet) {
        let resources = ResourceSet.load(roots: roots)
        var sources: [(file: ResourceFile, content: SegmentSource)] = []
        for file in resources.files {
            guard let bytes = try? ResourceFileReader.bytes(of: file.path).get(),
                let (content, _) = try? SegmentSource.read(bytes, kind: file.kind, file: file.path)
            else { continue }
            sources.append((file, content))
        }
        return (
            resources.catalog,
            try SegmentSet(developmentLanguage: resources.catalog.developmentLanguage, sources: sources)
        )
    }

    /// Every way the two lookups differ, described; `every` samples the (preference list,
    /// key) pairs of a big tree, every key and every list still met, plural keys always.
    static func mismatches(
        _ catalog: ResourceCatalog, _ segments: SegmentSet, every: Int, compared: inout Int
    ) throws -> [String] {
        let languages = catalog.languages
        #expect(Set(segments.languages) == Set(languages))
        var preferences: [[LanguageTag]] = languages.map { [$0] }
        preferences += ["en-XA", "ar-XB", "zh-TW", "zh-HK", "pt-PT", "ja-JP", "en-GB", "es-MX", "sr-Latn"].map {
            [try! LanguageTag($0)]
        }
        // Several preferences: each language before the next (gettext's `sv:de`), and a
        // list that starts with a language no table has.
        for (index, language) in languages.enumerated() {
            preferences.append([language, languages[(index + 1) % languages.count]])
        }
        preferences.append([try LanguageTag("xx"), try LanguageTag("de"), try LanguageTag("fr")])
        preferences.append([])
        let counts: [PluralCounts] = [
            .count(PluralOperands(0)), .count(PluralOperands(1)), .count(PluralOperands(2)), .count(PluralOperands(5)),
            .count(PluralOperands(22)), .count(PluralOperands(1.5)), .counts([PluralOperands(1), PluralOperands(3)]),
            .counts([nil, PluralOperands(2)]),
        ]
        var found: [String] = []
        var pair = 0
        for name in Set(catalog.tables.values.flatMap(\.keys)).sorted() {
            var keys: Set<String> = ["no such key ✗"]
            var pluralKeys: Set<String> = []
            for byName in catalog.tables.values {
                byName[name]?.forEachEntry { key, entry in
                    keys.insert(key)
                    if entry.plural != nil { pluralKeys.insert(key) }
                }
            }
            let spellings = keys.sorted().flatMap(SegmentTestSupport.canonicalSpellings(of:))
            for preferred in preferences {
                let chain = catalog.chain(preferred)
                let segmentChain = segments.chain(preferred)
                for key in spellings {
                    pair += 1
                    let isPlural = pluralKeys.contains(key)
                    guard isPlural || pair % every == 0 else { continue }
                    for plural in isPlural ? [.none] + counts : [.none] {
                        compared += 1
                        let expected = catalog.lookup(key, in: name, chain: chain, plural: plural)
                        let actual = try segments.lookup(key, in: name, chain: segmentChain, plural: plural)
                        guard
                            expected.value != actual.value || expected.found != actual.found
                                || expected.language != actual.language
                                || expected.entry?.plural != actual.entry?.plural
                                || expected.entry?.value != actual.entry?.value
                        else { continue }
                        found.append(
                            "\(preferred.map(\.identifier))/\(name)/\(key.debugDescription) \(plural): "
                                + "catalog \(expected.value.debugDescription) \(expected.language?.identifier ?? "-"), "
                                + "segments \(actual.value.debugDescription) \(actual.language?.identifier ?? "-")")
                    }
                }
            }
        }
        return found
    }
}
