import Foundation

/// Lint findings as the three outputs of `l10nctl lint --format`: text lines, JSON, SARIF.
public struct LintReport: Sendable {
    /// The findings, in the order they are reported.
    public var findings: [LintFinding]
    /// The options they were found with (the rules' severities, for SARIF's rule list).
    public var options: LintOptions

    /// Creates a report.
    public init(findings: [LintFinding], options: LintOptions) {
        self.findings = findings
        self.options = options
    }

    /// How many findings are errors.
    public var errorCount: Int { findings.filter { $0.severity == .error }.count }
    /// How many findings are warnings.
    public var warningCount: Int { findings.count - errorCount }

    /// `file:line:column: severity: message [rule]`, one line per finding, but one line per
    /// group of findings one cause makes (``LintFinding/group``: every key of a missing file),
    /// at its first finding's place with the group's count; a control character (from a
    /// file's name or content) is written `\U001B`, never sent to the terminal.
    public var text: String {
        var sizes: [LintFinding.Group: Int] = [:]
        for case let group? in findings.map(\.group) { sizes[group, default: 0] += 1 }
        var printed: Set<LintFinding.Group> = []
        return findings.compactMap { finding in
            if let group = finding.group {
                guard printed.insert(group).inserted else { return nil }
                return LintQuoting.printable(finding.groupLine(count: sizes[group]!)) + "\n"
            }
            return LintQuoting.printable("\(finding)") + "\n"
        }.joined()
    }

    /// `line` with every control character (from a file's name or content) written `\U001B`,
    /// as ``text`` writes it: for other commands' messages about translators' files.
    public static func printable(_ line: String) -> String { LintQuoting.printable(line) }

    /// `{"findings":[{"file","line","column","severity","rule","message","related"?}],
    /// "errors":N,"warnings":N}`, keys sorted.
    public func json() -> String {
        let object: [String: Any] = [
            "findings": findings.map { finding -> [String: Any] in
                var item = Self.place(finding.location)
                item["severity"] = finding.severity.rawValue
                item["rule"] = finding.rule.rawValue
                item["message"] = finding.message
                if let related = finding.related { item["related"] = Self.place(related) }
                return item
            },
            "errors": errorCount, "warnings": warningCount,
        ]
        return Self.serialize(object)
    }

    /// A SARIF 2.1.0 log with one run: the rules as `tool.driver.rules` (each with its
    /// configured level, `none` when off), every finding as a result at its line and column
    /// (columns count Unicode scalars: `columnKind` `unicodeCodePoints`), the development
    /// language's entry as a related location.
    public func sarif() -> String {
        let rules = LintRule.allCases
        let driver: [String: Any] = [
            "name": "l10nctl lint",
            "informationUri": "https://github.com/l10nd/l10nd/blob/main/docs/TRANSLATORS.md",
            "rules": rules.map { rule -> [String: Any] in
                [
                    "id": rule.rawValue,
                    "shortDescription": ["text": rule.summary],
                    "defaultConfiguration": ["level": options.severity(of: rule)?.rawValue ?? "none"],
                ]
            },
        ]
        let results = findings.map { finding -> [String: Any] in
            var result: [String: Any] = [
                "ruleId": finding.rule.rawValue,
                "ruleIndex": rules.firstIndex(of: finding.rule) ?? 0,
                "level": finding.severity.rawValue,
                "message": ["text": finding.message],
                "locations": [Self.sarifLocation(finding.location)],
            ]
            if let related = finding.related {
                var location = Self.sarifLocation(related)
                location["id"] = 1
                location["message"] = ["text": "the development language's entry"]
                result["relatedLocations"] = [location]
            }
            return result
        }
        let log: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [["tool": ["driver": driver], "columnKind": "unicodeCodePoints", "results": results]],
        ]
        return Self.serialize(log)
    }

    private static func place(_ location: SourceLocation) -> [String: Any] {
        ["file": location.file ?? "", "line": location.line, "column": location.column]
    }

    private static func sarifLocation(_ location: SourceLocation) -> [String: Any] {
        [
            "physicalLocation": [
                "artifactLocation": ["uri": uri(location.file ?? "")],
                "region": ["startLine": location.line, "startColumn": location.column],
            ]
        ]
    }

    /// A path as a URI reference: absolute paths as `file://` URIs, relative ones
    /// percent-encoded as they are (relative to the directory lint ran in).
    static func uri(_ path: String) -> String {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).absoluteString }
        return path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    private static func serialize(_ object: [String: Any]) -> String {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
