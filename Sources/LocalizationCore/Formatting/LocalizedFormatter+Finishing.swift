package import Foundation

/// What turns a looked-up format into the finished string, shared by the Swift library
/// (`"…".ja.localized("Ana", 3)`) and the daemon (`lookup` with `args`), so both give the
/// same text for the same arguments.
extension LocalizedFormatter {
    /// Each argument's number, for plural selection (`nil` for an argument that is not a
    /// number); no count when none is, so a plural entry's value is its `other` forms.
    package static func pluralCounts(_ arguments: [any CVarArg]) -> PluralCounts {
        let counts = arguments.map { argument -> PluralOperands? in
            if let integer = integerValue(argument) { return PluralOperands(Int(clamping: integer)) }
            return doubleValue(argument).map(PluralOperands.init)
        }
        return counts.contains { $0 != nil } ? .counts(counts) : .none
    }

    /// The locale numbers are printed in for a lookup's preference list, as
    /// `String(localized:locale:)` prints them: the first preference's (`1 234 567` and `1,5`
    /// for `fr`); none, as `String(format:)`, when there is no preference.
    package static func locale(forPreferences languages: [String]) -> Locale? {
        guard let identifier = languages.first, !identifier.isEmpty else { return nil }
        return Locale(identifier: identifier)
    }

    /// `format` filled with `arguments`; when it does not fit them, `fallbackFormat()` (the
    /// development language's string) after telling `mismatch`; when that does not fit
    /// either, whatever can be filled (``formatLeniently(_:_:locale:)``). `pluralSelected`
    /// when the format was rendered from a plural entry: position *n* is then argument *n*
    /// (``PrintfFormat/init(_:argumentsByPosition:)``).
    package static func finish(
        _ format: String, _ arguments: [any CVarArg], locale: Locale?, pluralSelected: Bool = false,
        fallbackFormat: () -> String, mismatch: (FormatMismatch) -> Void = { _ in }
    ) -> String {
        do {
            return try self.format(format, arguments, locale: locale, argumentsByPosition: pluralSelected)
        } catch {
            mismatch(error)
        }
        let fallback = fallbackFormat()
        if let text = try? self.format(fallback, arguments, locale: locale, argumentsByPosition: pluralSelected) {
            return text
        }
        return formatLeniently(fallback, arguments, locale: locale, argumentsByPosition: pluralSelected)
    }
}
