/// The user's preferred languages, read from the environment the way gettext reads it.
///
/// The locale comes from the first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG`. When that
/// locale is `C` or `POSIX`, gettext ignores `LANGUAGE`, and so does this: the result is
/// empty and lookups fall to `Base` and the development language. Otherwise `LANGUAGE`
/// (a colon-separated list such as `sv:de`) comes first when set, then the locale.
/// Entries that are not language tags are skipped.
///
/// ```swift
/// PreferredLanguages.from(environment: ["LANG": "ja_JP.UTF-8"]).map(\.identifier)  // ["ja-JP"]
/// ```
public enum PreferredLanguages {
    /// The preferred languages that `environment` names, most preferred first.
    public static func from(environment: [String: String]) -> [LanguageTag] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy
            .compactMap { environment[$0] }
            .first { !$0.isEmpty }
        if let locale, locale == "C" || locale == "POSIX" || locale.hasPrefix("C.") {
            return []
        }
        var names: [Substring] = []
        if let list = environment["LANGUAGE"], locale != nil {
            names += list.split(separator: ":")
        }
        if let locale {
            names.append(Substring(locale))
        }
        var seen = Set<LanguageTag>()
        return names.compactMap { try? LanguageTag(String($0)) }.filter { seen.insert($0).inserted }
    }
}
