import LocalizationCore

/// What a unit's translation was when it was exported, as a short hash export writes beside
/// it (XLIFF `<context context-type="x-l10nd-base">`, `.po` `#. l10nd-base:`): an import
/// whose translation would replace a value changed in the files since is a conflict.
///
/// FNV-1a (64 bits) over the translations of the unit (or of a `.po` plural message's
/// forms), each with a marker for "none": it tells values apart, it is no secret.
public enum TranslationBase {
    /// The marker export writes before the hash in a `.po` extracted comment.
    static let poPrefix = "l10nd-base: "
    /// The XLIFF `context-type` of the hash.
    static let contextType = "x-l10nd-base"

    /// The hash of `targets` (`nil`: no translation).
    public static func hash(_ targets: [String?]) -> String { StableHash.hex(targets) }

    /// What export writes: the language the hash is of, then the hash (`de 1a2b…`). A tool
    /// that copies comments from another file (`msgmerge` with another language's export as
    /// its template) carries that language's, which import must not take for this one's.
    static func written(_ targets: [String?], language: LanguageTag) -> String {
        "\(language.identifier) \(hash(targets))"
    }

    /// The language and hash of a written base; the language is `nil` for one written before
    /// export named it (the hash alone), which import takes as the file's own language's.
    static func parse(_ written: String) -> (language: String?, hash: String) {
        let parts = written.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return (nil, written) }
        return (String(parts[0]), String(parts[1]))
    }
}
