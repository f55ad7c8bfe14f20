/// Whether a text is a printf format and whether a translation's conversions agree with its
/// source's, as lint reads them (`placeholder-mismatch`, `percent-sign`, `length-modifier`):
/// what gettext's `msgfmt --check` checks of a message flagged `c-format` or `objc-format`.
public enum PrintfAgreement {
    /// Whether `text` has a printf conversion or a `%%` (prose percents, `50 % done`, aside).
    public static func isFormat(_ text: String) -> Bool {
        ResourceLinter.percentSigns(text, styles: .printf).isFormat
    }

    /// Whether `text` has a `%@` conversion (an object: gettext's `objc-format`).
    public static func hasObjectConversion(_ text: String) -> Bool {
        FormatSpecifier.parse(PlaceholderStyles.removingProsePercents(text)).contains { $0.kind == .object }
    }

    /// Why `translation`'s conversions do not take `original`'s arguments (kind, count,
    /// size) or it has a lone `%`, or `nil` when they agree. A plural form (`isForm`) may
    /// leave an argument out, as Apple and gettext allow.
    public static func problem(_ original: String, _ translation: String, isForm: Bool = false) -> String? {
        let printf = PlaceholderStyles.printf
        let mismatch = isForm ? printf.formMismatch([original], translation) : printf.mismatch(original, translation)
        return mismatch ?? ResourceLinter.percentProblem(original, translation, styles: printf)
            ?? TranslationTextChecks.lengthModifier(original, translation)
    }
}
