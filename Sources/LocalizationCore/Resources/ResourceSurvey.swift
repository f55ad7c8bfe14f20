/// What ``ResourceScanner/survey(directory:depth:rootIndex:confinedTo:)`` found under a directory.
public struct ResourceSurvey: Sendable, Hashable {
    /// The resource files, sorted by path.
    public var files: [ResourceFile] = []
    /// Directories that exist but could not be listed (permission denied, out of
    /// descriptors): what they hold is unknown, not gone.
    public var unlistable: [String] = []
    /// Entries skipped because their name is not UTF-8 (``UndecodableName``), by path.
    public var undecodable: [UndecodableName] = []

    /// Creates an empty survey.
    public init() {}
}
