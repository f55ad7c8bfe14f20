extension ResourceLinter {
    /// `skipped-name` for an entry skipped for its name alone (``SkippedName``): an `.lproj`
    /// named for no language, an entry whose name is not UTF-8. None of its files is ever
    /// served, and no other rule sees them (they are no resource files), so lint says so, at
    /// the folder, or at the directory holding an entry whose name cannot be given as a path
    /// that exists.
    package static func skippedNameFinding(_ skipped: SkippedName) -> LintFinding {
        LintFinding(.skippedName, at: SourceLocation(file: skipped.existingPath, line: 1, column: 1), skipped.message)
    }
}
