/// What a ``LintFinding`` is about: each rule has an id (`empty-value`), a default severity
/// and a one-line description, and `l10nctl lint --severity RULE=error|warning|note|off` (or `.l10nd-lint`) changes
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
    /// A `.strings` file of 0 bytes: Foundation reads it as an empty table, but it is most
    /// often a save that truncated the file or a tool that failed while writing it.
    case emptyFile = "empty-file"
    /// A `.strings` entry whose value is an array, a dictionary or data (`"k" = ("a");`):
    /// Foundation reads the file, but the value is no string, so the key is not served.
    case nonStringValue = "non-string-value"
    /// A file of an `.lproj` folder that a sibling folder of the same language outranks
    /// (`en_GB.lproj` beside `en-GB.lproj`): the other folder's table is served whole and
    /// this file is never read.
    case shadowedFolder = "shadowed-folder"
    /// An entry under a resource directory skipped for its name alone (``SkippedName``): an
    /// `.lproj` folder named for no language l10nd serves (`de_DE-typo.lproj`), or a folder
    /// or table whose name is not UTF-8. None of its files is ever served.
    case skippedName = "skipped-name"
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
    /// A String Catalog localization marked `new` or `stale` (served as it is; `needs_review`
    /// is ``outdatedTranslation``).
    case reviewState = "review-state"
    /// Placeholders that differ from the development language's (type, count, position).
    case placeholderMismatch = "placeholder-mismatch"
    /// A conversion whose width or precision is over 4,095 (`%5000d`), which formatting
    /// refuses: the string is served, but never filled with its arguments.
    case formatWidth = "format-width"
    /// A lone `%` in a translation of a format string (a broken `%%`): `%d% erledigt` for
    /// `%d%% done`.
    case percentSign = "percent-sign"
    /// A translation identical to the development language's text, where other languages
    /// translate it: copied, not translated (a term most languages keep is left alone).
    case unchangedFromSource = "unchanged-from-source"
    /// A translation made for an older source text: a String Catalog localization marked
    /// `needs_review` (as Xcode marks them when the source changes), or one whose source
    /// changed since an export (`--since-export`) while it did not.
    case outdatedTranslation = "outdated-translation"
    /// Leading or trailing spaces, tabs or line breaks that differ from the development
    /// language's.
    case edgeWhitespace = "edge-whitespace"
    /// A different number of line breaks than the development language's text.
    case newlineCount = "newline-count"
    /// Two spaces in a row where the development language's text has none.
    case doubleSpace = "double-space"
    /// URLs that differ from the development language's (one changed, added or dropped).
    case urlMismatch = "url-mismatch"
    /// HTML tags that differ from the development language's (`<b>` dropped, `</a>` lost).
    case htmlTagMismatch = "html-tag-mismatch"
    /// An integer conversion with another length than the development language's (`%d` for
    /// `%ld`): the argument is read at the wrong size.
    case lengthModifier = "length-modifier"

    /// How bad a finding of this rule is unless configured otherwise.
    public var defaultSeverity: LintFinding.Severity {
        switch self {
        case .file, .badEntry, .placeholderMismatch, .percentSign, .skippedName: .error
        case .unchangedFromSource: .note
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
        case .emptyFile:
            "a .strings file is empty (0 bytes) or holds only whitespace, a byte order mark or comments: no keys, "
                + "often a truncated save"
        case .nonStringValue: "a .strings value is an array, a dictionary or data, not a string; the key is not served"
        case .shadowedFolder:
            "an .lproj folder of the same language as a sibling that is served in its place (en_GB.lproj beside en-GB.lproj)"
        case .skippedName:
            "an .lproj folder named for no language l10nd serves, or an entry whose name is not UTF-8: none of its "
                + "files is served"
        case .untranslated: "a key the development language has is not translated"
        case .emptyValue: "a translation is empty where the development language's value is not"
        case .obsoleteKey: "a translation has a key the development language no longer has"
        case .pluralForms: "a plural variable lacks a form for one of its language's CLDR categories"
        case .reviewState: "a String Catalog localization is marked new or stale"
        case .placeholderMismatch: "placeholders differ from the development language's (type, count or position)"
        case .formatWidth: "a conversion's width or precision is over 4095, which formatting refuses"
        case .percentSign:
            "a translation of a format has a lone '%' (a broken '%%'), which printf reads as a conversion"
        case .unchangedFromSource: "a translation is the development language's text unchanged"
        case .outdatedTranslation: "a translation was made for an older source text"
        case .edgeWhitespace: "leading or trailing whitespace differs from the development language's"
        case .newlineCount: "the number of line breaks differs from the development language's"
        case .doubleSpace: "a translation has two spaces in a row where the development language's text has none"
        case .urlMismatch: "URLs differ from the development language's"
        case .htmlTagMismatch: "HTML tags differ from the development language's"
        case .lengthModifier: "an integer conversion's length differs from the development language's (%d for %ld)"
        }
    }

    /// What to do about a finding, for SARIF's `help.text` (code-scanning UIs show it).
    public var help: String {
        switch self {
        case .file, .badEntry, .ignoredRest:
            "Fix the file so that it parses: until then, the entries it loses are served in the fallback language."
        case .incompleteEntry:
            "Give the plural variable an 'other' form; the entry is served with a stand-in until then."
        case .duplicateKey: "Keep one of the entries: only the last one is served."
        case .emptyFile:
            "Restore the file (a save or a tool cleared it), or delete it if the table is not wanted: it serves no key."
        case .nonStringValue:
            "Write the value as a string: an array, dictionary or data value is left out, and the key is served in the fallback language."
        case .shadowedFolder:
            "Keep one folder per language (en-GB.lproj or en_GB.lproj, not both): the other's tables are not served."
        case .skippedName:
            "Rename the folder to its language's tag (de.lproj, pt-BR.lproj, zh-Hans.lproj), or the entry to a UTF-8 "
                + "name: until then none of its files is served."
        case .untranslated, .emptyValue: "Translate the key; until then the development language's text is served."
        case .obsoleteKey: "Remove the entry, or add the key back to the development language's file."
        case .pluralForms: "Give the variable exactly the forms the language's CLDR plural rules use."
        case .reviewState: "Review the translation and mark it translated (in Xcode, or by importing it as final)."
        case .placeholderMismatch, .lengthModifier:
            "Use the development language's placeholders: the same arguments, of the same type and size, in any order through positions (%1$@)."
        case .formatWidth: "Use a width and precision of at most 4095, written in the format (not '*')."
        case .percentSign: "Write '%%' for a percent sign in a format string."
        case .unchangedFromSource:
            "Translate the text, or leave it if the language really writes it so (a name, a term): turn the rule to 'note' or 'off' in .l10nd-lint if that is the rule in this project."
        case .outdatedTranslation: "Translate the source's new text again, then mark the translation translated."
        case .edgeWhitespace, .newlineCount, .doubleSpace:
            "Write the whitespace as the development language does: the app lays the text out around it."
        case .urlMismatch: "Keep the development language's URLs unless the page exists in this language."
        case .htmlTagMismatch: "Keep the development language's tags, opened and closed as there."
        }
    }

    /// Where the rule is documented.
    public var helpURI: String { "https://github.com/l10nd/l10nd/blob/main/docs/TRANSLATORS.md#lint" }

    /// Rules sort in declaration order.
    public static func < (lhs: LintRule, rhs: LintRule) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
