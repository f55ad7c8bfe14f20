import Foundation
import LocalizationCore
import LocalizationSockets

/// `l10nd --check-config`: reads the configuration and every resource root once, as the
/// daemon would at start, and says what it would serve and what is wrong or doubtful, then
/// exits: 0 when nothing is, 1 otherwise (a warning counts, as `--strict` makes it stop the
/// daemon). An entry skipped for its name (``LocalizationCore/SkippedName``: `de_DE-typo.lproj`)
/// is such a warning: the daemon starts and serves the rest, but none of its files, ever. Nothing is served, nothing watched (`metrics_listen` is bound and closed at
/// once): it can run beside the running daemon, before `systemctl reload l10nd`, as
/// `nginx -t` and `sshd -t` do. What a start would fail on (a `socket_group` with no group,
/// a `metrics_listen` that cannot be bound) is an error at its line, exit 2.
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
        let (errors, notes) = checkBindings()
        // What a start would stop on, as a bad line stops it: `FILE:LINE: …` and exit 2.
        guard errors.isEmpty else {
            StandardErrorStream.write(errors.map { "l10nd: error: \($0)\n" }.joined())
            return errors[0].exitCode
        }
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
        for note in notes { print(note) }
        for problem in problems { StandardErrorStream.write("l10nd: warning: \(problem)\n") }
        print(problems.isEmpty ? "ok" : "\(problems.count) problem\(problems.count == 1 ? "" : "s") (see above)")
        return problems.isEmpty ? 0 : 1
    }

    /// What the parser cannot judge alone, as the start would find it: a `socket_group`
    /// the system has no group of, a `metrics_listen` that cannot be bound now (bound and
    /// closed at once; one the running l10nd holds is a note, not an error). Each error is
    /// placed at the line that set the key.
    func checkBindings() -> (errors: [ConfigurationError], notes: [String]) {
        func error(_ key: String, _ message: String) -> ConfigurationError {
            let line = configuration.settingLines[key]
            return ConfigurationError(
                code: .invalidConfiguration, file: line == nil ? nil : file, line: line, message: message)
        }
        var errors: [ConfigurationError] = []
        var notes: [String] = []
        if let group = configuration.socketGroup, SocketPermissions.groupID(group) == nil {
            errors.append(
                error(
                    "socket_group",
                    "socket_group: no group named '\(group)' on this system, so l10nd would not start (create it with "
                        + "groupadd \(group), or give an existing group's name or number)"))
        }
        if let address = configuration.metricsListen {
            switch MetricsAddressProbe.probe(address) {
            case .free: notes.append("metrics_listen \(address): can be bound")
            case .heldByL10nd(let pid):
                notes.append(
                    "metrics_listen \(address): held by the running l10nd (pid \(pid)), its own endpoint; "
                        + "it is bound again when that daemon restarts")
            case .unbindable(let reason): errors.append(error("metrics_listen", reason))
            }
        }
        return (errors, notes)
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
        // The watcher skips them by the scanner's rule, so the running daemon lists the same.
        let confinement = settings.allowsSymlinksOutsideRoots ? nil : settings.roots
        problems += settings.roots.enumerated().flatMap { index, root in
            ResourceScanner.survey(directory: root, rootIndex: index, confinedTo: confinement).skipped.map {
                DisplayText.escaped($0.message)
            }
        }
        problems += DevelopmentLanguageCheck.warnings(for: settings.developmentLanguage, segments: snapshot.segments)
        let summary =
            "would serve \(snapshot.segments.languages.count) languages, \(snapshot.segments.keyCount) keys in "
            + "\(snapshot.fileCount) files from \(settings.roots.isEmpty ? "no directory" : settings.roots.joined(separator: ", ")) "
            + "on \(configuration.socketPath), development language \(settings.developmentLanguage.identifier)"
        return (summary, problems)
    }
}
