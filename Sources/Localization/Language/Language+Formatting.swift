extension Language where Base == String {
    /// The string for `count`: a plural entry's form for that number in this language
    /// (CLDR's rules; Apple's `zero` form for 0 when the entry has one), formatted with
    /// `count` as its argument.
    ///
    /// ```swift
    /// "%d files".ru.localized(count: 21)   // "21 файл"
    /// ```
    public func localized(count: Int, table: String? = nil) -> String {
        Localizer.shared.localized(base, languages: identifiers, table: table, count: count, arguments: [count])
    }

    /// The string for a fractional `count` (`1.5` is `other` in English, `one` in French),
    /// formatted with `count` as its argument. A string that takes an integer (`%ld files`)
    /// takes the count's integral part, and its form is chosen by it: "1 file" for `1.5`,
    /// as gettext does.
    ///
    /// ```swift
    /// "%.1f hours".en.localized(count: 1.5)   // "1.5 hours"
    /// "%d files".en.localized(count: 1.5)     // "1 file"
    /// ```
    public func localized(count: Double, table: String? = nil) -> String {
        Localizer.shared.localized(base, languages: identifiers, table: table, count: count)
    }

    /// The string with its forms chosen by `count` and formatted with `arguments` (with
    /// `count` alone when `arguments` is empty).
    public func localized(count: Int, _ arguments: any CVarArg..., table: String? = nil) -> String {
        Localizer.shared.localized(base, languages: identifiers, table: table, count: count, arguments: arguments)
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
        Localizer.shared.localized(base, languages: identifiers, table: table, arguments: arguments)
    }
}
