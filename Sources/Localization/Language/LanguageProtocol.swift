/// A type whose values can be localized per call: `"多言語化".en.localized`.
///
/// Any type can opt in with an empty conformance; it then gets a property per common
/// language and ``language(_:)`` for any tag. What `localized` means is defined per base
/// type on ``Language`` (for `String`: a table lookup).
///
/// ```swift
/// import Localization
///
/// Localizer.shared.useResources(at: ["Examples/Resources"])
/// print("多言語化".en.localized)   // Multilingualization
/// print("多言語化".ja.localized)   // 多言語化
/// ```
public protocol LanguageProtocol {}

extension LanguageProtocol {
    /// This value in the language `tag` names (`"pt-BR"`, `"zh_Hant_TW"`, `"ja_JP.UTF-8"`).
    ///
    /// A string that is not a language tag gives a ``Language`` whose lookups fall back to
    /// `Base` and the development language, never a crash.
    @inlinable
    public func language(_ tag: String) -> Language<Self> { Language(self, identifier: tag) }

    /// This value in the first of `tags` that has it, in order (`["pt-BR", "pt", "en"]`).
    public func languages(_ tags: [String]) -> Language<Self> { Language(self, identifiers: tags) }

    /// This value in the user's languages, from `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and
    /// `LANG` as gettext reads them.
    public var current: Language<Self> { Language(self, identifiers: Localizer.shared.environmentLanguages) }

    /// `Base`: the development text of an Xcode project.
    @inlinable
    public var base: Language<Self> { language("Base") }
    /// Arabic.
    @inlinable
    public var ar: Language<Self> { language("ar") }
    /// Danish.
    @inlinable
    public var da: Language<Self> { language("da") }
    /// German.
    @inlinable
    public var de: Language<Self> { language("de") }
    /// English.
    @inlinable
    public var en: Language<Self> { language("en") }
    /// Spanish.
    @inlinable
    public var es: Language<Self> { language("es") }
    /// Finnish.
    @inlinable
    public var fi: Language<Self> { language("fi") }
    /// French.
    @inlinable
    public var fr: Language<Self> { language("fr") }
    /// Hebrew.
    @inlinable
    public var he: Language<Self> { language("he") }
    /// Hindi.
    @inlinable
    public var hi: Language<Self> { language("hi") }
    /// Indonesian.
    @inlinable
    public var id: Language<Self> { language("id") }
    /// Italian.
    @inlinable
    public var it: Language<Self> { language("it") }
    /// Japanese.
    @inlinable
    public var ja: Language<Self> { language("ja") }
    /// Korean.
    @inlinable
    public var ko: Language<Self> { language("ko") }
    /// Dutch.
    @inlinable
    public var nl: Language<Self> { language("nl") }
    /// Norwegian Bokmål.
    @inlinable
    public var nb: Language<Self> { language("nb") }
    /// Polish.
    @inlinable
    public var pl: Language<Self> { language("pl") }
    /// Portuguese.
    @inlinable
    public var pt: Language<Self> { language("pt") }
    /// Russian.
    @inlinable
    public var ru: Language<Self> { language("ru") }
    /// Swedish.
    @inlinable
    public var sv: Language<Self> { language("sv") }
    /// Thai.
    @inlinable
    public var th: Language<Self> { language("th") }
    /// Turkish.
    @inlinable
    public var tr: Language<Self> { language("tr") }
    /// Ukrainian.
    @inlinable
    public var uk: Language<Self> { language("uk") }
    /// Vietnamese.
    @inlinable
    public var vi: Language<Self> { language("vi") }
    /// Chinese (falls back Simplified: `zh` → `zh-Hans`).
    @inlinable
    public var zh: Language<Self> { language("zh") }
    /// Simplified Chinese.
    @inlinable
    public var zhHans: Language<Self> { language("zh-Hans") }
    /// Traditional Chinese.
    @inlinable
    public var zhHant: Language<Self> { language("zh-Hant") }
}

extension String: LanguageProtocol {}
