import Foundation
import LocalizationCore
import Testing

/// The sample numbers of the plural data in use (`@integer`, `@decimal`), each checked to
/// take the category the data lists it under, for every locale, cardinal and ordinal. The
/// carried data's samples were placed by babel's own evaluator of the same CLDR rules
/// (scripts/update-cldr-data), so this compares two independent evaluators.
@Suite struct CLDRPluralSampleTests {
    static let locales = CLDRPluralData.system.locales
    static let ordinalLocales = CLDRPluralData.systemOrdinals.locales

    /// The samples of one rule: `0~15, 100, 1000, …` and `0.0~1.5, 1.0000001c6`.
    static func samples(of text: String) -> [String] {
        var numbers: [String] = []
        for part in text.split(separator: "@").dropFirst() {
            let items = part.split(separator: " ", maxSplits: 1).dropFirst().first ?? ""
            for item in items.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
            where !item.isEmpty && item != "…" {
                let bounds = item.split(separator: "~").map(String.init)
                guard bounds.count == 2 else {
                    numbers.append(item)
                    continue
                }
                // A range steps by its last visible digit: 0.0~1.5 is 0.0, 0.1, … 1.5.
                let digits = bounds[0].split(separator: ".").dropFirst().first?.count ?? 0
                let low = Int(bounds[0].replacing(".", with: ""))!, high = Int(bounds[1].replacing(".", with: ""))!
                for scaled in low...high {
                    if digits == 0 {
                        numbers.append(String(scaled))
                    } else {
                        var text = String(scaled)
                        while text.count <= digits { text = "0" + text }
                        text.insert(".", at: text.index(text.endIndex, offsetBy: -digits))
                        numbers.append(text)
                    }
                }
            }
        }
        return numbers
    }

    @Test(arguments: locales) func everySampleTakesItsCategory(locale: String) throws {
        try checkSamples(of: CLDRPluralData.system, locale: locale)
    }

    @Test(arguments: ordinalLocales) func everyOrdinalSampleTakesItsCategory(locale: String) throws {
        try checkSamples(of: CLDRPluralData.systemOrdinals, locale: locale)
    }

    func checkSamples(of data: CLDRPluralData, locale: String) throws {
        let rules = try #require(data.rules(forLocale: locale))
        var checked = 0
        for source in data.sources[locale] ?? [] {
            for sample in Self.samples(of: source.text) {
                let operands = try #require(PluralOperands(sample), "\(locale): sample \(sample)")
                #expect(rules.category(for: operands) == source.category, "\(locale): \(sample) in \(source.text)")
                checked += 1
            }
        }
        #expect(checked > 0)
        // The tag the catalog uses finds the same rules (pt_PT → pt-PT, zh → zh-Hant…).
        if locale != "root", let tag = try? LanguageTag(locale) {
            #expect(data.rules(for: tag) == rules, "\(locale)")
        }
    }

    @Test func decimalsFollowTheLanguage() throws {
        let operands = try #require(PluralOperands("1.5"))
        #expect(PluralRules.cldr(for: LanguageTag(language: "en")).category(for: operands) == .other)
        #expect(PluralRules.cldr(for: LanguageTag(language: "fr")).category(for: operands) == .one)
        #expect(PluralRules.cldr(for: LanguageTag(language: "en")).category(for: PluralOperands("1.0")!) == .other)
        #expect(PluralRules.cldr(for: LanguageTag(language: "en")).category(for: PluralOperands(1.0)) == .one)
        #expect(PluralRules.cldr(for: LanguageTag(language: "ru")).category(for: PluralOperands(21)) == .one)
    }

    @Test func operandsOfCompactExponents() throws {
        let operands = try #require(PluralOperands("1.0000001c6"))
        #expect(operands.integer == 1_000_000)
        #expect(operands.visibleFractionDigits == 1)
        #expect(operands.exponent == 6)
        for bad in ["", "1.", ".5", "1e", "x", "1c999", "99999999999999999999"] {
            #expect(PluralOperands(bad) == nil, "\(bad)")
        }
    }

    @Test func badRulesAreErrors() {
        for bad in ["q = 1", "n = ", "n % = 1", "n = 3..1", "n = 1 nor i = 2"] {
            #expect(throws: PluralRuleSyntaxError.self, "\(bad)") { try PluralRule(bad) }
        }
    }
}

/// The carried CLDR release, against what the issue found outdated in Debian's CLDR 41.
@Suite struct CLDRSnapshotTests {
    @Test func carriesCurrentCLDR() throws {
        #expect(Int(CLDRPluralData.bundledVersion)! >= 49)
        #expect(CLDRPluralData.bundled(.cardinal).locales.count > 200)
        #expect(CLDRPluralData.bundled(.ordinal).locales.count > 100)
    }

    /// Languages whose rules changed after CLDR 41 select as current CLDR says.
    @Test(arguments: [
        // Romanian's `one` is an integer 1 without visible fraction digits: 1.0 is `few`.
        ("ro", "1.0", PluralCategory.few), ("ro", "1", .one), ("ro", "101", .few),
        ("is", "21", .one), ("is", "11", .other), ("is", "0.2", .other), ("is", "0.1", .one),
        ("mt", "2", .two), ("mt", "3", .few),
        ("fr", "1000000", .many), ("ru", "21", .one), ("ru", "1.5", .other),
        // CLDR 49 gave Vietnamese a `one` (`i = 0 or n = 1`); CLDR 47 had only `other`.
        ("vi", "1", .one), ("vi", "0", .one), ("vi", "2", .other),
    ])
    func changedLanguagesSelectAsCurrentCLDR(language: String, number: String, category: PluralCategory) throws {
        let rules = PluralRules.cldr(for: try LanguageTag(language))
        #expect(rules.category(for: try #require(PluralOperands(number))) == category, "\(language) \(number)")
    }

    @Test func ordinalRulesComeFromCLDR() throws {
        let english = PluralRules.cldrOrdinal(for: LanguageTag(language: "en"))
        #expect(english.category(for: PluralOperands(1)) == .one)
        #expect(english.category(for: PluralOperands(22)) == .two)
        #expect(english.category(for: PluralOperands(23)) == .few)
        #expect(english.category(for: PluralOperands(11)) == .other)
    }

    /// Where Debian's CLDR 41 file is installed, it still reads, and `is mt ro` differ from
    /// the carried data in at least one sample (what the issue reported).
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: CLDRPluralData.debianPath),
            "Debian's unicode-cldr-core is not installed"))
    func debiansOlderFileDiffers() throws {
        let old = try CLDRPluralData(
            xml: Array(try #require(FileManager.default.contents(atPath: CLDRPluralData.debianPath))))
        let current = CLDRPluralData.system
        for language in ["is", "mt", "ro"] {
            let tag = try LanguageTag(language)
            let (before, after) = (old.rules(for: tag), current.rules(for: tag))
            #expect(before != after, "\(language): CLDR 41 and the carried CLDR have the same rules")
        }
    }
}
