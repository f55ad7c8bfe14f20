/// One problem `l10nctl lint` reports, located in a file.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is: errors make lint exit 1, warnings do not.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// The file cannot be used as it is, or a caller could format the wrong argument.
        case error
        /// Worth a translator's look; the file still works.
        case warning

        /// Errors sort first.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    /// Where the problem is.
    public var location: SourceLocation
    /// How bad it is.
    public var severity: Severity
    /// What is wrong.
    public var message: String
    /// Which rule found it.
    public var rule: LintRule
    /// A second place that explains the finding: the development language's entry a
    /// translation lacks or disagrees with.
    public var related: SourceLocation?

    /// Creates a finding.
    public init(
        location: SourceLocation, severity: Severity, message: String, rule: LintRule = .file,
        related: SourceLocation? = nil
    ) {
        self.location = location
        self.severity = severity
        self.message = message
        self.rule = rule
        self.related = related
    }

    /// Creates a finding with its rule's default severity.
    public init(_ rule: LintRule, at location: SourceLocation, _ message: String, related: SourceLocation? = nil) {
        self.init(location: location, severity: rule.defaultSeverity, message: message, rule: rule, related: related)
    }

    /// `file:line:column: error: message [rule]`, the form compilers use and editors jump to.
    public var description: String { "\(location): \(severity.rawValue): \(message) [\(rule.rawValue)]" }
}
