import Foundation
import LocalizationCore
import TestSupport
import Testing

@testable import Localization

/// Embedded mode compiles the files into private segments with the daemon's builder and
/// looks up through the mapped client's lookup: on the shared corpora, every key of every
/// table answers as a real `l10nd` answers a mapped client, for preference lists that fall
/// back (a region, an implied script, two languages, a pseudo-language, a language nobody has).
@Suite struct EmbeddedParityTests {
    /// The preference lists compared.
    static let preferences: [[String]] = [["pt-BR"], ["zh-HK"], ["de", "fr"], ["en-XA"], ["tlh"]]

    /// The mastodon-ios folders that hold `xx.lproj` folders, in the order they are served.
    static let mastodonRoots = [
        "MastodonSDK/Sources/MastodonLocalization/Resources", "Mastodon/Resources", "MastodonIntent",
        "WidgetExtension", "ShareActionExtension", "Localization/StringsConvertor/input",
        "Localization/StringsConvertor/Intents/input",
    ]

    /// Every table's keys in any language of `roots`, with whether the key has plural forms
    /// in some language.
    static func questions(_ roots: [String]) -> [(table: String, key: String, plural: Bool)] {
        let catalog = ResourceSet.load(roots: roots).catalog
        var keys: [String: [String: Bool]] = [:]
        for language in catalog.languages {
            for (table, entries) in catalog.tables[language.identifier] ?? [:] {
                for (key, entry) in entries.entries {
                    keys[table, default: [:]][key] = (keys[table]?[key] ?? false) || entry.plural != nil
                }
            }
        }
        return keys.sorted { $0.key < $1.key }.flatMap { table, keys in
            keys.sorted { $0.key < $1.key }.map { (table, $0.key, $0.value) }
        }
    }

    /// The differences between embedded mode on `roots` and mapped mode on a daemon serving
    /// them: values, whether found, the answering language, the source, plural forms by one
    /// count and by two arguments' counts, `localized`'s value, and the languages and tables
    /// listed.
    static func differences(roots: [String]) throws -> [String] {
        let daemon = try DaemonProcess(resources: roots)
        let mapped = Localizer(environment: [:], log: { _ in })
        mapped.useDaemon(socketPath: daemon.socketPath, mode: .mapped, timeout: 10)
        let embedded = Localizer(environment: ["L10N_MODE": "embedded"], log: { _ in })
        embedded.useResources(at: roots, developmentLanguage: "en")
        #expect(
            ClientDaemonTests.wait(seconds: 120) {
                _ = mapped.lookup("", languages: ["en"])
                return mapped.daemon?.mapped.current != nil
            }, "never mapped")
        let questions = Self.questions(roots)
        #expect(questions.count > 500)
        var found: [String] = []
        if embedded.servedLanguages != mapped.servedLanguages { found.append("languages differ") }
        if embedded.servedTables != mapped.servedTables { found.append("tables differ") }
        for languages in preferences {
            for (table, key, plural) in questions {
                let (answer, source) = embedded.lookupWithSource(key, languages: languages, table: table)
                let (expected, expectedSource) = mapped.lookupWithSource(key, languages: languages, table: table)
                if source != .files || expectedSource != .daemon || answer.value != expected.value
                    || answer.found != expected.found || answer.language != expected.language
                {
                    found.append("\(languages) \(table) \(key): \(answer) ≠ \(expected)")
                }
                let list = LanguageList.many(languages)
                if embedded.value(key, languages: list, table: table)
                    != mapped.value(key, languages: list, table: table)
                {
                    found.append("\(languages) \(table) \(key): localized differs")
                }
                guard plural else { continue }
                for count in [0, 1, 2, 5, 21] {
                    let selected = embedded.lookup(key, languages: languages, table: table, count: count)
                    let expected = mapped.lookup(key, languages: languages, table: table, count: count)
                    if selected.value != expected.value { found.append("\(languages) \(table) \(key) count \(count)") }
                }
                let counts = [PluralOperands(3), PluralOperands(1)]
                if embedded.lookup(key, languages: languages, table: table, counts: counts).value
                    != mapped.lookup(key, languages: languages, table: table, counts: counts).value
                {
                    found.append("\(languages) \(table) \(key) counts 3, 1")
                }
            }
        }
        #expect(mapped.daemon?.mapped.current != nil, "the daemon's answers were not read from mapped segments")
        return found
    }

    @Test(.enabled(if: PackagePaths.corpus != nil, "the corpus ../shared/corpus/iina is absent"))
    func embeddedAnswersAsMappedOnIINA() throws {
        let found = try Self.differences(roots: [try #require(PackagePaths.corpus)])
        #expect(found.isEmpty, "\(found.count): \(found.prefix(10))")
    }

    @Test(.enabled(if: PackagePaths.shared("corpus/mastodon-ios") != nil, "the corpus mastodon-ios is absent"))
    func embeddedAnswersAsMappedOnMastodon() throws {
        let corpus = try #require(PackagePaths.shared("corpus/mastodon-ios"))
        let found = try Self.differences(roots: Self.mastodonRoots.map { corpus + "/" + $0 })
        #expect(found.isEmpty, "\(found.count): \(found.prefix(10))")
    }
}
