import LocalizationCore

/// A value paired with the language it is wanted in: what `"多言語化".ja` returns.
///
/// `identifier` is the tag as given; `identifiers` holds a whole preference list when the
/// value came from ``LanguageProtocol/languages(_:)`` or ``LanguageProtocol/current``.
public final class Language<Base> {
    /// The value to localize.
    public let base: Base
    /// The requested language tag, as given (the first of ``identifiers``, or empty).
    public let identifier: String
    /// The requested tags, most preferred first.
    public let identifiers: [String]

    /// Pairs `base` with one language tag.
    public convenience init(_ base: Base, identifier: String) {
        self.init(base, identifiers: [identifier])
    }

    /// Pairs `base` with a preference list of tags.
    public init(_ base: Base, identifiers: [String]) {
        self.base = base
        self.identifiers = identifiers
        self.identifier = identifiers.first ?? ""
    }
}

extension Language: Sendable where Base: Sendable {}

extension Language where Base == String {
    /// The string looked up in the `Localizable` table for this language, falling back
    /// along the chain; the string itself when no language has it.
    public var localized: String { localized(table: nil) }

    /// The string looked up in `table` (`nil` means `Localizable`).
    public func localized(table: String?) -> String {
        Localizer.shared.lookup(base, languages: identifiers, table: table).value
    }
}
