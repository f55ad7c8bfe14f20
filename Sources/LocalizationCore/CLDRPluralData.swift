import Foundation

/// CLDR's cardinal plural rules for every language it lists, read from its own
/// `supplemental/plurals.xml` (Debian's `unicode-cldr-core`, installed by
/// `scripts/install-dependencies`).
///
/// No rule is typed in by hand: every language's rules, and the sample numbers the tests
/// check them with, come from that file. `L10N_CLDR_PLURALS` names another copy.
///
/// ```swift
/// let data = try CLDRPluralData(xml: bytes)
/// data.rules(for: try LanguageTag("fr"))?.category(for: PluralOperands("1.5")!)   // .one
/// ```
public struct CLDRPluralData: Sendable {
    /// One `<pluralRule count="…">` as written: its condition and its samples.
    public struct RuleSource: Sendable, Hashable {
        /// The category the rule defines.
        public var category: PluralCategory
        /// The rule's text, condition and `@integer`/`@decimal` samples.
        public var text: String
    }

    /// Where Debian's `unicode-cldr-core` puts the file.
    public static let debianPath = "/usr/share/unicode/cldr/common/supplemental/plurals.xml"

    /// Rule sources by CLDR locale id (`pt_PT`, `en`, `root`), as written in the file.
    public let sources: [String: [RuleSource]]
    private let parsed: [String: PluralRules]

    /// The system's data: `L10N_CLDR_PLURALS`, else ``debianPath``; `nil` when neither
    /// can be read (every number is then `other`). Read once, on first use.
    public static let system: CLDRPluralData? = {
        let path =
            ProcessInfo.processInfo.environment["L10N_CLDR_PLURALS"].flatMap { $0.isEmpty ? nil : $0 } ?? debianPath
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? CLDRPluralData(xml: Array(data))
    }()

    /// Reads the cardinal section of a `plurals.xml`. Throws when a rule does not parse.
    public init(xml bytes: [UInt8]) throws(PluralRuleSyntaxError) {
        let text = String(decoding: bytes, as: UTF8.self)
        // Only the cardinal rules: a file may also hold `type="ordinal"` (`ordinals.xml` does).
        var section = Substring(text)
        if let start = text.range(of: "<plurals type=\"cardinal\">") {
            section = text[start.upperBound...]
            if let end = section.range(of: "</plurals>") { section = section[..<end.lowerBound] }
        }
        var sources: [String: [RuleSource]] = [:]
        var parsed: [String: PluralRules] = [:]
        for block in section.components(separatedBy: "<pluralRules ").dropFirst() {
            guard let locales = Self.attribute("locales", in: block) else { continue }
            var rules: [RuleSource] = []
            for ruleText in block.components(separatedBy: "<pluralRule ").dropFirst() {
                guard let count = Self.attribute("count", in: ruleText), let category = PluralCategory(rawValue: count),
                    let open = ruleText.firstIndex(of: ">"), let close = ruleText.range(of: "</pluralRule>")
                else { continue }
                let body = ruleText[ruleText.index(after: open)..<close.lowerBound]
                rules.append(RuleSource(category: category, text: Self.unescaped(String(body)).trimmingSpaces))
            }
            var compiled: [(category: PluralCategory, rule: PluralRule)] = []
            for source in rules {
                compiled.append((source.category, try PluralRule(source.text)))
            }
            for locale in locales.split(separator: " ") {
                sources[String(locale)] = rules
                parsed[String(locale)] = PluralRules(rules: compiled)
            }
        }
        self.sources = sources
        self.parsed = parsed
    }

    /// The rules for `language`: CLDR's entry for the tag itself (`pt_PT`), else for the
    /// language with its script (`zh_Hant`), else for the bare language; `root` when CLDR
    /// does not list the language at all. `Base` has none: the caller picks a language.
    public func rules(for language: LanguageTag) -> PluralRules? {
        var candidates: [String] = []
        if let region = language.region { candidates.append("\(language.language)_\(region)") }
        if let script = language.script { candidates.append("\(language.language)_\(script)") }
        candidates.append(language.language)
        for candidate in candidates {
            if let rules = parsed[candidate] { return rules }
        }
        return parsed["root"]
    }

    /// The rules of one CLDR locale id as the file names it (`pt_PT`, `root`).
    public func rules(forLocale identifier: String) -> PluralRules? { parsed[identifier] }

    /// The locale ids CLDR lists, sorted.
    public var locales: [String] { sources.keys.sorted() }

    private static func attribute(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "\(name)=\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    private static func unescaped(_ text: String) -> String {
        text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
            .replacing("&apos;", with: "'").replacing("&amp;", with: "&")
    }
}
