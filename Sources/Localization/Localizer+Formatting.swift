import Foundation
import LocalizationCore
import Synchronization

/// What `Language<String>.localized(…)` with arguments does, against any localizer:
/// `Language` asks ``Localizer/shared``; tests ask a localizer of their own (a daemon mode
/// must not be switched on for the shared one while other suites use it).
extension Localizer {
    /// `key` with its forms chosen by `count` and formatted with `arguments` (with `count`
    /// alone when `arguments` is empty).
    func localized(_ key: String, languages: [String], table: String?, count: Int, arguments: [any CVarArg])
        -> String
    {
        let arguments = arguments.isEmpty ? [count] : arguments
        let result = lookup(key, languages: languages, table: table, count: count)
        return formatted(key, result.value, arguments, languages: languages, table: table)
    }

    /// `key` with its forms chosen by a fractional `count`, formatted with `count`.
    func localized(_ key: String, languages: [String], table: String?, count: Double) -> String {
        if count.rounded() == count, count.magnitude < 1e15 {
            let format = lookup(key, languages: languages, table: table, count: Int(count), arguments: [count])
            return formatted(key, format, [count], languages: languages, table: table)
        }
        // The daemon modes send the decimal to the daemon, which selects (protocol 1.2); with
        // the entry at hand (embedded), select by the same rules as integer counts do.
        let operands = PluralOperands(count)
        let result = lookup(key, languages: languages, table: table, count: operands)
        var value = result.value
        if let entry = result.entry, entry.plural != nil {
            value = entry.value(forCount: operands, rules: .cldr(for: pluralLanguage(result, languages: languages)))
        }
        return formatted(key, value, [count], languages: languages, table: table)
    }

    /// `key` formatted with `arguments`, each plural variable taking its form from the
    /// argument at its position.
    func localized(_ key: String, languages: [String], table: String?, arguments: [any CVarArg]) -> String {
        let count = arguments.lazy.compactMap(LocalizedFormatter.integerValue).first.map { Int(clamping: $0) }
        let format = lookup(key, languages: languages, table: table, count: count, arguments: arguments)
        return formatted(key, format, arguments, languages: languages, table: table)
    }

    /// The looked-up format with its plural forms selected: per argument when the entry
    /// is at hand (embedded), else by `count` (what a daemon selects on request).
    private func lookup(
        _ key: String, languages: [String], table: String?, count: Int?, arguments: [any CVarArg]
    ) -> String {
        let result = lookup(key, languages: languages, table: table, count: count)
        guard let entry = result.entry, let plural = entry.plural else { return result.value }
        let rules = PluralRules.cldr(for: pluralLanguage(result, languages: languages))
        return plural.resolved(rules: rules) { position in
            guard position >= 1, position <= arguments.count else { return nil }
            let argument = arguments[position - 1]
            if let integer = LocalizedFormatter.integerValue(argument) { return PluralOperands(Int(clamping: integer)) }
            return LocalizedFormatter.doubleValue(argument).map(PluralOperands.init)
        }
    }

    /// The language whose plural rules apply: the one that served the entry, or for
    /// `Base` the language asked for.
    private func pluralLanguage(_ result: LookupResult, languages: [String]) -> LanguageTag {
        if let language = result.language, !language.isBase { return language }
        return languages.lazy.compactMap { try? LanguageTag($0) }.first ?? LanguageTag(language: "en")
    }

    /// `format` filled with `arguments`; when it does not fit them, the development
    /// language's string (logged once per key and language), and as a last resort
    /// whatever can be filled.
    private func formatted(
        _ key: String, _ format: String, _ arguments: [any CVarArg], languages: [String], table: String?
    ) -> String {
        let identifier = languages.first ?? ""
        let locale = Locale(identifier: identifier.isEmpty ? "en_US_POSIX" : identifier)
        do {
            return try LocalizedFormatter.format(format, arguments, locale: locale)
        } catch {
            FormatWarnings.report(key: key, languages: languages, mismatch: error)
        }
        // An empty preference list chains Base, then the development language.
        let development = lookup(key, languages: [], table: table)
        var fallback = development.value
        if let plural = development.entry?.plural {
            fallback = plural.resolved(rules: .cldr(for: development.language ?? LanguageTag(language: "en"))) {
                position in
                guard position >= 1, position <= arguments.count else { return nil }
                return LocalizedFormatter.integerValue(arguments[position - 1]).map {
                    PluralOperands(Int(clamping: $0))
                }
            }
        }
        if let text = try? LocalizedFormatter.format(fallback, arguments, locale: locale) { return text }
        return LocalizedFormatter.formatLeniently(fallback, arguments, locale: locale)
    }
}

/// Logs each translation that does not fit its arguments once, to standard error.
enum FormatWarnings {
    /// Distinct (key, languages) pairs remembered; past it, warnings repeat rather than
    /// memory growing.
    static let capacity = 1024
    private static let reported = Mutex<Set<String>>([])

    static func report(key: String, languages: [String], mismatch: FormatMismatch) {
        let id = languages.joined(separator: ":") + "\u{0}" + key
        let isNew = reported.withLock { seen in
            if seen.count >= capacity { seen.removeAll() }
            return seen.insert(id).inserted
        }
        guard isNew else { return }
        let line =
            "l10n: warning: the \(languages.first ?? "") translation of \"\(key)\" does not fit its arguments (\(mismatch.message)); using the development language's string\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
