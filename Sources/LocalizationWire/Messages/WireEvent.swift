/// A message the daemon pushes to subscribers without being asked.
///
/// ```swift
/// server.broadcast(.changed(generation: 4, changes: [WireTableChange(language: "ja", table: "Localizable")]))
/// ```
public enum WireEvent: Sendable, Hashable {
    /// Tables changed and the daemon now serves `generation`.
    case changed(generation: UInt64, changes: [WireTableChange])
    /// Saved files that do not parse: each keeps its last good table, so nothing changed
    /// (`generation` is still served). On the wire a `changed` event with no changes and an
    /// `errors` list, which a client that does not know the list reads as nothing changed.
    case fileErrors(generation: UInt64, errors: [WireFileError])
}

/// A file that failed to parse, where: as `l10nctl lint` and the daemon's log name it.
public struct WireFileError: Sendable, Hashable {
    /// The file's path.
    public var file: String
    /// Where the parse stopped (1-based; columns count Unicode scalars).
    public var line: Int
    /// The column on that line.
    public var column: Int
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }
}
