import Foundation
import LocalizationCore

/// `l10nd --check-config`: reads the configuration and every resource root once, as the
/// daemon would at start, and says what it would serve and what is wrong or doubtful, then
/// exits: 0 when nothing is, 1 otherwise (a warning counts, as `--strict` makes it stop the
/// daemon). Nothing is bound, nothing watched: it can run beside the running daemon, before
/// `systemctl reload l10nd`, as `nginx -t` and `sshd -t` do.
///
/// ```swift
/// exit(ConfigurationCheck(configuration: configuration, file: "/etc/l10nd/l10nd.conf").run())
/// ```
package struct ConfigurationCheck {
    /// The configuration to check.
    package var configuration: DaemonConfiguration
    /// The file it was read from, for the report; nil when none was.
    package var file: String?

    /// Creates a check.
    package init(configuration: DaemonConfiguration, file: String?) {
        self.configuration = configuration
        self.file = file
    }

    /// Checks, prints the report on stdout (problems on stderr), and returns the exit status.
    package func run() -> Int32 {
        let problems: [String]
        let summary: String
        do {
            (summary, problems) = try check()
        } catch {
            StandardErrorStream.write("l10nd: error: \(error)\n")
            return 1
        }
        print("configuration \(file ?? "(no file: defaults and flags)"): read")
        print(summary)
        for problem in problems { StandardErrorStream.write("l10nd: warning: \(problem)\n") }
        print(problems.isEmpty ? "ok" : "\(problems.count) problem\(problems.count == 1 ? "" : "s") (see above)")
        return problems.isEmpty ? 0 : 1
    }

    /// What would be served, and each problem in one sentence.
    func check() throws(ConfigurationError) -> (summary: String, problems: [String]) {
        let (settings, repeated) = try Daemon.storeSettings(for: configuration)
        let store = ResourceStore(
            roots: settings.roots, developmentLanguage: settings.developmentLanguage,
            allowSymlinksOutsideRoots: settings.allowsSymlinksOutsideRoots, maximumFileBytes: settings.maximumFileBytes)
        store.rescan()
        let snapshot = store.snapshot
        var problems: [String] = []
        if settings.roots.isEmpty {
            problems.append("no resource directory is configured (give resources = DIR, or --resources DIR)")
        }
        problems += repeated.map { "\(ResourceRootProblem.duplicate($0))" }
        problems += snapshot.errors.map(\.description)
        problems += DevelopmentLanguageCheck.warnings(for: settings.developmentLanguage, segments: snapshot.segments)
        let summary =
            "would serve \(snapshot.segments.languages.count) languages, \(snapshot.segments.keyCount) keys in "
            + "\(snapshot.fileCount) files from \(settings.roots.isEmpty ? "no directory" : settings.roots.joined(separator: ", ")) "
            + "on \(configuration.socketPath), development language \(settings.developmentLanguage.identifier)"
        return (summary, problems)
    }
}
