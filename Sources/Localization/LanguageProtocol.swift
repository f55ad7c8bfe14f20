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
    public func language(_ tag: String) -> Language<Self> { Language(self, identifier: tag) }

    /// This value in the first of `tags` that has it, in order (`["pt-BR", "pt", "en"]`).
    public func languages(_ tags: [String]) -> Language<Self> { Language(self, identifiers: tags) }

    /// This value in the user's languages, from `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and
    /// `LANG` as gettext reads them.
    public var current: Language<Self> { Language(self, identifiers: Localizer.shared.environmentLanguages) }

    /// `Base`: the development text of an Xcode project.
    public var base: Language<Self> { language("Base") }
    /// Arabic.
    public var ar: Language<Self> { language("ar") }
    /// Danish.
    public var da: Language<Self> { language("da") }
    /// German.
    public var de: Language<Self> { language("de") }
    /// English.
    public var en: Language<Self> { language("en") }
    /// Spanish.
    public var es: Language<Self> { language("es") }
    /// Finnish.
    public var fi: Language<Self> { language("fi") }
    /// French.
    public var fr: Language<Self> { language("fr") }
    /// Hebrew.
    public var he: Language<Self> { language("he") }
    /// Hindi.
    public var hi: Language<Self> { language("hi") }
    /// Indonesian.
    public var id: Language<Self> { language("id") }
    /// Italian.
    public var it: Language<Self> { language("it") }
    /// Japanese.
    public var ja: Language<Self> { language("ja") }
    /// Korean.
    public var ko: Language<Self> { language("ko") }
    /// Dutch.
    public var nl: Language<Self> { language("nl") }
    /// Norwegian Bokmål.
    public var nb: Language<Self> { language("nb") }
    /// Polish.
    public var pl: Language<Self> { language("pl") }
    /// Portuguese.
    public var pt: Language<Self> { language("pt") }
    /// Russian.
    public var ru: Language<Self> { language("ru") }
    /// Swedish.
    public var sv: Language<Self> { language("sv") }
    /// Thai.
    public var th: Language<Self> { language("th") }
    /// Turkish.
    public var tr: Language<Self> { language("tr") }
    /// Ukrainian.
    public var uk: Language<Self> { language("uk") }
    /// Vietnamese.
    public var vi: Language<Self> { language("vi") }
    /// Chinese (falls back Simplified: `zh` → `zh-Hans`).
    public var zh: Language<Self> { language("zh") }
    /// Simplified Chinese.
    public var zhHans: Language<Self> { language("zh-Hans") }
    /// Traditional Chinese.
    public var zhHant: Language<Self> { language("zh-Hant") }
}

extension String: LanguageProtocol {}
