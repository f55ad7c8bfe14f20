/// The contents of a String Catalog (`.xcstrings`), split into one table per language.
///
/// A catalog holds every language of one table in a single file; l10nd serves it like a
/// set of `.lproj` tables of the same name, so the reader hands it back already split.
public struct StringCatalog: Sendable, Hashable {
    /// The catalog's development language as written in the file, e.g. `en`.
    public var sourceLanguage: String
    /// The catalog format version (`1.0`), when the file gives one.
    public var version: String?
    /// Entries by language code as written in the file ("en", "ja", "zh-Hans"), then by key.
    ///
    /// The source language's table has every key of the catalog: a key without a
    /// source-language localization has the key itself as its value, as Xcode compiles it.
    public var tables: [String: [String: TableEntry]]
    /// Keys marked "shouldTranslate": false
    ///
    /// Their entries are still in ``tables`` (a lookup must find them); this set lets a
    /// missing-translation report leave them out.
    public var untranslatableKeys: Set<String>

    /// Creates a catalog.
    public init(
        sourceLanguage: String,
        version: String? = nil,
        tables: [String: [String: TableEntry]] = [:],
        untranslatableKeys: Set<String> = []
    ) {
        self.sourceLanguage = sourceLanguage
        self.version = version
        self.tables = tables
        self.untranslatableKeys = untranslatableKeys
    }
}
