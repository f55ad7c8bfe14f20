import Foundation

/// The built `l10nctl`, run as the end-to-end suites run it: a plain `PATH` (so only the
/// system's tools are found), two minutes at most. One place for what every interchange and
/// lint suite repeated.
public enum L10nctl {
    /// Runs `l10nctl ARGUMENTS…` and waits for it.
    public static func run(_ arguments: String...) throws -> ProcessOutput {
        try run(arguments: arguments)
    }

    /// Runs `l10nctl` with `arguments` and waits for it.
    public static func run(arguments: [String]) throws -> ProcessOutput {
        try ProcessRunner.run(
            PackagePaths.executable("l10nctl"), arguments, environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
    }

    /// `l10nctl lint PATH --format json`: its findings, the whole JSON object (`errors`,
    /// `warnings`…) and the process's output; output that is not a JSON object throws,
    /// naming it.
    public static func lint(_ path: String) throws -> LintJSON {
        let output = try run("lint", path, "--format", "json")
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] else {
            throw LintJSON.NotJSON(output: output)
        }
        return LintJSON(output: output, object: object, findings: object["findings"] as? [[String: Any]] ?? [])
    }
}

/// What ``L10nctl/lint(_:)`` read.
public struct LintJSON {
    /// The lint's exit status and output.
    public var output: ProcessOutput
    /// The JSON object it printed.
    public var object: [String: Any]
    /// Its `findings`, in order.
    public var findings: [[String: Any]]

    /// The findings of `rule` (`empty-file`).
    public func findings(of rule: String) -> [[String: Any]] {
        findings.filter { $0["rule"] as? String == rule }
    }

    /// Lint printed something that is not a JSON object.
    public struct NotJSON: Error, CustomStringConvertible {
        /// What it printed.
        public var output: ProcessOutput
        /// What it printed, in the message.
        public var description: String { "lint's output is not a JSON object: \(output)" }
    }
}
