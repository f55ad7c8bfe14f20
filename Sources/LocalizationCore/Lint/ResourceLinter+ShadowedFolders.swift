extension ResourceLinter {
    /// A file of an `.lproj` folder that a sibling folder of the same language outranks for
    /// its table (`en_GB.lproj` beside `en-GB.lproj`): lookups serve the other folder's table
    /// whole and never read this file (``ResourceCatalog/outrankedFolders(_:file:)``), so its
    /// keys are lost without a word unless lint says so.
    static func shadowedFolderFindings(_ files: [ResourceFile]) -> [LintFinding] {
        ResourceCatalog.outrankedFolders(files, file: { $0 }).sorted { $0.key < $1.key }.map { index, winner in
            let file = files[index]
            let folder = file.path.split(separator: "/").dropLast().last.map(String.init) ?? file.path
            let served = winner.split(separator: "/").last.map(String.init) ?? winner
            let language = file.language?.identifier ?? ""
            return LintFinding(
                .shadowedFolder, at: SourceLocation(file: file.path, line: 1, column: 1),
                "\(folder) is not served for the \(file.table) table: \(served), the same language (\(language)) "
                    + "beside it, is served whole in its place; move these keys into \(served) and delete \(folder)")
        }
    }
}
