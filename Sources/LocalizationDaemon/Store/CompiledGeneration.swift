import Glibc
import LocalizationCore
import LocalizationSockets

/// One generation's compiled tables, read by the daemon itself: the sealed file a `map`
/// reply hands out, mapped read-only here, so that lookups answer from the same bytes the
/// clients map — byte keys, no `String` per request (``LookupService/answerFrames(from:appendingTo:outputLimit:)``).
///
/// Only what a lookup in the catalog answers the same way is answered from here: a request
/// naming one language, exactly as a compiled language's identifier, whose preference is that
/// language alone (``answerableLanguage(_:)``), and a table the tables hold by that name.
final class CompiledGeneration: @unchecked Sendable {
    // @unchecked: every field is immutable once made, and the bytes `tables` reads are a
    // read-only mapping of a sealed file that `mapping` keeps alive.

    /// The generation of the snapshot compiled.
    let generation: UInt64
    /// The sealed file, for `map` replies.
    let file: SharedTablesFile
    /// The daemon's own read-only view of it.
    private let mapping: SealedMemoryMapping
    /// The tables, read in place in `mapping`.
    let tables: CompiledTables
    /// By compiled language index: the identifier's bytes, or empty when a request naming it
    /// does not resolve to it alone (then it is never matched).
    private let languageNames: [[UInt8]]
    /// Every compiled language, by index.
    private let languages: [CompiledTables.Language]
    /// By table index: the table's name as bytes.
    private let tableNames: [[UInt8]]
    /// The default table, which a request with no table name asks for.
    private let defaultTable: CompiledTables.Table?

    /// Compiles `snapshot` into a sealed file and maps it, giving up
    /// (``CompiledTablesError/abandoned``) once `proceeding` says the work is no longer wanted.
    init(compiling snapshot: ResourceSnapshot, proceeding: () -> Bool = { true }) throws {
        let file = try SharedTablesFile(compiling: snapshot, proceeding: proceeding)
        let mapping = try SealedMemoryMapping(verifying: file.file.descriptor, size: file.size)
        // Written by this process a moment ago: the body's checksum pass would find nothing.
        let tables = try mapping.withUnsafeBytes { bytes throws(CompiledTablesError) in
            try CompiledTables(bytes, verifyingChecksums: false)
        }
        generation = snapshot.generation
        self.file = file
        self.mapping = mapping
        self.tables = tables
        languages = tables.languages
        languageNames = languages.map { language in
            let identifier = tables.identifier(of: language)
            // The service's chain for `[identifier]` is `catalog.chain(preferences(identifier))`;
            // the compiled language was resolved as `catalog.chain([tag])`: the same exactly
            // when the preferences are that one tag, spelled the same.
            guard let preferences = try? LanguageTag.preferences(identifier), preferences.count == 1,
                preferences[0].identifier == identifier
            else { return [] }
            return Array(identifier.utf8)
        }
        tableNames = tables.tables.map { Array(tables.name(of: $0).utf8) }
        defaultTable = tables.table(nil)
    }

    /// The compiled language a request naming `language` (its bytes as sent) is answered in,
    /// if it is one whose answers equal the catalog's.
    func answerableLanguage(_ language: UnsafeRawBufferPointer) -> CompiledTables.Language? {
        Self.position(of: language, in: languageNames).map { languages[$0] }
    }

    /// The compiled table named `name` (as sent; empty for the default table).
    func table(_ name: UnsafeRawBufferPointer) -> CompiledTables.Table? {
        if name.isEmpty { return defaultTable }
        return Self.position(of: name, in: tableNames).map { tables.tables[$0] }
    }

    /// Whether two spans hold the same bytes.
    static func same(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        guard first.count == second.count else { return false }
        return first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0
    }

    private static func position(of bytes: UnsafeRawBufferPointer, in names: [[UInt8]]) -> Int? {
        for (index, name) in names.enumerated() where equal(bytes, name) { return index }
        return nil
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer, _ name: [UInt8]) -> Bool {
        guard bytes.count == name.count, !name.isEmpty else { return false }
        return name.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }
}
