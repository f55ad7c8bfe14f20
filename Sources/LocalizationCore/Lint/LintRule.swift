/// What a ``LintFinding`` is about: each rule has an id (`empty-value`), a default severity
/// and a one-line description, and `l10nctl lint --severity RULE=error|warning|off` changes
/// its severity.
public enum LintRule: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The file is missing, unreadable or not the format at all.
    case file
    /// An entry breaks the format and is left out.
    case badEntry = "bad-entry"
    /// An entry is served with a stand-in (a plural variable without `other`).
    case incompleteEntry = "incomplete-entry"
    /// The same key twice in one file; the last one wins.
    case duplicateKey = "duplicate-key"
    /// A `.strings` file whose parse ends early, as CoreFoundation's does, at a character
    /// that cannot start a key (`"a" = "b";=`) or at a `/*` comment never closed: the
    /// entries before it are served, the rest of the file is not.
    case ignoredRest = "ignored-rest"
    /// A `.strings` entry whose value is an array, a dictionary or data (`"k" = ("a");`):
    /// Foundation reads the file, but the value is no string, so the key is not served.
    case nonStringValue = "non-string-value"
    /// A file of an `.lproj` folder that a sibling folder of the same language outranks
    /// (`en_GB.lproj` beside `en-GB.lproj`): the other folder's table is served whole and
    /// this file is never read.
    case shadowedFolder = "shadowed-folder"
    /// A key the development language has and a translation lacks, its whole file included
    /// (or a String Catalog key without a localization in a language the catalog, or an
    /// `.lproj` beside it, has).
    case untranslated
    /// A translation whose value is empty where the development language's is not.
    case emptyValue = "empty-value"
    /// A key a translation has that the development language no longer has.
    case obsoleteKey = "obsolete-key"
    /// A plural variable without a form for one of its language's CLDR categories.
    case pluralForms = "plural-forms"
    /// A String Catalog localization marked `new`, `needs_review` or `stale` (served as it is).
    case reviewState = "review-state"
    /// Placeholders that differ from the development language's (type, count, position).
    case placeholderMismatch = "placeholder-mismatch"
    /// A conversion whose width or precision is over 4,095 (`%5000d`), which formatting
    /// refuses: the string is served, but never filled with its arguments.
    case formatWidth = "format-width"
    /// A lone `%` in a translation of a format string (a broken `%%`): `%d% erledigt` for
    /// `%d%% done`.
    case percentSign = "percent-sign"

    /// How bad a finding of this rule is unless configured otherwise.
    public var defaultSeverity: LintFinding.Severity {
        switch self {
        case .file, .badEntry, .placeholderMismatch, .percentSign: .error
        default: .warning
        }
    }

    /// One line on what the rule reports, for `l10nctl help lint` and SARIF's rule list.
    public var summary: String {
        switch self {
        case .file: "the file is missing, unreadable or not a .strings, .stringsdict or .xcstrings file"
        case .badEntry: "an entry breaks the format and is left out"
        case .incompleteEntry: "an entry is served with a stand-in (a plural variable without 'other')"
        case .duplicateKey: "a key appears twice in one file; the last one wins"
        case .ignoredRest:
            "a .strings file stops at a character that cannot start a key or a comment never closed; the rest is not read"
        case .nonStringValue: "a .strings value is an array, a dictionary or data, not a string; the key is not served"
        case .shadowedFolder:
            "an .lproj folder of the same language as a sibling that is served in its place (en_GB.lproj beside en-GB.lproj)"
        case .untranslated: "a key the development language has is not translated"
        case .emptyValue: "a translation is empty where the development language's value is not"
        case .obsoleteKey: "a translation has a key the development language no longer has"
        case .pluralForms: "a plural variable lacks a form for one of its language's CLDR categories"
        case .reviewState: "a String Catalog localization is marked new, needs_review or stale"
        case .placeholderMismatch: "placeholders differ from the development language's (type, count or position)"
        case .formatWidth: "a conversion's width or precision is over 4095, which formatting refuses"
        case .percentSign:
            "a translation of a format has a lone '%' (a broken '%%'), which printf reads as a conversion"
        }
    }

    /// Rules sort in declaration order.
    public static func < (lhs: LintRule, rhs: LintRule) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
