import Glibc

/// Compiled tables read in place (docs/FORMAT.md): a lookup hashes the key, probes the
/// table's key index and returns the answer as spans of the buffer, allocating nothing
/// (unless a key that is not ASCII misses as given: it is then composed and tried again).
///
/// Opening checks the header, the checksums and where every section and table lies; each
/// lookup checks every offset it follows before reading there. Damaged or foreign bytes
/// give a ``CompiledTablesError``, never a read outside the buffer.
///
/// The tables do not own their bytes: the buffer (a sealed mapping, an array's storage)
/// must outlive them and every answer read from them, and must not change meanwhile.
///
/// ```swift
/// let tables = try CompiledTables(buffer)
/// if let fr = tables.language("fr"), let table = tables.table("Localizable"),
///    let answer = try tables.lookup("Open", language: fr, table: table) {
///     answer.valueString   // "Ouvrir"
/// }
/// ```
package struct CompiledTables: @unchecked Sendable {
    // @unchecked: the buffer is immutable by contract (a sealed memfd, or bytes nobody changes).

    /// A compiled language, found by ``language(_:)``.
    package struct Language: Hashable, Sendable {
        /// Its position in the languages section.
        package let index: Int
    }

    /// A compiled table, found by ``table(_:)``, with its key index's place checked.
    package struct Table: Hashable, Sendable {
        /// Its position in the tables section.
        package let index: Int
        /// How many keys its index holds.
        package let keyCount: Int
        let slotMask: Int
        let slotsOffset: Int
        let keysOffset: Int
    }

    typealias Layout = CompiledTablesLayout

    /// The tables' bytes, cut to the length the header states, and how to read them.
    let bytes: CompiledBytes
    /// The tables' bytes, cut to the length the header states.
    package var buffer: UnsafeRawBufferPointer { bytes.buffer }
    /// The generation the writer stamped.
    package let generation: UInt64
    /// The compiled languages' identifiers as spans, by language index.
    // Set after the checks that need `string(at:)`, hence variables.
    private var languageNames: [UnsafeRawBufferPointer]
    /// Every table, by table index.
    package private(set) var tables: [Table]
    private var tableNames: [UnsafeRawBufferPointer]
    private let tableCount: Int
    private let cellsOffset: Int
    private let recordsOffset: Int
    private let recordCount: Int

    /// Opens the tables in `buffer`, which may be longer than they are (a mapping rounded
    /// up to pages). With `verifyingChecksums` (the default) the body's CRC-32C is
    /// computed too, a pass over every byte; the header's always is.
    ///
    /// - Throws: ``CompiledTablesError`` when the bytes are not whole, undamaged tables of
    ///   a version this reader knows.
    package init(_ buffer: UnsafeRawBufferPointer, verifyingChecksums: Bool = true) throws(CompiledTablesError) {
        guard buffer.count >= Layout.headerLength, let base = buffer.baseAddress else {
            throw .truncated(expected: Layout.headerLength, actual: buffer.count)
        }
        guard Layout.magic.withUnsafeBytes({ memcmp(base, $0.baseAddress!, 8) == 0 }) else { throw .badMagic }
        let whole = buffer
        func u16(_ offset: Int) -> UInt16 {
            UInt16(littleEndian: whole.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
        }
        func u32(_ offset: Int) -> UInt32 {
            UInt32(littleEndian: whole.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        func u64(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: whole.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        let major = u16(Layout.Header.majorVersion)
        guard major == Layout.majorVersion else {
            throw .unsupportedVersion(major: major, minor: u16(Layout.Header.minorVersion))
        }
        let totalLength = u64(Layout.Header.totalLength)
        guard totalLength <= UInt64(buffer.count) else {
            throw .truncated(expected: Int(clamping: totalLength), actual: buffer.count)
        }
        let end = Int(totalLength)
        let headerLength = Int(u32(Layout.Header.headerLength))
        guard headerLength >= Layout.headerLength, headerLength <= end, headerLength % Layout.alignment == 0 else {
            throw .outOfBounds("the header length \(headerLength)")
        }
        // The header's checksum covers the header with its own field zero.
        let storedHeaderChecksum = u32(Layout.Header.headerChecksum)
        let field = Layout.Header.headerChecksum
        var crc = CRC32C.update(0xFFFF_FFFF, UnsafeRawBufferPointer(rebasing: whole[0..<field]))
        crc = withUnsafeBytes(of: UInt32(0)) { CRC32C.update(crc, $0) }
        crc = ~CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: whole[(field + 4)..<headerLength]))
        guard crc == storedHeaderChecksum else {
            throw .checksumMismatch(part: "header", stored: storedHeaderChecksum, computed: crc)
        }
        if verifyingChecksums {
            let stored = u32(Layout.Header.bodyChecksum)
            let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: whole[headerLength..<end]))
            guard computed == stored else { throw .checksumMismatch(part: "body", stored: stored, computed: computed) }
        }
        generation = u64(Layout.Header.generation)
        let languageCount = Int(u32(Layout.Header.languageCount))
        let tableCount = Int(u32(Layout.Header.tableCount))

        /// A section's offset after checking it lies in the body and has `length` bytes.
        func section(_ field: Int, _ name: String, length expected: (Int) -> Bool) throws(CompiledTablesError) -> (
            offset: Int, length: Int
        ) {
            let offset = u64(field)
            let length = u64(field + 8)
            guard offset >= UInt64(headerLength), offset <= UInt64(end), length <= UInt64(end) - offset,
                expected(Int(length))
            else { throw .outOfBounds("the \(name) section") }
            return (Int(offset), Int(length))
        }
        let strings = try section(Layout.Header.strings, "strings") { _ in true }
        let languages = try section(Layout.Header.languages, "languages") {
            $0 == languageCount * Layout.languageEntrySize
        }
        let tablesSection = try section(Layout.Header.tables, "tables") { $0 == tableCount * Layout.tableEntrySize }
        let (cellCount, overflow) = languageCount.multipliedReportingOverflow(by: tableCount)
        let cells = try section(Layout.Header.cells, "cells") {
            !overflow && $0 / Layout.cellSize == cellCount && $0 % Layout.cellSize == 0
        }
        let records = try section(Layout.Header.records, "records") { $0 % Layout.recordSize == 0 }
        bytes = CompiledBytes(
            buffer: UnsafeRawBufferPointer(rebasing: whole[0..<end]), stringsOffset: strings.offset,
            stringsLength: strings.length)
        self.tableCount = tableCount
        self.languageCount = languageCount
        cellsOffset = cells.offset
        recordsOffset = records.offset
        recordCount = records.length / Layout.recordSize

        var languageNames: [UnsafeRawBufferPointer] = []
        languageNames.reserveCapacity(languageCount)
        var tableNames: [UnsafeRawBufferPointer] = []
        var tables: [Table] = []
        tables.reserveCapacity(tableCount)
        self.languageNames = []
        self.tableNames = []
        self.tables = []
        for index in 0..<languageCount {
            languageNames.append(try bytes.string(at: languages.offset + index * Layout.languageEntrySize))
        }
        for index in 0..<tableCount {
            let entry = tablesSection.offset + index * Layout.tableEntrySize
            tableNames.append(try bytes.string(at: entry))
            let keyCount = Int(u32(entry + 8))
            let slotCount = Int(u32(entry + 12))
            guard slotCount > 0, slotCount & (slotCount - 1) == 0, keyCount <= slotCount else {
                throw .outOfBounds("table \(index)'s slot count \(slotCount) for \(keyCount) keys")
            }
            let slots = try bytes.range(u64(entry + 16), length: slotCount * Layout.slotSize, "table \(index)'s slots")
            let keys = try bytes.range(
                u64(entry + 24), length: keyCount * Layout.stringReferenceSize, "table \(index)'s keys")
            tables.append(
                Table(index: index, keyCount: keyCount, slotMask: slotCount - 1, slotsOffset: slots, keysOffset: keys))
        }
        self.languageNames = languageNames
        self.tableNames = tableNames
        self.tables = tables
    }

    /// The number of compiled languages.
    package let languageCount: Int

    /// Every compiled language, sorted by identifier.
    package var languages: [Language] { languageNames.indices.map(Language.init(index:)) }

    /// The identifier of `language`, e.g. `fr`.
    package func identifier(of language: Language) -> String {
        String(decoding: languageNames[language.index], as: UTF8.self)
    }

    /// The name of `table`, e.g. `Localizable`.
    package func name(of table: Table) -> String {
        String(decoding: tableNames[table.index], as: UTF8.self)
    }

    /// The compiled language whose identifier is `identifier`, if the tables have it.
    package func language(_ identifier: String) -> Language? {
        Self.position(of: identifier, in: languageNames).map(Language.init(index:))
    }

    /// The table named `name` (`Localizable` for `nil` or empty), if the tables have it.
    package func table(_ name: String?) -> Table? {
        Self.position(of: ResourceCatalog.tableName(name), in: tableNames).map { tables[$0] }
    }

    /// Looks `key` up in `table` as `language` resolves it: `nil` when the language
    /// answers no such key (a lookup's miss: the key itself is the value). A key matches
    /// the index's canonically equivalent one (a decomposed `é` finds a precomposed key), as
    /// it does in a Swift dictionary; ASCII keys and keys spelled as the index holds them are
    /// compared byte for byte only.
    ///
    /// - Throws: ``CompiledTablesError/outOfBounds(_:)`` when an offset on the way is damaged.
    package func lookup(_ key: String, language: Language, table: Table) throws(CompiledTablesError)
        -> CompiledAnswer?
    {
        try place(language: language, table: table).answer(key)
    }

    /// ``lookup(_:language:table:)`` for a key given as UTF-8 bytes (straight from a
    /// request's buffer).
    package func lookup(_ key: UnsafeRawBufferPointer, language: Language, table: Table) throws(CompiledTablesError)
        -> CompiledAnswer?
    {
        try place(language: language, table: table).answer(key)
    }

    /// Where lookups of `language` in `table` read, for many lookups in a row.
    ///
    /// - Throws: ``CompiledTablesError/outOfBounds(_:)`` for a language or table of other
    ///   tables, or a damaged cell.
    package func place(language: Language, table: Table) throws(CompiledTablesError) -> Place {
        // The handles' own offsets are checked again, arrays untouched: a handle from other
        // tables must not read outside these, and a lookup retains nothing.
        guard language.index < languageCount, table.index < tableCount,
            table.slotsOffset + (table.slotMask + 1) * Layout.slotSize <= bytes.buffer.count,
            table.keysOffset + table.keyCount * Layout.stringReferenceSize <= bytes.buffer.count
        else {
            throw .outOfBounds("a language or table from other tables")
        }
        let cell = cellsOffset + (language.index * tableCount + table.index) * Layout.cellSize
        let answers = bytes.u64(cell)
        let answersOffset =
            answers == 0 ? 0 : try bytes.range(answers, length: table.keyCount * Layout.answerSize, "an answers array")
        return Place(
            bytes: bytes, table: table, answersOffset: answersOffset, recordsOffset: recordsOffset,
            recordCount: recordCount)
    }

    /// ``lookup(_:language:table:)`` by identifier and table name: `nil` also when the
    /// tables lack the language or the table.
    package func lookup(_ key: String, language: String, table: String? = nil) throws(CompiledTablesError)
        -> CompiledAnswer?
    {
        guard let language = self.language(language), let table = self.table(table) else { return nil }
        return try lookup(key, language: language, table: table)
    }

    /// Key number `number` of `table`, as UTF-8 bytes: with ``lookup(_:language:table:)``,
    /// a walk over every key (a dump, a fuzzer).
    ///
    /// - Throws: ``CompiledTablesError/outOfBounds(_:)`` for a number past the table's keys
    ///   or a damaged reference.
    package func key(_ number: Int, in table: Table) throws(CompiledTablesError) -> UnsafeRawBufferPointer {
        guard number >= 0, number < table.keyCount, table.index < tableCount,
            table.keysOffset + table.keyCount * Layout.stringReferenceSize <= bytes.buffer.count
        else {
            throw .outOfBounds("key number \(number)")
        }
        return try bytes.string(at: table.keysOffset + number * Layout.stringReferenceSize)
    }

    /// The index of the span holding `name`'s UTF-8 bytes.
    private static func position(of name: String, in spans: [UnsafeRawBufferPointer]) -> Int? {
        var name = name
        return name.withUTF8 { bytes in spans.firstIndex { $0.elementsEqual(bytes) } }
    }
}
