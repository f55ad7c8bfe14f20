/// A configuration file or command line the daemon cannot accept.
///
/// Both kinds are usage errors: `l10nd` prints `l10nd: error: <description>` to stderr and
/// exits with status 2 (`exitCode`), as command-line tools do for bad input.
package struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of input was wrong.
    package enum Code: String, Sendable, Hashable {
        /// A line of the configuration file.
        case invalidConfiguration = "invalid_configuration"
        /// The configuration file could not be read.
        case unreadableConfiguration = "unreadable_configuration"
        /// A command-line flag or its value.
        case usage = "usage"
    }

    /// What kind of input was wrong.
    package var code: Code
    /// The configuration file, for file errors.
    package var file: String?
    /// The 1-based line in `file`, for file errors.
    package var line: Int?
    /// What is wrong and what was expected.
    package var message: String
    /// The file's other errors, in line order: a file is read to its end, and every mistake
    /// in it is said at once.
    package var further: [ConfigurationError] = []

    /// This error and the ``further`` ones, each `file:line: message`, one a line.
    package var lines: [String] { [single] + further.flatMap(\.lines) }

    /// Creates an error.
    package init(code: Code, file: String? = nil, line: Int? = nil, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.message = message
    }

    /// The process exit status for this error: 2, a usage error, for every kind.
    package var exitCode: Int32 { 2 }

    /// `file:line: message`, `file: message` or just the message for flags; with
    /// ``further`` errors, one a line.
    package var description: String {
        lines.joined(separator: "\n")
    }

    private var single: String {
        switch (file, line) {
        case let (file?, line?): "\(file):\(line): \(message)"
        case let (file?, nil): "\(file): \(message)"
        default: message
        }
    }
}
