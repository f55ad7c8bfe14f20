import Foundation
import LocalizationCore
import TestSupport
import Testing

/// Mastodon for iOS's real `.stringsdict` files (159 of them, many languages), next to the
/// package: `../shared/corpus/mastodon-ios`.
enum StringsDictCorpus {
    static let root = URL(fileURLWithPath: PackagePaths.shared + "/corpus/mastodon-ios")

    static var isPresent: Bool { PackagePaths.shared("corpus/mastodon-ios") != nil }

    /// Every `.stringsdict` under the root, sorted by path.
    static func files() -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "stringsdict" { files.append(url) }
        }
        return files.sorted { $0.path < $1.path }
    }
}

@Suite struct StringsDictCorpusTests {
    /// Every file loads entry by entry: every key Foundation reads is served (an entry the
    /// reader reports as lost would be an error here), and every form is Foundation's string.
    @Test(.enabled(if: StringsDictCorpus.isPresent, "the corpus ../shared/corpus/mastodon-ios is absent"))
    func everyFileLoadsEveryEntryAsFoundationReadsIt() throws {
        let files = StringsDictCorpus.files()
        #expect(files.count >= 159)
        var entriesCompared = 0
        for url in files {
            let data = try Data(contentsOf: url)
            let (entries, problems) = try StringsDictReader.read(Array(data), file: url.path)
            #expect(problems.allSatisfy { !$0.isEntryLost }, "\(url.path): \(problems)")
            let foundation = try #require(
                try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any])
            #expect(Set(entries.keys) == Set(foundation.keys), "\(url.path)")
            for (key, value) in foundation {
                let entry = try #require(entries[key], "\(url.path): \(key)")
                switch value {
                case let string as String:
                    #expect(entry.value == string)
                case let rule as [String: Any]:
                    let plural = try #require(entry.plural, "\(url.path): \(key)")
                    #expect(plural.format == rule["NSStringLocalizedFormatKey"] as? String)
                    for (name, variable) in plural.variables {
                        let written = try #require(rule[name] as? [String: Any], "\(url.path): \(key).\(name)")
                        for category in PluralCategory.allCases {
                            guard let form = written[category.rawValue] as? String else { continue }
                            #expect(variable.forms[category] == form, "\(url.path): \(key).\(name).\(category)")
                        }
                    }
                default:
                    Issue.record("\(url.path): \(key) is neither a string nor a rule")
                }
                entriesCompared += 1
            }
        }
        #expect(entriesCompared > 1000)
    }

    /// The corpus's Russian, Ukrainian, Polish and Belarusian counts select CLDR's forms: 21
    /// is `one` (Polish: `many`), and the entry serves that form from the file.
    @Test(
        .enabled(if: StringsDictCorpus.isPresent, "the corpus ../shared/corpus/mastodon-ios is absent"),
        arguments: ["ru", "uk", "pl", "be"])
    func slavicCountsSelectTheirForms(language: String) throws {
        let urls = StringsDictCorpus.files().filter { $0.path.contains("/\(language).lproj/") }
        guard !urls.isEmpty else {
            print("skipping \(language): the corpus has no \(language).lproj stringsdict")
            return
        }
        var entries: [String: TableEntry] = [:]
        for url in urls {
            entries.merge(try StringsDictReader.parse(Array(try Data(contentsOf: url)), file: url.path)) { a, _ in a }
        }
        let rules = PluralRules.cldr(for: try LanguageTag(language))
        var checked = 0
        let category = rules.category(for: PluralOperands(21))
        #expect(category == (language == "pl" ? .many : .one))
        for (key, entry) in entries {
            guard let plural = entry.plural, plural.variables.count == 1,
                let (name, variable) = plural.variables.first, plural.format == "%#@\(name)@"
            else { continue }
            let expected = variable.forms[category] ?? variable.forms[.other]
            #expect(entry.value(for: .count(PluralOperands(21)), rules: rules) == expected, "\(key)")
            checked += 1
        }
        #expect(checked > 0)
    }
}
