extension TranslationProject {
    /// The project with each unit `transform` returns (changed as it returns it) in place of
    /// its own, the others left out, and files left with none dropped: a part of the
    /// export (`l10nctl missing --format po`'s keys).
    public func filtered(_ transform: (TranslationFile, TranslationUnit) -> TranslationUnit?) -> TranslationProject {
        var project = self
        project.files = files.compactMap { file in
            var kept = file
            kept.units = file.units.compactMap { transform(file, $0) }
            return kept.units.isEmpty ? nil : kept
        }
        return project
    }

    /// The project with `other`'s files after its own: one file for several resource
    /// directories (each file's `original` is relative to its own directory).
    public func adding(filesOf other: TranslationProject) -> TranslationProject {
        var project = self
        project.files += other.files
        return project
    }
}
