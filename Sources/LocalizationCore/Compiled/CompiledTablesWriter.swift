/// Compiles a catalog into the compiled tables format (docs/FORMAT.md): one immutable
/// buffer holding, for each language asked for, every table as a lookup in that language
/// resolves it — fallback applied per key, with the language that answered and the plural
/// forms and rules — read in place by ``CompiledTables``.
///
/// Each language is compiled as a one-language preference (`catalog.chain([language])`):
/// a lookup whose preferences name several languages is not in the buffer.
///
/// ```swift
/// let writer = try CompiledTablesWriter(catalog: resources.catalog, generation: 1)
/// let bytes = writer.bytes             // or writer.write(into: mapped)
/// ```
package struct CompiledTablesWriter: Sendable {
    /// The compiled tables, whole.
    package let bytes: [UInt8]

    /// The number of bytes the tables take.
    package var byteCount: Int { bytes.count }

    /// Compiles `catalog` for `languages` (by default every language with a table, plus the
    /// pseudo-languages `en-XA` and `ar-XB`), stamped with `generation`.
    ///
    /// `proceeding` is asked between tables and languages whether the work is still wanted
    /// (a daemon gives up a generation a reload has replaced).
    ///
    /// - Throws: ``CompiledTablesError/tooLarge(_:)`` past the format's 32-bit limits;
    ///   ``CompiledTablesError/abandoned`` once `proceeding` says no.
    package init(
        catalog: ResourceCatalog, languages: [LanguageTag]? = nil, generation: UInt64,
        proceeding: () -> Bool = { true }
    ) throws(CompiledTablesError) {
        let chosen = languages ?? (catalog.languages + PseudoLocalization.allCases.map(\.tag))
        var plan = CompiledTablesPlan(catalog: catalog, languages: chosen)
        try plan.resolve(proceeding: proceeding)
        bytes = try plan.encode(generation: generation)
    }

    /// Copies the tables to the start of `buffer` (a mapping about to be sealed).
    ///
    /// - Throws: ``CompiledTablesError/bufferTooSmall(needed:available:)``.
    package func write(into buffer: UnsafeMutableRawBufferPointer) throws(CompiledTablesError) {
        guard buffer.count >= bytes.count else {
            throw .bufferTooSmall(needed: bytes.count, available: buffer.count)
        }
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
    }
}
