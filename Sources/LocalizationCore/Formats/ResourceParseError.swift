/// A resource file that could not be read, with where and why.
///
/// The message is written for a translator: it names what was expected and where the
/// construct that went wrong began, e.g. `missing ';' after the value that starts at 12:9`.
public struct ResourceParseError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where the problem was found.
    public var location: SourceLocation
    /// What is wrong, in words a translator understands.
    public var message: String
    /// For a problem of one entry: whether the entry is left out (`true`), or served all the
    /// same with a stand-in (`false`, a warning). A whole file's error leaves out the file.
    public var isEntryLost: Bool = true
    /// The lint rule that reports this problem, when it is not a plain parse error (`nil`):
    /// what lets another report (coverage, the daemon's `status`) give it lint's severity.
    package var rule: LintRule?

    /// Creates an error.
    public init(location: SourceLocation, message: String, isEntryLost: Bool = true) {
        self.location = location
        self.message = message
        self.isEntryLost = isEntryLost
    }

    // Where the error travels (the daemon's status), it is located text: the flag stays local.
    private enum CodingKeys: String, CodingKey {
        case location, message
    }

    /// `file:line:column: message`.
    public var description: String { "\(location): \(message)" }

    /// A file that could not be read at all, located at its start so every report of it
    /// (lint, the embedded mode, the daemon's `status`) reads the same.
    public static func unreadable(_ path: String, reason: String) -> ResourceParseError {
        ResourceParseError(
            location: SourceLocation(file: path, line: 1, column: 1), message: "cannot be read: \(reason)")
    }

    /// The same error attributed to `file`.
    public func inFile(_ file: String) -> ResourceParseError {
        var copy = self
        copy.location.file = file
        return copy
    }
}
