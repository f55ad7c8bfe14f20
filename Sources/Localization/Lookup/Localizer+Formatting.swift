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
        return formatted(
            key, result.value, arguments, languages: languages, table: table,
            pluralSelected: Self.pluralSelected(result, counted: true))
    }

    /// `key` with its forms chosen by `count` (whole or fractional), formatted with `count`.
    ///
    /// A string that takes its count as an integer (`%ld files`) takes the count's integral
    /// part, and its form is chosen by that part too: `1.5` gives "1 file", as gettext's
    /// `ngettext(…, 1.5)` does in C (its count is an `unsigned long`), where Foundation's
    /// `String(format: "%ld", 1.5)` prints whatever the integer register held. Before, the
    /// format came back unfilled ("%ld files"). A count with no integral part (NaN, an
    /// infinity, past `Int`) still leaves the conversion as written.
    func localized(_ key: String, languages: [String], table: String?, count: Double) -> String {
        // Selected where the entry is: by the daemon (a decimal since protocol 1.2) or by the
        // embedded catalog, with the same rules.
        let value = lookup(key, languages: languages, table: table, count: PluralOperands(count)).value
        if FormatSpecifier.argumentKinds(of: FormatSpecifier.parse(value))[1] == .integer,
            let whole = Int(exactly: count.rounded(.towardZero))
        {
            return localized(key, languages: languages, table: table, count: whole, arguments: [whole])
        }
        return formatted(key, value, [count], languages: languages, table: table)
    }

    /// `key` formatted with `arguments`, each plural variable taking its form from the
    /// argument at its position, as `String.localizedStringWithFormat` does: in the daemon
    /// modes the daemon selects by the arguments' counts (protocol 1.3's `counts`).
    ///
    /// `defaultFormat` is the format when no language has `key` (`String(localized:defaultValue:)`).
    func localized(
        _ key: String, languages: [String], table: String?, arguments: [any CVarArg], defaultFormat: String? = nil
    ) -> String {
        // Selected by the daemon in its modes and by the embedded catalog otherwise: both
        // apply the serving language's rules, and the development language's for a `Base`
        // entry, whose text it holds (`ResourceCatalog.lookup`). With no number among the
        // arguments, a plural entry's value is its `other` forms.
        let result = lookupWithSource(
            key, languages: languages, table: table, plural: LocalizedFormatter.pluralCounts(arguments)
        ).result
        let format = result.found ? result.value : defaultFormat ?? result.value
        return formatted(
            key, format, arguments, languages: languages, table: table, defaultFormat: defaultFormat,
            pluralSelected: Self.pluralSelected(result, counted: LocalizedFormatter.pluralCounts(arguments) != .none))
    }

    /// Whether `result`'s value was rendered from a plural entry, so that its positions are
    /// argument numbers (``LocalizedFormatter/finish(_:_:locale:pluralSelected:fallbackFormat:mismatch:)``).
    /// A daemon's or a mapped table's answer does not say: there, a value found for a lookup
    /// that selected forms by its arguments' numbers is taken as rendered.
    static func pluralSelected(_ result: LookupResult, counted: Bool) -> Bool {
        guard result.found else { return false }
        guard let entry = result.entry else { return counted }
        return entry.plural != nil
    }

    /// `format` filled with `arguments`; when it does not fit them, the development
    /// language's string (logged once per key and language), and as a last resort
    /// whatever can be filled.
    private func formatted(
        _ key: String, _ format: String, _ arguments: [any CVarArg], languages: [String], table: String?,
        defaultFormat: String? = nil, pluralSelected: Bool = false
    ) -> String {
        LocalizedFormatter.finish(
            format, arguments, locale: LocalizedFormatter.locale(forPreferences: languages),
            pluralSelected: pluralSelected,
            fallbackFormat: {
                // An empty preference list chains Base, then the development language.
                let development = lookupWithSource(
                    key, languages: [], table: table, plural: LocalizedFormatter.pluralCounts(arguments)
                ).result
                return development.found ? development.value : defaultFormat ?? development.value
            },
            mismatch: { FormatWarnings.report(key: key, languages: languages, mismatch: $0) })
    }
}

/// Logs each translation that does not fit its arguments once, to standard error.
enum FormatWarnings {
    /// Distinct (key, languages) pairs remembered; past it, warnings repeat rather than
    /// memory growing.
    static let capacity = 1024
    private static let reported = ForkSafeMutex<Set<String>>([])

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
