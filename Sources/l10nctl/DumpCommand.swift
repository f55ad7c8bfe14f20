import CommandLineHelp
import Foundation
import LocalizationCore

/// `l10nctl dump FILE`: a resource file as JSON.
enum DumpCommand {
    /// A String Catalog's JSON form in the dump.
    struct CatalogDump: Encodable {
        var sourceLanguage: String
        var localizations: [String: [String: TableEntry]]
    }

    static func run(_ invocation: Invocation) throws {
        let parsed = invocation.arguments
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            throw UsageError("dump takes exactly one FILE")
        }
        guard let file = ResourceFile(anyPath: path) else {
            throw UsageError("'\(path)' is not a .strings, .stringsdict or .xcstrings file")
        }
        // The daemon's reader, with its limit: a FIFO cannot hang the dump, nor a huge file
        // take the machine's memory.
        let bytes = try ResourceFileReader.bytes(of: path).get()
        let output: Data
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        switch file.kind {
        case .strings:
            output = try encoder.encode(try StringsParser.parseTable(bytes, file: path).dictionary)
        case .stringsDict:
            output = try encoder.encode(try StringsDictReader.parse(bytes, file: path))
        case .stringCatalog:
            let catalog = try StringCatalogReader.parse(bytes, file: path)
            output = try encoder.encode(
                CatalogDump(sourceLanguage: catalog.sourceLanguage, localizations: catalog.tables))
        }
        FileHandle.standardOutput.write(output + Data("\n".utf8))
    }
}
