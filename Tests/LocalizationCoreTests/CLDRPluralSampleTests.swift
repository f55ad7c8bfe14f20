import Foundation
import LocalizationCore
import Testing

/// CLDR's own sample numbers (`@integer`, `@decimal` in plurals.xml), each checked to take
/// the category CLDR lists it under, for every locale the file lists. Generated from the
/// installed data at test time; skipped (saying so) without `unicode-cldr-core`.
@Suite(
    .enabled(
        if: CLDRPluralData.system != nil,
        "CLDR's plurals.xml is not installed (scripts/install-dependencies installs unicode-cldr-core)"))
struct CLDRPluralSampleTests {
    static let locales = CLDRPluralData.system?.locales ?? []

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
        let data = try #require(CLDRPluralData.system)
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
