// TEMPORARY: stands in for the parsers being written on other branches; deleted at merge.
import Foundation

public enum StringsDictReader {
    public static func parse(_ bytes: [UInt8], file: String? = nil) throws(ResourceParseError) -> [String: TableEntry] { [:] }
}
public struct StringCatalog: Sendable, Hashable {
    public var sourceLanguage: String
    public var version: String?
    public var tables: [String: [String: TableEntry]]
    public var untranslatableKeys: Set<String>
}
public enum StringCatalogReader {
    public static func parse(_ bytes: [UInt8], file: String? = nil) throws(ResourceParseError) -> StringCatalog {
        StringCatalog(sourceLanguage: "en", version: nil, tables: [:], untranslatableKeys: [])
    }
}
