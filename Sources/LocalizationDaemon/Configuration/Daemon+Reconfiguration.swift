import Foundation
import LocalizationCore
import LocalizationWire
import Synchronization

/// Reading the configuration again at `reload` and SIGHUP, as nginx and sshd do: what can
/// change in place does (roots, development language, log level, limits and timeouts), what
/// is bound at start (the socket, its group) is named as waiting for a restart, and a file
/// that cannot be read or parsed keeps the running configuration, with the reason in the
/// log, the reply and `status`.
extension Daemon {
    /// What ``rereadConfiguration()`` found.
    struct Reread {
        /// The reply's `configuration` member; nil when there is no file to read again.
        var report: ConfigurationReload?
        /// The store's settings to read with from now on.
        var settings: ResourceStore.Settings
        /// Whether they differ from the store's (the store and its watcher start afresh).
        var settingsChanged: Bool
    }

    /// The store's settings for `configuration`, and the roots it lists twice (kept once), as
    /// the operator spelled them (`masto/`), for the warning that says so.
    ///
    /// - Throws: ``ConfigurationError`` for a development language that is no language tag.
    static func storeSettings(for configuration: DaemonConfiguration) throws(ConfigurationError) -> (
        settings: ResourceStore.Settings, repeated: [String]
    ) {
        let development: LanguageTag
        do { development = try LanguageTag(configuration.developmentLanguage) } catch {
            throw ConfigurationError(code: .invalidConfiguration, message: "development_language: \(error)")
        }
        let listed = configuration.resources.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let repeated = ResourceRootProblem.repeatedIndices(listed)
        let spellings = configuration.resourceSpellings.count == listed.count ? configuration.resourceSpellings : listed
        let settings = ResourceStore.Settings(
            roots: listed.indices.filter { !repeated.contains($0) }.map { listed[$0] },
            developmentLanguage: development, allowsSymlinksOutsideRoots: configuration.allowSymlinksOutsideRoots,
            maximumFileBytes: configuration.maxFileBytes)
        return (settings, repeated.sorted().map { spellings[$0] })
    }

    /// Reads the configuration again and puts in effect what it changed, but the store's
    /// settings, which the caller applies after this returns (the watcher on the new roots
    /// is started here, before that read). Runs on the reloads queue.
    func rereadConfiguration() -> Reread {
        let unchanged = Reread(report: nil, settings: store.settings, settingsChanged: false)
        guard let source = configurationSource else { return unchanged }
        var report = ConfigurationReload(file: source.file)
        func refuse(_ reason: String) -> Reread {
            logger.error("configuration not reloaded, the running one is kept: \(reason)")
            configurationStatus.withLock { $0.lastError = reason }
            report.error = reason
            report.warnings = configurationWarnings()
            return Reread(report: report, settings: store.settings, settingsChanged: false)
        }
        let reread: DaemonConfiguration
        let settings: ResourceStore.Settings
        let repeated: [String]
        do {
            reread = try source.load()
            (settings, repeated) = try Self.storeSettings(for: reread)
        } catch {
            // Every error in the file, on the one line a log entry and a reply have.
            return refuse(error.lines.joined(separator: "; "))
        }
        if reread.strict, let unknown = UnknownLanguage.check(settings.developmentLanguage) {
            return refuse("--strict: development_language \(unknown)")
        }
        let change = ConfigurationChange(
            from: configuration, to: reread, metricsBound: startedParts.withLock { $0.metricsEndpoint?.bound })
        let watcherOptionsBefore = watcherOptions
        currentConfiguration.withLock { $0 = change.effective }
        logger.level = change.effective.logLevel
        let settingsChanged = settings != store.settings
        let (watcher, server) = startedParts.withLock { ($0.watcher, $0.server) }
        server?.updateLimits(limits)
        if settingsChanged || watcherOptions != watcherOptionsBefore, let watcher {
            replaceWatcher(watcher, roots: settings.roots)
        }
        configurationStatus.withLock {
            $0.reloads += 1
            $0.lastError = nil
            $0.waitingForRestart = change.waitingForRestart
        }
        let file = source.file ?? "the command line"
        // Said once, as it is: a value waiting for a restart is a change, logged below.
        if change.isEmpty {
            logger.notice("configuration read again from \(file): nothing changed")
        } else if !change.applied.isEmpty {
            logger.notice(
                "configuration read again from \(file): " + change.applied.map(\.description).joined(separator: "; "))
        }
        for difference in change.waitingForRestart {
            logger.warning(
                "configuration: \(difference.key) \(difference.new) takes effect at the next restart; "
                    + "running with \(difference.old) until then (systemctl restart l10nd)")
        }
        for root in repeated { logger.warning("\(ResourceRootProblem.duplicate(root))") }
        report.applied = change.applied
        report.waitingForRestart = change.waitingForRestart
        return Reread(report: report, settings: settings, settingsChanged: settingsChanged)
    }

    /// Watches `roots` with the configuration's options in place of `old`: the new watcher
    /// is started before the old one stops, and before the store reads, so no edit is missed.
    private func replaceWatcher(_ old: ResourceWatcher, roots: [String]) {
        let watcher = makeWatcher(roots: roots)
        do {
            try watcher.start()
            startedParts.withLock { $0.watcher = watcher }
            old.stop()
        } catch {
            logger.error("cannot watch the new resource roots (\(error)); the old watches are kept: reload again")
        }
    }

    /// What l10nd doubts in the configuration in effect, given the tables served now.
    func configurationWarnings() -> [String] {
        DevelopmentLanguageCheck.warnings(for: store.developmentLanguage, segments: store.snapshot.segments)
    }

    /// Logs the configuration's warnings when they differ from those logged last.
    func logConfigurationWarningsIfChanged() {
        let warnings = configurationWarnings()
        let isNew = configurationStatus.withLock { status in
            defer { status.loggedWarnings = warnings }
            return status.loggedWarnings != warnings
        }
        guard isNew else { return }
        for warning in warnings { logger.warning("configuration: \(warning)") }
    }

    /// The `STATUS=` line's part on the configuration: its warnings, a reload refused, a
    /// value waiting for a restart; empty when there is nothing to say.
    func configurationStatusPrefix() -> String {
        let status = configurationStatus.withLock { $0 }
        var parts = configurationWarnings().map { "Warning: \($0)" }
        if let error = status.lastError { parts.append("Configuration not reloaded: \(error)") }
        if !status.waitingForRestart.isEmpty {
            parts.append("Restart needed for: " + status.waitingForRestart.map(\.key).joined(separator: ", "))
        }
        return parts.map { $0 + ". " }.joined()
    }

    /// `status`'s `configuration` object.
    func configurationReport() -> WireValue {
        let status = configurationStatus.withLock { $0 }
        return .object([
            "file": status.file.map(WireValue.string) ?? .null,
            "reloads": .integer(Int64(status.reloads)),
            "last_error": status.lastError.map(WireValue.string) ?? .null,
            "restart_needed": .array(status.waitingForRestart.map { .string($0.description) }),
            "warnings": .array(configurationWarnings().map(WireValue.string)),
            "strict": .bool(configuration.strict),
        ])
    }

    /// The line logged once serving: what, from where, on which socket, or, with no
    /// resource root at all, how to give one.
    func servingLine(on socket: String) -> String {
        let snapshot = store.snapshot
        guard !store.roots.isEmpty else {
            let file =
                configurationSource?.file.map { "resources = DIR in \($0)" } ?? "--config FILE with resources = DIR"
            return
                "serving nothing on \(socket): no resource directory is configured (give \(file), or --resources DIR)"
        }
        return
            "serving \(snapshot.segments.languages.count) languages, \(snapshot.segments.keyCount) keys from \(store.roots.joined(separator: ", ")) on \(socket)"
    }
}
