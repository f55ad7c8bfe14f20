// TEMPORARY: stands in for the parsers being written on other branches; deleted at merge.
import Foundation

public struct StringsEntry: Sendable, Hashable { public var key: String; public var value: String; public var location: SourceLocation }
public struct ParsedStrings: Sendable {
    public var entries: [StringsEntry]
    public var table: [String: String]
    public var duplicates: [StringsEntry]
}
public enum StringsParser {
    public static func parse(_ bytes: [UInt8], file: String? = nil) throws(ResourceParseError) -> ParsedStrings {
        if bytes.isEmpty { return ParsedStrings(entries: [], table: [:], duplicates: []) }
        guard let dict = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: String] else {
            throw ResourceParseError(location: SourceLocation(file: file, line: 1, column: 1), message: "stub")
        }
        return ParsedStrings(entries: dict.map { StringsEntry(key: $0.key, value: $0.value, location: SourceLocation(line: 1, column: 1)) }, table: dict, duplicates: [])
    }
}
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
