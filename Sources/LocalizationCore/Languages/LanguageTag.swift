/// A language tag, normalised to BCP 47 (`ja-JP`, `zh-Hant-TW`), or `Base`.
///
/// Accepts the spellings found on a Linux host and in `.lproj` names: `ja`, `ja_JP`,
/// `ja-jp`, `ja_JP.UTF-8`, `sr_RS@latin`, `zh_Hant_TW`, `pt-BR`, the legacy lproj names
/// (`English`, `Japanese`…) and `Base`. Anything else is rejected with a
/// ``LanguageTagError``: a tag is never used as a path, so `../x` cannot reach the file
/// system through it.
///
/// ```swift
/// let tag = try LanguageTag("zh_Hant_TW")
/// tag.identifier   // "zh-Hant-TW"
/// ```
public struct LanguageTag: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The primary language subtag, lowercase (`ja`), or `Base`.
    public let language: String
    /// The script subtag, title case (`Hant`), if any.
    public let script: String?
    /// The region subtag, uppercase (`TW`) or three digits (`419`), if any.
    public let region: String?
    /// Variant subtags, lowercase, in order.
    public let variants: [String]

    /// The longest input accepted; real tags are far shorter.
    public static let maximumLength = 64

    /// The `Base` pseudo-language of Xcode projects.
    public static let base = LanguageTag(language: "Base", script: nil, region: nil, variants: [])

    /// Legacy `.lproj` names that predate ISO codes, as CoreFoundation still accepts them:
    /// its seven common names, and the other languages of its name table
    /// (`__CFBundleLanguageNamesArray` in CFBundle_Locale.c) whose code is unambiguous
    /// (`Chinese`, which names both scripts there, is left out).
    static let legacyNames: [String: String] = [
        "english": "en", "japanese": "ja", "french": "fr", "german": "de",
        "spanish": "es", "italian": "it", "dutch": "nl",
        "swedish": "sv", "danish": "da", "portuguese": "pt", "norwegian": "nb", "finnish": "fi",
        "greek": "el", "icelandic": "is", "turkish": "tr", "croatian": "hr", "korean": "ko",
        "polish": "pl", "hungarian": "hu", "russian": "ru", "czech": "cs", "slovak": "sk",
        "romanian": "ro", "ukrainian": "uk", "catalan": "ca", "hebrew": "he", "arabic": "ar",
        "thai": "th", "vietnamese": "vi", "indonesian": "id",
    ]

    /// gettext's locale modifiers that name a script (`sr_RS@latin`).
    static let scriptModifiers: [String: String] = [
        "latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva", "arabic": "Arab",
    ]

    /// Creates a tag from its parts, already normalised.
    public init(language: String, script: String? = nil, region: String? = nil, variants: [String] = []) {
        self.language = language
        self.script = script
        self.region = region
        self.variants = variants
    }

    /// Parses and normalises `text`.
    ///
    /// - Throws: ``LanguageTagError`` for anything that is not a language tag.
    public init(_ text: String) throws(LanguageTagError) {
        guard !text.isEmpty else { throw LanguageTagError(input: text, reason: "it is empty") }
        guard text.utf8.count <= Self.maximumLength else {
            throw LanguageTagError(input: text, reason: "it is longer than \(Self.maximumLength) characters")
        }
        if text.lowercased() == "base" {
            self = .base
            return
        }
        if let legacy = Self.legacyNames[text.lowercased()] {
            self.init(language: legacy)
            return
        }
        var body = Substring(text)
        var modifierScript: String?
        // gettext: language[_territory][.codeset][@modifier]
        if let at = body.firstIndex(of: "@") {
            let modifier = body[body.index(after: at)...].lowercased()
            modifierScript = Self.scriptModifiers[modifier]
            body = body[..<at]
        }
        if let dot = body.firstIndex(of: ".") {
            body = body[..<dot]
        }
        let subtags = body.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let first = subtags.first, Self.isLanguage(first) else {
            throw LanguageTagError(input: text, reason: "it does not start with a 2–3 letter language code")
        }
        var script: String?
        var region: String?
        var variants: [String] = []
        for (position, subtag) in subtags.dropFirst().enumerated() {
            // An extension or private use (`-u-co-trad`, `-x-twain`: a one-character subtag and
            // all after it) does not choose a localization: Apple's matching (ICU's) drops it,
            // and so does this. A requested tag only: a folder so named names no language
            // (``ResourceFile/language(ofDirectory:)``).
            if subtag.count == 1 {
                let rest = subtags.dropFirst(position + 2)
                guard !rest.isEmpty,
                    rest.allSatisfy({
                        (1...8).contains($0.count) && $0.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit }
                    })
                else {
                    throw LanguageTagError(
                        input: text, reason: "'\(subtag)' starts an extension with nothing valid after it")
                }
                break
            }
            // An extended language (`zh-cmn-Hans-CN`): the primary language stands for it.
            if position == 0, subtag.count == 3, subtag.allSatisfy(\.isASCIILetter) { continue }
            if script == nil, region == nil, variants.isEmpty, subtag.count == 4, subtag.allSatisfy(\.isASCIILetter) {
                script = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            } else if region == nil, variants.isEmpty, Self.isRegion(subtag) {
                region = subtag.uppercased()
            } else if Self.isVariant(subtag) {
                variants.append(subtag.lowercased())
            } else {
                throw LanguageTagError(input: text, reason: "'\(subtag)' is not a script, region or variant subtag")
            }
        }
        self.init(language: first.lowercased(), script: script ?? modifierScript, region: region, variants: variants)
    }

    /// The BCP 47 form: `zh-Hant-TW`, or `Base`.
    public var identifier: String {
        // A bare language (`ja`) is its own identifier: no array, no join, on every lookup.
        if script == nil, region == nil, variants.isEmpty { return language }
        var parts = [language]
        if let script { parts.append(script) }
        if let region { parts.append(region) }
        parts.append(contentsOf: variants)
        return parts.joined(separator: "-")
    }

    /// Whether this is the `Base` pseudo-language.
    public var isBase: Bool { language == "Base" }

    /// The identifier.
    public var description: String { identifier }

    /// Orders tags by identifier, for stable listings.
    public static func < (lhs: LanguageTag, rhs: LanguageTag) -> Bool {
        lhs.identifier < rhs.identifier
    }

    /// Whether `text` holds an extension or private-use part (a one-character subtag, as in
    /// `es-ES-u-co-trad`, `qaa-x-26`), which ``init(_:)`` drops from a requested tag.
    public static func hasExtension(_ text: some StringProtocol) -> Bool {
        let subtags = String(text).split(whereSeparator: { (character: Character) in
            character == "-" || character == "_"
        })
        return subtags.dropFirst().contains { $0.count == 1 }
    }

    static func isLanguage(_ subtag: Substring) -> Bool {
        (2...3).contains(subtag.count) && subtag.allSatisfy(\.isASCIILetter)
    }

    static func isRegion(_ subtag: Substring) -> Bool {
        (subtag.count == 2 && subtag.allSatisfy(\.isASCIILetter))
            || (subtag.count == 3 && subtag.allSatisfy(\.isASCIIDigit))
    }

    static func isVariant(_ subtag: Substring) -> Bool {
        let alphanumeric = subtag.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit }
        return alphanumeric
            && ((5...8).contains(subtag.count) || (subtag.count == 4 && subtag.first!.isASCIIDigit))
    }
}

extension Character {
    var isASCIILetter: Bool { isASCII && isLetter }
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension LanguageTag {
    /// The languages `text` names: one tag (`de-DE`), or an `Accept-Language` list
    /// (`de-DE,de;q=0.9,en;q=0.8`) read by ``AcceptLanguage/preferences(_:)``. Wherever one
    /// language is accepted, a list is too.
    ///
    /// - Throws: ``LanguageTagError`` for a tag that is not one, or a list with no usable
    ///   language and no `*` (so a header never falls back to the development language in
    ///   silence; `*` asks for exactly that fallback).
    public static func preferences(_ text: String) throws(LanguageTagError) -> [LanguageTag] {
        guard AcceptLanguage.isList(text) else { return [try LanguageTag(text)] }
        let tags = AcceptLanguage.preferences(text)
        guard !tags.isEmpty || AcceptLanguage.acceptsAnyLanguage(text) else {
            throw LanguageTagError(input: text, reason: "the Accept-Language list names no usable language")
        }
        return tags
    }

    /// ``preferences(_:)`` of every string of `texts`, in order, leaving out those that name
    /// no language.
    public static func preferences(_ texts: [String]) -> [LanguageTag] {
        texts.flatMap { (try? preferences($0)) ?? [] }
    }
}
