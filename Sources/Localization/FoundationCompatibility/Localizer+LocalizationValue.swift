#if !canImport(Darwin)
    public import Foundation
    import LocalizationCore

    /// `String(localized:)` against any localizer: the initializers ask the localizer of their
    /// bundle (``BundleLocalizers``); a program or a test with a localizer of its own asks it.
    extension Localizer {
        /// `value` looked up by its key in `table` (`nil` means `Localizable`) for the languages
        /// `locale` names, its plural forms selected by, and its conversions filled with, the
        /// interpolated values.
        ///
        /// `Locale.current` stands for the user's languages (`LANGUAGE`, `LC_ALL`,
        /// `LC_MESSAGES`, `LANG`); any other locale for its own language.
        ///
        /// ```swift
        /// localizer.localized("\(3) items", locale: Locale(identifier: "de"))   // "3 Elemente"
        /// ```
        public func localized(_ value: String.LocalizationValue, table: String? = nil, locale: Locale = .current)
            -> String
        {
            localized(value, key: value.key, languages: languages(for: locale), table: table, locale: locale)
        }

        /// The string for `key` in `table` for the languages `locale` names, formatted with
        /// `defaultValue`'s interpolated values; `defaultValue` itself when no language has `key`.
        public func localized(
            _ key: String, defaultValue: String.LocalizationValue, table: String? = nil, locale: Locale = .current
        ) -> String {
            localized(defaultValue, key: key, languages: languages(for: locale), table: table, locale: locale)
        }

        /// The languages a lookup asks for `locale` (``LocaleLanguages``).
        func languages(for locale: Locale) -> [String] {
            LocaleLanguages.tags(for: locale, preferred: environmentLanguages)
        }

        /// `key` looked up for `languages`, formatted with `value`'s arguments; when no language
        /// has `key` and it is not `value`'s own key, `value` is the string.
        ///
        /// A value without arguments is returned as found, never run through a format (a `%`
        /// in it is text), as Foundation does.
        func localized(
            _ value: String.LocalizationValue, key: String, languages: [String], table: String?, locale: Locale
        ) -> String {
            let defaultFormat = key == value.key ? nil : value.key
            guard !value.arguments.isEmpty else {
                // `.localized`'s path, whose thread cache makes a cached-mode read lock-free.
                if defaultFormat == nil {
                    let list = languages.count == 1 ? LanguageList.one(languages[0]) : .many(languages)
                    return self.value(key, languages: list, table: table)
                }
                let result = lookup(key, languages: languages, table: table)
                return result.found ? result.value : defaultFormat ?? result.value
            }
            return localized(
                key, languages: languages, table: table, arguments: value.formatArguments(locale: locale),
                defaultFormat: defaultFormat)
        }

        /// Whether this localizer asks a daemon that serves the files under `path`: one of the
        /// daemon's roots (its `status` reply) is `path` or holds it. One round trip.
        func daemonServes(_ path: String) -> Bool {
            guard let daemon, daemon.client.isConnected,
                case .fields(let fields)? = try? daemon.client.send(.status),
                case .array(let roots)? = fields["roots"]
            else { return false }
            let realRoots = roots.compactMap(\.stringValue).map {
                URL(fileURLWithPath: $0).resolvingSymlinksInPath().path
            }
            return ResourceScanner.isInside(path, realRoots: realRoots)
        }
    }
#endif
