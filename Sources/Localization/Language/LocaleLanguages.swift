import Foundation
import LocalizationCore
import Synchronization

/// The language tags a `Locale` asks a lookup for: the one place `String(localized:locale:)`
/// turns a locale into languages, so that it follows the tag rules of ``LanguageTag``
/// (and its matching of folders) wherever they change.
enum LocaleLanguages {
    /// `Locale.current` (or `.autoupdatingCurrent`) means the user's languages, `preferred`
    /// (gettext's `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`, as `"key".current` reads
    /// them): Foundation on Linux does not derive its current locale from them. Any other
    /// locale means its own language, script and region (`de_DE` → `de-DE`); a locale that
    /// names no language asks for none, so `Base` and the development language answer.
    static func tags(for locale: Locale, preferred: [String]) -> [String] {
        if locale == Locale.current || locale == Locale.autoupdatingCurrent {
            return preferred
        }
        let identifier = locale.identifier
        if let known = known.withLock({ $0[identifier] }) { return known }
        let tags = tag(for: locale).map { [$0] } ?? []
        known.withLock { known in
            if known.count >= capacity { known.removeAll() }
            known[identifier] = tags
        }
        return tags
    }

    /// Tags already worked out, by locale identifier: parsing one costs more than the
    /// lookup it is for. Bounded: past `capacity` identifiers it starts over.
    private static let known = ForkSafeMutex<[String: [String]]>([:])
    static let capacity = 256

    /// The BCP 47 tag of `locale`'s language, without its keywords (`@calendar=…`).
    static func tag(for locale: Locale) -> String? {
        let identifier = String(locale.identifier.prefix { $0 != "@" })
        if let tag = try? LanguageTag(identifier) { return tag.identifier }
        return locale.language.languageCode.flatMap { try? LanguageTag($0.identifier).identifier }
    }
}
