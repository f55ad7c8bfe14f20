/// How `l10nctl lint` checks: the development language, each rule's severity and which
/// placeholder styles strings use.
public struct LintOptions: Sendable, Hashable {
    /// The language translations are compared with (else `Base`).
    public var developmentLanguage: LanguageTag
    /// Severities that differ from each rule's default; `nil` turns a rule off.
    public var severities: [LintRule: LintFinding.Severity?]
    /// The placeholder styles to compare; `nil` detects them from the development
    /// language's strings (``PlaceholderStyles/detected(in:)``).
    public var placeholderStyles: PlaceholderStyles?

    /// Creates options; by default every rule has its own severity and styles are detected.
    public init(
        developmentLanguage: LanguageTag = LanguageTag(language: "en"),
        severities: [LintRule: LintFinding.Severity?] = [:],
        placeholderStyles: PlaceholderStyles? = nil
    ) {
        self.developmentLanguage = developmentLanguage
        self.severities = severities
        self.placeholderStyles = placeholderStyles
    }

    /// The severity `rule` reports with, or `nil` when it is off.
    public func severity(of rule: LintRule) -> LintFinding.Severity? {
        if let configured = severities[rule] { return configured }
        return rule.defaultSeverity
    }

    /// Reads one `RULE=error|warning|note|off` setting into ``severities``.
    /// - Throws: a message naming the rules or levels when `setting` is neither.
    public mutating func setSeverity(_ setting: String) throws(LintOptionError) {
        let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
        let rules = LintRule.allCases.map(\.rawValue).joined(separator: ", ")
        guard parts.count == 2, let rule = LintRule(rawValue: parts[0]) else {
            throw LintOptionError(
                "--severity takes RULE=error|warning|note|off, RULE one of: \(rules); not '\(setting)'")
        }
        if parts[1] == "off" {
            severities[rule] = .some(nil)
        } else if let level = LintFinding.Severity(rawValue: parts[1]) {
            severities[rule] = .some(level)
        } else {
            throw LintOptionError("--severity \(rule.rawValue)= takes error, warning, note or off, not '\(parts[1])'")
        }
    }
}

/// A lint option that does not say what to do, in words for the command line.
public struct LintOptionError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
