extension ResourceCatalog {
    /// One language's table, assembled from the tables files give it, with the precedence
    /// of ``init(developmentLanguage:resources:)``: earlier roots win over later ones; within
    /// a root, `.stringsdict` over `.strings` over String Catalog; of two `.lproj` folders of
    /// one language in one root, one only (``droppingOutrankedFolders(_:file:)``).
    ///
    /// Whoever re-assembles a few (language, table) pairs after an edit pays for the files
    /// of those pairs only, where building a catalog from every file would cost all files
    /// for each pair.
    ///
    /// ```swift
    /// let table = ResourceCatalog.assembledTable([(stringsFile, strings), (catalogFile, jaPart)])
    /// ```
    package static func assembledTable(_ pieces: [(file: ResourceFile, table: LocalizationTable)]) -> LocalizationTable?
    {
        let ordered = droppingOutrankedFolders(pieces, file: \.file).sorted { precedes($0.file, $1.file) }
        guard var result = ordered.first?.table else { return nil }
        for piece in ordered.dropFirst() { result = result.overlaid(with: piece.table) }
        return result
    }
}
