/// How final a translation is, in the words every format has for it: a String Catalog's
/// `state`, XLIFF 1.2's `state` (and `approved`), gettext's `#, fuzzy`.
///
/// | here | String Catalog | XLIFF `state` | `.po` |
/// | --- | --- | --- | --- |
/// | `translated` | `translated` (`stale` is exported as it) | none, `translated`, `final`, `signed-off` | no flag |
/// | `needsReview` | `needs_review` | `needs-review-translation` (`-adaptation`, `-l10n`) | `#, fuzzy` |
/// | `new` | `new` | `new`, `needs-translation` (`-adaptation`, `-l10n`) | `#, fuzzy` |
public enum TranslationState: String, Sendable, Hashable {
    /// Not yet translated, though it may have a value (Xcode's pre-filled source text).
    case new
    /// Translated, to be checked again (gettext's fuzzy).
    case needsReview = "needs_review"
    /// A final translation.
    case translated

    /// The state an XLIFF 1.2 `state` attribute means; an unknown one (`x-…`) is translated.
    public init(xliff state: String) {
        switch state {
        case "new", "needs-translation", "needs-adaptation", "needs-l10n": self = .new
        case "needs-review-translation", "needs-review-adaptation", "needs-review-l10n": self = .needsReview
        default: self = .translated
        }
    }

    /// The state a String Catalog `stringUnit`'s `state` means; `nil` for one without a state.
    public init?(catalog state: String?) {
        switch state {
        case "new": self = .new
        case "needs_review": self = .needsReview
        case nil: return nil
        default: self = .translated
        }
    }

    /// The XLIFF `state` export writes: none for a translated unit (`approved="yes"` says it).
    var xliffState: String? {
        switch self {
        case .new: "new"
        case .needsReview: "needs-review-translation"
        case .translated: nil
        }
    }
}
