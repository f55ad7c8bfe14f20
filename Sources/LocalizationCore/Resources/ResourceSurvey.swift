/// What ``ResourceScanner/survey(directory:depth:rootIndex:confinedTo:)`` found under a directory.
public struct ResourceSurvey: Sendable, Hashable {
    /// The resource files, sorted by path.
    public var files: [ResourceFile] = []
    /// Directories that exist but could not be listed (permission denied, out of
    /// descriptors): what they hold is unknown, not gone.
    public var unlistable: [String] = []
    /// Entries skipped for their name alone (``SkippedName``): `.lproj` folders named for no
    /// language, and entries whose names are not UTF-8. Their files are not in ``files``.
    public var skipped: [SkippedName] = []

    /// Creates an empty survey.
    public init() {}
}
