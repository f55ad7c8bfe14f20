/// A value paired with the language it is wanted in: what `"多言語化".ja` returns.
///
/// `identifier` is the tag as given; `identifiers` holds a whole preference list when the
/// value came from ``LanguageProtocol/languages(_:)`` or ``LanguageProtocol/current``.
///
/// A final class, as the seed project's API declares it.
public final class Language<Base> {
    /// The value to localize.
    public let base: Base
    @usableFromInline let list: LanguageList

    /// Pairs `base` with one language tag.
    @inlinable
    public convenience init(_ base: Base, identifier: String) {
        self.init(base, list: .one(identifier))
    }

    @usableFromInline
    init(_ base: Base, list: LanguageList) {
        self.base = base
        self.list = list
    }

    /// Pairs `base` with a preference list of tags.
    public convenience init(_ base: Base, identifiers: [String]) {
        self.init(base, list: identifiers.count == 1 ? .one(identifiers[0]) : .many(identifiers))
    }

    /// The requested language tag, as given (the first of ``identifiers``, or empty).
    public var identifier: String {
        switch list {
        case .one(let tag): tag
        case .many(let tags): tags.first ?? ""
        }
    }

    /// The requested tags, most preferred first.
    public var identifiers: [String] { list.tags }
}

extension Language: Sendable where Base: Sendable {}

extension Language where Base == String {
    /// The string looked up in the `Localizable` table for this language, falling back
    /// along the chain; the string itself when no language has it.
    ///
    /// Inlinable so that, in the caller, the short-lived `Language` object of
    /// `"key".ja.localized` can live on the stack instead of the heap.
    @inlinable
    public var localized: String { localized(table: nil) }

    /// The string looked up in `table` (`nil` means `Localizable`).
    @inlinable
    public func localized(table: String?) -> String {
        Localizer.shared.value(base, languages: list, table: table)
    }
}
