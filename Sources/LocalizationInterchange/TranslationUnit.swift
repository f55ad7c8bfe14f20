public import LocalizationCore

/// One string a translator translates, as XLIFF and gettext carry it, with the place in
/// the resource files its translation is written to.
public struct TranslationUnit: Sendable, Hashable {
    /// The unit's id, as Xcode spells it: the key of a `.strings` entry;
    /// `/KEY:dict/VARIABLE:dict/CATEGORY:dict/:string` for a `.stringsdict` form and
    /// `/KEY:dict/NSStringLocalizedFormatKey:dict/:string` for its format; `KEY` or
    /// `KEY|==|plural.CATEGORY` in a String Catalog.
    public var id: String
    /// The development language's text.
    public var source: String
    /// The translation, `nil` when there is none.
    public var target: String?
    /// The developer's comment.
    public var note: String?
    /// For a plural form: the id its forms share (a `.po` plural message).
    public var pluralGroup: String?
    /// For a plural form: its category.
    public var category: PluralCategory?
    /// For a plural form: the development language's singular (its `one` form, else its
    /// `other`), gettext's `msgid` for the group — which a language without `one`
    /// (Japanese, Chinese, Korean) has no form of its own for.
    public var sourceSingular: String? = nil
    /// Where the translation is written (its value is the current target, or empty).
    public var address: ResourceEdit
    /// A String Catalog unit's review state; `nil` where the file has none (`.strings`,
    /// `.stringsdict`: a value there is final).
    public var state: TranslationState? = nil

    /// The edit that sets this catalog unit's review state; `nil` for other files.
    public func edit(state: TranslationState) -> ResourceEdit? {
        switch address {
        case .catalogValue(let key, let language, _):
            .catalogState(key: key, language: language, category: nil, state: state.rawValue)
        case .catalogPluralForm(let key, let language, let category, _):
            .catalogState(key: key, language: language, category: category, state: state.rawValue)
        default: nil
        }
    }

    /// The edit that writes `value` at this unit's place.
    public func edit(_ value: String) -> ResourceEdit {
        switch address {
        case .strings(let key, _): .strings(key: key, value: value)
        case .stringsDictFormat(let key, _): .stringsDictFormat(key: key, value: value)
        case .stringsDictForm(let key, let variable, let category, _):
            .stringsDictForm(key: key, variable: variable, category: category, value: value)
        case .catalogValue(let key, let language, _): .catalogValue(key: key, language: language, value: value)
        case .catalogPluralForm(let key, let language, let category, _):
            .catalogPluralForm(key: key, language: language, category: category, value: value)
        case .catalogState: address
        }
    }
}

/// One development-language file and its translation, as one XLIFF `<file>`.
public struct TranslationFile: Sendable, Hashable {
    /// The development language's file, relative to its resource directory (XLIFF's
    /// `original`, the first part of a `.po` `msgctxt`).
    public var original: String
    /// The file translations are written to.
    public var targetPath: String
    /// Its format.
    public var kind: ResourceFile.Kind
    /// Its units, in the development file's order.
    public var units: [TranslationUnit]
}
