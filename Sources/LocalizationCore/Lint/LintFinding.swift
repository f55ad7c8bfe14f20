/// One problem `l10nctl lint` reports, located in a file.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is: errors make lint exit 1, warnings and notes do not.
    public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
        /// The file cannot be used as it is, or a caller could format the wrong argument.
        case error
        /// Worth a translator's look; the file still works.
        case warning
        /// Worth knowing, often intended (a term left in English): SARIF's `note` level.
        case note

        /// Errors sort first, notes last.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
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

    /// Findings that one cause makes, one per key (every key of a file a language lacks):
    /// lint's text output prints them as one line, its counts, JSON and SARIF keep each.
    public struct Group: Sendable, Hashable {
        /// Tells the groups of one report apart (the missing file's path).
        public var id: String
        /// What the line says after the count: `keys untranslated: there is no de.lproj/X.strings (…)`.
        public var summary: String

        /// Creates a group.
        public init(id: String, summary: String) {
            self.id = id
            self.summary = summary
        }
    }

    /// The group the finding belongs to, if its cause makes one per key.
    public var group: Group?
    /// The key the finding is about, when it is about one: with the rule and the file it
    /// identifies the finding across runs however lines move (SARIF's `partialFingerprints`).
    public var key: String?

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
    public init(
        _ rule: LintRule, at location: SourceLocation, _ message: String, related: SourceLocation? = nil,
        key: String? = nil
    ) {
        self.init(location: location, severity: rule.defaultSeverity, message: message, rule: rule, related: related)
        self.key = key
    }

    /// `file:line:column: error: message [rule]`, the form compilers use and editors jump to.
    public var description: String { line(message) }

    /// The line of the finding's group, `count` findings: at this finding's place, the count
    /// before the group's summary (`… warning: 35 keys untranslated: there is no … [untranslated]`).
    public func groupLine(count: Int) -> String {
        guard let group, count > 1 else { return description }
        return line("\(count) \(group.summary)")
    }

    private func line(_ text: String) -> String { "\(location): \(severity.rawValue): \(text) [\(rule.rawValue)]" }
}
