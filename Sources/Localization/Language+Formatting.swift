import Foundation
import LocalizationCore
import Synchronization

extension Language where Base == String {
    /// The string for `count`: a plural entry's form for that number in this language
    /// (CLDR's rules; Apple's `zero` form for 0 when the entry has one), formatted with
    /// `count` as its argument.
    ///
    /// ```swift
    /// "%d files".ru.localized(count: 21)   // "21 файл"
    /// ```
    public func localized(count: Int, table: String? = nil) -> String {
        localized(count: count, [count], table: table)
    }

    /// The string for a fractional `count` (`1.5` is `other` in English, `one` in French),
    /// formatted with `count` as its argument.
    public func localized(count: Double, table: String? = nil) -> String {
        if count.rounded() == count, count.magnitude < 1e15 {
            return formatted(lookup(table: table, count: Int(count), arguments: [count]), [count], table: table)
        }
        // The daemon modes send the decimal to the daemon, which selects (protocol 1.2); with
        // the entry at hand (embedded), select by the same rules as integer counts do.
        let operands = PluralOperands(count)
        let result = Localizer.shared.lookup(base, languages: identifiers, table: table, count: operands)
        var value = result.value
        if let entry = result.entry, entry.plural != nil {
            value = entry.value(forCount: operands, rules: .cldr(for: pluralLanguage(result)))
        }
        return formatted(value, [count], table: table)
    }

    /// The string with its forms chosen by `count` and formatted with `arguments` (with
    /// `count` alone when `arguments` is empty).
    public func localized(count: Int, _ arguments: any CVarArg..., table: String? = nil) -> String {
        localized(count: count, arguments, table: table)
    }

    /// The string formatted with `arguments`: `%@ %d %ld %lld %u %f %.2f %s %%` and
    /// positions (`%2$@`). Each plural variable (`%#@files@`) takes its form from the
    /// argument at its position, as `String.localizedStringWithFormat` does.
    ///
    /// A translation whose conversions do not fit the arguments is never applied: a
    /// warning is logged and the development language's string is used instead.
    ///
    /// ```swift
    /// "%d files in %d folders".fr.localized(3, 1)   // "3 fichiers dans 1 dossier"
    /// ```
    public func localized(_ arguments: any CVarArg..., table: String? = nil) -> String {
        let count = arguments.lazy.compactMap(LocalizedFormatter.integerValue).first.map { Int(clamping: $0) }
        return formatted(lookup(table: table, count: count, arguments: arguments), arguments, table: table)
    }

    private func localized(count: Int, _ arguments: [any CVarArg], table: String?) -> String {
        let arguments = arguments.isEmpty ? [count] : arguments
        let result = Localizer.shared.lookup(base, languages: identifiers, table: table, count: count)
        return formatted(result.value, arguments, table: table)
    }

    /// The looked-up format with its plural forms selected: per argument when the entry
    /// is at hand (embedded), else by `count` (what a daemon selects on request).
    private func lookup(table: String?, count: Int?, arguments: [any CVarArg]) -> String {
        let result = Localizer.shared.lookup(base, languages: identifiers, table: table, count: count)
        guard let entry = result.entry, let plural = entry.plural else { return result.value }
        let rules = PluralRules.cldr(for: pluralLanguage(result))
        return plural.resolved(rules: rules) { position in
            guard position >= 1, position <= arguments.count else { return nil }
            let argument = arguments[position - 1]
            if let integer = LocalizedFormatter.integerValue(argument) { return PluralOperands(Int(clamping: integer)) }
            return LocalizedFormatter.doubleValue(argument).map(PluralOperands.init)
        }
    }

    /// The language whose plural rules apply: the one that served the entry, or for
    /// `Base` the language asked for.
    private func pluralLanguage(_ result: LookupResult) -> LanguageTag {
        if let language = result.language, !language.isBase { return language }
        return identifiers.lazy.compactMap { try? LanguageTag($0) }.first ?? LanguageTag(language: "en")
    }

    /// `format` filled with `arguments`; when it does not fit them, the development
    /// language's string (logged once per key and language), and as a last resort
    /// whatever can be filled.
    private func formatted(_ format: String, _ arguments: [any CVarArg], table: String?) -> String {
        let locale = Locale(identifier: identifier.isEmpty ? "en_US_POSIX" : identifier)
        do {
            return try LocalizedFormatter.format(format, arguments, locale: locale)
        } catch {
            FormatWarnings.report(key: base, languages: identifiers, mismatch: error)
        }
        // An empty preference list chains Base, then the development language.
        let development = Localizer.shared.lookup(base, languages: [], table: table)
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
