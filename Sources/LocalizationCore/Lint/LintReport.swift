import Foundation

/// Lint findings as the three outputs of `l10nctl lint --format`: text lines, JSON, SARIF.
public struct LintReport: Sendable {
    /// The findings, in the order they are reported.
    public var findings: [LintFinding]
    /// The options they were found with (the rules' severities, for SARIF's rule list).
    public var options: LintOptions
    /// The paths lint was given: SARIF's fingerprints name a file relative to the one that
    /// holds it, so they stay the same wherever the tree is checked out.
    public var roots: [String]

    /// Creates a report.
    public init(findings: [LintFinding], options: LintOptions, roots: [String] = []) {
        self.findings = findings
        self.options = options
        self.roots = roots
    }

    /// How many findings are errors.
    public var errorCount: Int { findings.filter { $0.severity == .error }.count }
    /// How many findings are warnings.
    public var warningCount: Int { findings.filter { $0.severity == .warning }.count }
    /// How many findings are notes.
    public var noteCount: Int { findings.filter { $0.severity == .note }.count }

    /// `2 errors, 1 warning` (and `, 3 notes` when there are notes): lint's summary line.
    public var summary: String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let notes = noteCount > 0 ? ", " + count(noteCount, "note") : ""
        return count(errorCount, "error") + ", " + count(warningCount, "warning") + notes
    }

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
    /// "errors":N,"warnings":N,"notes":N}`, keys sorted.
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
            "errors": errorCount, "warnings": warningCount, "notes": noteCount,
        ]
        return Self.serialize(object)
    }

    /// A SARIF 2.1.0 log with one run: the rules as `tool.driver.rules` (each with its
    /// configured level, `none` when off, its help and where it is documented), every finding
    /// as a result at its line and column (columns count Unicode scalars: `columnKind`
    /// `unicodeCodePoints`), the development language's entry as a related location, and a
    /// `partialFingerprints` hash of the rule, the file relative to its lint root and the
    /// key, so a code-scanning UI tracks a finding across runs however its line moves.
    ///
    /// No location names a file that does not exist: a finding about a file a language
    /// lacks is placed at the development language's entry (its related location), or has
    /// no location when there is none.
    public func sarif() -> String {
        let rules = LintRule.allCases
        let driver: [String: Any] = [
            "name": "l10nctl lint",
            "informationUri": "https://github.com/l10nd/l10nd/blob/main/docs/TRANSLATORS.md",
            "rules": rules.map { rule -> [String: Any] in
                [
                    "id": rule.rawValue,
                    "shortDescription": ["text": rule.summary],
                    "help": ["text": rule.help],
                    "helpUri": rule.helpURI,
                    "defaultConfiguration": ["level": options.severity(of: rule)?.rawValue ?? "none"],
                ]
            },
        ]
        var seen: [String: Int] = [:]
        let results = findings.map { finding -> [String: Any] in
            let fingerprint = fingerprint(of: finding)
            // Two findings of one rule and key in one file (two plural forms) stay apart.
            let occurrence = seen[fingerprint, default: 0]
            seen[fingerprint] = occurrence + 1
            var result: [String: Any] = [
                "ruleId": finding.rule.rawValue,
                "ruleIndex": rules.firstIndex(of: finding.rule) ?? 0,
                "level": finding.severity.rawValue,
                "message": ["text": finding.message],
                "partialFingerprints": ["l10ndFindingHash/v1": "\(fingerprint):\(occurrence + 1)"],
            ]
            let exists = { (location: SourceLocation) in
                location.file.map { FileManager.default.fileExists(atPath: $0) } ?? false
            }
            let related = finding.related.flatMap { exists($0) ? $0 : nil }
            if exists(finding.location) {
                result["locations"] = [Self.sarifLocation(finding.location)]
                if let related {
                    var location = Self.sarifLocation(related)
                    location["id"] = 1
                    location["message"] = ["text": "the development language's entry"]
                    result["relatedLocations"] = [location]
                }
            } else if let related {
                result["locations"] = [Self.sarifLocation(related)]
            } else {
                result["locations"] = [[String: Any]]()
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

    /// The hash of `finding`'s rule, its file relative to the lint root holding it, and its
    /// key (else its message without line numbers): the same on every run and checkout.
    func fingerprint(of finding: LintFinding) -> String {
        let path = finding.location.file ?? ""
        let root = roots.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            .filter { path == $0 || path.hasPrefix($0 + "/") }.max { $0.count < $1.count }
        let relative = root.map { path == $0 ? "" : String(path.dropFirst($0.count + 1)) } ?? path
        let subject = finding.key.map { "key:" + $0 } ?? finding.message.replacing(/:[0-9]+/, with: "")
        return StableHash.hex([finding.rule.rawValue, relative, subject])
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
