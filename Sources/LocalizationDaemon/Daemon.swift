import Dispatch
import Foundation
import Glibc
import LocalizationCore
import LocalizationSockets
import LocalizationWire
import Synchronization

/// l10nd as a whole: loads the resources, watches them, serves them on the socket, and
/// speaks to systemd. The executable only parses its arguments and calls ``start(onStop:)``.
///
/// Start-up order follows the watching rule (watch first, then read): the watcher's
/// watches are in place before the first full load, so no edit made during start-up is
/// missed. `READY=1` goes out once the tables are loaded and the socket listens.
///
/// Every change to the tables happens on one serial queue (`reloads`): watcher batches,
/// `reload` requests and SIGHUP are applied one after another, each publishing one new
/// snapshot and one `changed` event. Large files are parsed apart from it, and applied on it
/// once parsed (``ResourceStore/parseInBackground(filesOf:whenParsed:)``). SIGHUPs and `reload` requests are coalesced
/// (``CoalescedReload``): a storm of them costs one or two full rescans, not one each.
///
/// ```swift
/// let daemon = try Daemon(configuration: configuration, logger: DaemonLogger(level: .info))
/// try daemon.start { exit($0) }
/// dispatchMain()
/// ```
package final class Daemon: Sendable {
    /// What the daemon is doing now.
    var currentPhase: Phase { phase.withLock { $0 } }

    /// What the daemon is doing.
    enum Phase: Sendable {
        case starting, running, stopping, stopped
    }

    /// What the daemon runs with: the configuration read at start, then at each reload that
    /// read one it could put in effect (``fullReload(reason:)``).
    var configuration: DaemonConfiguration { currentConfiguration.withLock { $0 } }
    let currentConfiguration: Mutex<DaemonConfiguration>
    /// Where the configuration is read again at each reload; nil for none (tests).
    let configurationSource: ConfigurationSource?
    /// What became of the configuration's reloads, for `status`, `STATUS=` and the log.
    let configurationStatus: Mutex<ConfigurationStatus>
    let logger: DaemonLogger
    let store: ResourceStore
    let counters = DaemonCounters()
    let missing = MissingKeyReport()
    let notifier: SystemdNotifier
    let reloads = DispatchQueue(label: "l10nd.reloads")
    /// SIGHUP and `reload` requests, coalesced into as few full rescans as answer them all.
    let fullReloads: CoalescedReload<ChangeSummary>
    let startedAt = ContinuousClock.now
    /// When the daemon started, seconds since the Unix epoch (`l10nd_start_time_seconds`).
    let startedAtWallClock = Date().timeIntervalSince1970
    /// What ``start(onStop:)`` created and ``stop(onStop:)`` takes down.
    let startedParts = Mutex(StartedParts())
    /// Roots the configuration lists again after their first place: read once, and said so
    /// at start (a second copy would only ever be reported as holding no language).
    let repeatedRoots: [String]
    private let phase = Mutex<Phase>(.starting)
    /// Numbers the watcher's batches as it delivers them, so ``apply(_:number:)`` knows
    /// which ones a manual full reload has already covered.
    private let deliveredBatches = Atomic<UInt64>(0)
    /// The last batch delivered before a manual full reload read the store again: a full
    /// rescan batch up to it asks for nothing that reload did not do (counted once, read once).
    private let batchesCoveredByReload = Atomic<UInt64>(0)

    /// Signal sources, kept alive for the daemon's life. Dispatch sources are thread-safe;
    /// Swift just cannot see it through the protocol existential.
    struct SignalSources: @unchecked Sendable {
        let sources: [any DispatchSourceSignal]
    }

    /// The housekeeping timer (``startHousekeeping(_:)``); thread-safe like the signal sources.
    struct Housekeeping: @unchecked Sendable {
        let timer: any DispatchSourceTimer
    }

    /// What became of the socket file, for `status`.
    struct SocketFileState: Sendable {
        var recreated = 0
        var lastError: String?
    }
    private let socketFile = Mutex(SocketFileState())
    /// The `STATUS=` line systemd was last sent (``notifyStatusIfChanged()``).
    private let lastStatusLine = Mutex<String?>(nil)

    /// What became of the socket file now.
    var socketFileState: SocketFileState { socketFile.withLock { $0 } }

    /// The pieces created by ``start(onStop:)``.
    struct StartedParts {
        var watcher: ResourceWatcher?
        var server: SocketServer?
        var service: LookupService?
        var signalSources = SignalSources(sources: [])
        var listener: SocketListener?
        var housekeeping: Housekeeping?
        /// `metrics_listen`'s HTTP endpoint, when configured.
        var metricsEndpoint: MetricsHTTPServer?
    }

    /// Creates a daemon for `configuration`; nothing runs until ``start(onStop:)``. With a
    /// `source`, each reload reads the configuration again from it.
    package init(
        configuration: DaemonConfiguration, logger: DaemonLogger, environment: [String: String] = [:],
        source: ConfigurationSource? = nil
    ) throws(ConfigurationError) {
        currentConfiguration = Mutex(configuration)
        configurationSource = source
        configurationStatus = Mutex(ConfigurationStatus(file: source?.file))
        self.logger = logger
        let (settings, repeated) = try Self.storeSettings(for: configuration)
        repeatedRoots = repeated
        store = ResourceStore(
            roots: settings.roots, developmentLanguage: settings.developmentLanguage,
            allowSymlinksOutsideRoots: settings.allowsSymlinksOutsideRoots,
            maximumFileBytes: settings.maximumFileBytes)
        notifier = SystemdNotifier(environment: environment.isEmpty ? nil : environment)
        fullReloads = CoalescedReload(queue: reloads)
    }

    /// Watches, loads, listens, and tells systemd it is ready. `onStop` is called with the
    /// exit status once a SIGTERM or SIGINT has drained every connection.
    ///
    /// - Throws: ``SocketError`` when the socket cannot be set up (another l10nd listens on
    ///   it, its path is not a socket), or a watcher start failure.
    package func start(onStop: @escaping @Sendable (Int32) -> Void) throws {
        // Before any client can take the last descriptor (see DispatchDescriptors).
        DispatchDescriptors.prepare()
        installSignalHandlers(onStop: onStop)
        for root in repeatedRoots { logger.warning("\(ResourceRootProblem.duplicate(root))") }
        let listener = try makeListener()
        startedParts.withLock { $0.listener = listener }
        var watcher: ResourceWatcher?
        var serving = false
        // A start that fails takes down what it set up: the socket, the endpoint, the watches.
        defer {
            if !serving {
                watcher?.stop()
                listener.close()
                stopMetricsEndpoint()
            }
        }
        let service = makeService()
        // Before the load: a bad address stops the start at once, and /readyz says "starting"
        // while the tables load.
        try startMetricsEndpoint(service: service)
        watcher = makeWatcher(roots: store.roots)
        try watcher?.start()
        // Unwatched directories were logged as they were found.
        if let watching = watcher?.statistics, let problem = watching.lastError,
            !watching.unwatched.contains(where: { $0.message == problem })
        {
            logger.warning(problem)
        }
        let loadStarted = DurationHistogram.now()
        let summary = reloads.sync { store.rescan() }
        HeapTrim.afterReload(summary)
        counters.reloadDurations.record(since: loadStarted)
        counters.add(1, to: .rescans)
        counters.add(summary.filesParsed, to: .filesParsed)
        for line in FileErrorLog.lines(for: summary.newErrors, kept: false) { logger.warning(line) }
        for error in summary.newRootErrors { logger.error("\(error)") }
        // From now on a large file's parse holds up no other file's refresh.
        store.parseInBackground(filesOf: Self.backgroundParseBytes) { [weak self] path in
            guard let self else { return }
            reloads.async { self.applyParsed(path) }
        }
        let warnings = configurationWarnings()
        if configuration.strict, !warnings.isEmpty {
            throw ConfigurationError(
                code: .invalidConfiguration, file: configurationSource?.file,
                message: "--strict: " + warnings.joined(separator: "; "))
        }
        let server = SocketServer(listener: listener, handler: service, limits: limits)
        // A server that cannot wait for input would refuse every client: better not to start.
        if let error = server.readinessError { throw error }
        serving = true
        startedParts.withLock {
            $0.watcher = watcher
            $0.server = server
            $0.service = service
        }
        server.start()
        phase.withLock { $0 = .running }
        startHousekeeping(server)
        logger.notice(servingLine(on: listener.path ?? "an inherited socket"))
        // Said once at start; `status`, `STATUS=` and `l10nd_degraded` keep saying it.
        for problem in problems() { logger.warning("degraded: \(problem)") }
        logConfigurationWarningsIfChanged()
        notify { try notifier.ready(status: statusLine()) }
        _ = notifier.startWatchdog()
    }

    /// A watcher of `roots` that hands its batches to ``apply(_:number:)``; not started.
    func makeWatcher(roots: [String]) -> ResourceWatcher {
        ResourceWatcher(
            roots: roots,
            source: InotifyEventSource(watchLimitFile: Self.testWatchLimitFile),
            options: watcherOptions,
            log: { [logger] level, message in logger.log(level, message) }
        ) { [weak self] batch in
            guard let self else { return }
            let number = deliveredBatches.add(1, ordering: .sequentiallyConsistent).newValue
            reloads.async { self.apply(batch, number: number) }
        }
    }

    /// For tests only: `L10ND_TEST_WATCH_LIMIT_FILE` names a file whose number stands in for
    /// `fs.inotify.max_user_watches` (see ``InotifyEventSource/init(target:watchLimitFile:)``).
    static var testWatchLimitFile: String? {
        ProcessInfo.processInfo.environment["L10ND_TEST_WATCH_LIMIT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The watcher's settings, from the configuration.
    var watcherOptions: ResourceWatcher.Options {
        ResourceWatcher.Options(
            settle: .milliseconds(configuration.settleMilliseconds),
            allowSymlinksOutsideRoots: configuration.allowSymlinksOutsideRoots)
    }

    /// The limits of the configuration, as the server takes them.
    var limits: ServerLimits {
        ServerLimits(
            maxMessageBytes: configuration.maxMessageBytes,
            maxConnections: configuration.maxConnections,
            idleTimeout: configuration.idleTimeoutSeconds == 0 ? .infinity : Double(configuration.idleTimeoutSeconds),
            maxOutputBufferBytes: configuration.maxOutputBufferBytes,
            requestTimeout: Double(configuration.requestTimeoutSeconds))
    }

    /// The socket systemd passed us, or a new one at the configured path.
    private func makeListener() throws -> SocketListener {
        if let activated = try SocketListener.activated() {
            logger.info("using the socket passed by systemd (socket activation)")
            return activated
        }
        return try bindListener()
    }

    /// A new socket at the configured path, its directory created when missing.
    private func bindListener() throws -> SocketListener {
        try SocketDirectory.prepare(forSocketAt: configuration.socketPath)
        // Always 0660 (docs/DAEMON.md, "Who may do what"): the group is the daemon's own unless
        // `socket_group` names another; lookups are for whoever that group admits.
        let listener: SocketListener
        do {
            listener = try SocketListener(path: configuration.socketPath, permissions: 0o660)
        } catch  where error.code == .addressInUse {
            // Said as it is: another l10nd only when it answers `hello` as one. Its socket is
            // live, so it is left alone (SocketListener never unlinks a socket that accepts).
            throw SocketError(
                code: .addressInUse, errno: error.errno,
                message: SocketOccupant.describe(configuration.socketPath)
                    + "; its socket is left alone: stop that program, or give l10nd another socket")
        }
        if let group = configuration.socketGroup {
            try SocketPermissions.assignGroup(group, to: configuration.socketPath)
        }
        return listener
    }

    /// Once every ``ConnectionLimitLog/checkInterval``, on a queue of its own (a long reload,
    /// a huge file parsing, must delay neither):
    ///
    /// - checks the socket file, unless systemd passed the socket. A tmp cleaner or a careless
    ///   `rm -r` can remove the socket or its directory; the listening descriptor lives on, so
    ///   connected clients notice nothing, but nobody new can connect (`ENOENT`). Nothing tells
    ///   a process its socket file went away, hence the timer: one `lstat` per tick.
    /// - logs when clients start being refused at `max_connections` and when that stops: one
    ///   line each per burst (``ConnectionLimitLog``).
    private func startHousekeeping(_ server: SocketServer) {
        let checksSocketFile = startedParts.withLock({ $0.listener })?.isAdopted == false
        // Confined to the timer's serial queue.
        nonisolated(unsafe) var log = ConnectionLimitLog(limit: configuration.maxConnections)
        let timer = DispatchSource.repeatingTimer(
            every: ConnectionLimitLog.checkInterval, leeway: .milliseconds(200),
            queue: DispatchQueue(label: "l10nd.housekeeping")
        ) { [weak self, weak server] in
            guard let self, let server else { return }
            if checksSocketFile { checkSocketFile() }
            log.limit = configuration.maxConnections  // as a reload left it
            if let line = log.check(refusedTotal: server.statistics.connectionsRefused) {
                logger.log(line.level, line.message)
            }
        }
        startedParts.withLock { $0.housekeeping = Housekeeping(timer: timer) }
    }

    /// Binds a new socket at the configured path when the file is gone (or was replaced),
    /// and hands it to the server; the failure, if any, is logged once and shown in `status`.
    func checkSocketFile() {
        let (listener, server) = startedParts.withLock { ($0.listener, $0.server) }
        guard phase.withLock({ $0 }) == .running, let listener, let server, !listener.isFileInPlace else { return }
        do {
            let replacement = try bindListener()
            startedParts.withLock { $0.listener = replacement }
            server.replaceListener(with: replacement)
            socketFile.withLock {
                $0.recreated += 1
                $0.lastError = nil
            }
            logger.warning(
                "the socket file \(configuration.socketPath) was removed; listening on a new one at the same path")
        } catch {
            let message =
                "the socket file \(configuration.socketPath) was removed or replaced and cannot be re-created: \(error)"
            let isNew = socketFile.withLock { state in
                defer { state.lastError = message }
                return state.lastError != message
            }
            if isNew { logger.error(message) }
        }
    }

    private func makeService() -> LookupService {
        LookupService(
            store: store, missing: missing, counters: counters,
            actions: LookupService.Actions(
                reload: { [weak self] done in
                    guard let self else { return }
                    fullReloads.request(
                        perform: { self.fullReload(reason: "reload requested over the socket") }, done: done)
                },
                status: { [weak self] in self?.statusParts() },
                metrics: { [weak self] in self?.metricFamilies() ?? [] }),
            administrators: [0, getuid()])
    }

    /// Applies one settled batch from the watcher, the `number`th it delivered.
    func apply(_ batch: ChangeBatch, number: UInt64) {
        let started = DurationHistogram.now()
        let summary: ChangeSummary
        if batch.fullRescan {
            logger.info("full rescan: \(batch.reasons.joined(separator: "; "))")
            // The rescan a `reload` or SIGHUP asked the watcher for (and anything delivered
            // before it) has been read by ``fullReload(reason:)`` itself, after it.
            guard number > batchesCoveredByReload.load(ordering: .sequentiallyConsistent) else { return }
            counters.add(1, to: .rescans)
            summary = store.rescan()
        } else {
            summary = store.refresh(paths: batch.files + batch.directories)
        }
        counters.reloadDurations.record(since: started)
        publish(summary)
    }

    /// Serves what the parse of `path`, finished apart from `reloads`, found.
    func applyParsed(_ path: String) {
        let started = DurationHistogram.now()
        let summary = store.refreshParsed(path)
        counters.reloadDurations.record(since: started)
        publish(summary)
    }

    /// Files this large or larger are parsed apart from `reloads` (a 1 MiB String Catalog
    /// takes about 10 ms in a release build): a small edit is not served after them.
    static let backgroundParseBytes = 1 << 20

    /// How many times a reload looks again at files it found gone or emptied, a grace apart,
    /// before it answers (a file still being written after that is left to the watcher).
    static let heldFileLooks = 3

    /// Re-establishes every watch, re-reads every root, and returns once the new tables
    /// are served (for `reload`, SIGHUP and `ExecReload=`).
    func fullReload(reason: String) -> ChangeSummary {
        notify { try notifier.reloading() }
        logger.info(reason)
        let started = DurationHistogram.now()
        let reread = rereadConfiguration()
        if !reread.settingsChanged {
            startedParts.withLock { $0.watcher }?.rescan(reason: reason)
        }
        // Every batch delivered so far, the rescan's own among them, is read below.
        batchesCoveredByReload.store(
            deliveredBatches.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
        counters.add(1, to: .rescans)
        var summary =
            reread.settingsChanged ? store.reconfigure(reread.settings) : store.rescan(waitingForParses: true)
        // A reload answers for the disk as it is now: a file found gone or emptied is held
        // for the store's grace (a save may be in progress), so look again once the grace has
        // passed instead of leaving the drop to a later timer (with a long `settle_ms`, a
        // deleted table stayed served after `l10nctl reload` said it was done).
        for _ in 0..<Self.heldFileLooks where !summary.heldFiles.isEmpty {
            usleep(UInt32((store.holdGrace + .milliseconds(20)) / .microseconds(1)))
            summary.absorb(store.refresh(paths: summary.heldFiles, waitingForParses: true))
        }
        summary.configuration = reread.report
        // Judged on the tables just read: a language no root serves shows only now.
        if summary.configuration?.error == nil { summary.configuration?.warnings = configurationWarnings() }
        counters.reloadDurations.record(since: started)
        publish(summary)
        notify { try notifier.ready(status: statusLine()) }
        return summary
    }

    /// Has the watcher report `files` again once the store's grace for files found empty has
    /// passed: a rewrite in place has then finished, or the file was emptied on purpose. The
    /// watcher holds a file that is still being written until it is closed.
    private func recheck(_ files: [String]) {
        // None during start-up's first load, which knows no earlier content to hold.
        guard !files.isEmpty, let watcher = startedParts.withLock({ $0.watcher }) else { return }
        // A little beyond the grace, so the file's change time is past it when read.
        let delay = DispatchTimeInterval(store.holdGrace + .milliseconds(20))
        logger.debug("held while being rewritten (empty where they had content): \(files.joined(separator: ", "))")
        reloads.asyncAfter(deadline: .now() + delay) { [weak watcher] in
            watcher?.recheck(files: files)
        }
    }

    /// Broadcasts, counts and logs what a refresh did, then gives the heap's freed pages back.
    ///
    /// The events go first, straight after the swap: a mapped client answers from its old
    /// generation until the `changed` event reaches it, so whatever ran before the broadcast
    /// (the heap trim took 1–13 ms after a 100k-key parse on a loaded host, the log lines)
    /// made it see the edit that much later than a client asking the daemon each time.
    private func publish(_ summary: ChangeSummary) {
        // Counted before the events: a `status` asked on one shows its reload.
        counters.add(summary.filesParsed, to: .filesParsed)
        if !summary.changes.isEmpty { counters.add(1, to: .reloads) }
        let server = startedParts.withLock { $0.server }
        // A key translated by this reload leaves the missing-key report.
        if !summary.changes.isEmpty { startedParts.withLock { $0.service }?.forgetAnsweredMisses() }
        // A save that does not parse is told to watchers too (`l10nctl watch`), where it is.
        if !summary.newErrors.isEmpty {
            let errors = summary.newErrors.map {
                WireFileError(
                    file: $0.location.file ?? "", line: $0.location.line, column: $0.location.column,
                    message: $0.message)
            }
            server?.broadcast(.fileErrors(generation: summary.generation, errors: errors))
        }
        if !summary.changes.isEmpty {
            // The segments were built by the reload: a `map` on this event hands them out at once.
            server?.broadcast(
                .changed(
                    generation: summary.generation,
                    changes: summary.changes.map { WireTableChange(language: $0.language, table: $0.table) }))
        }
        for line in FileErrorLog.lines(
            for: summary.newErrors, kept: true, unserved: summary.unservedErrorFiles)
        { logger.warning(line) }
        for error in summary.newLostEntries {
            logger.warning(error.rule == .emptyFile ? "\(error)" : "\(error) (the rest of the file is served)")
        }
        for error in summary.newRootErrors { logger.error("\(error)") }
        recheck(summary.heldFiles)
        if !summary.changes.isEmpty {
            logger.info(TableChangeLog.line(generation: summary.generation, changes: summary.changes))
        }
        // Also without a change of tables: a root gone or back changes the "Degraded:" part.
        logConfigurationWarningsIfChanged()
        notifyStatusIfChanged()
        HeapTrim.afterReload(summary)
    }

    /// Sends systemd's `STATUS=` when the line differs from the last one sent.
    private func notifyStatusIfChanged() {
        let line = statusLine()
        guard
            lastStatusLine.withLock({ last in
                defer { last = line }; return last != line
            })
        else { return }
        notify { try notifier.status(line) }
    }

    /// SIGHUP reloads; SIGTERM and SIGINT drain and stop; SIGPIPE is ignored (the
    /// executable ignores it first thing too), so a vanished reader of stderr or of a socket
    /// is an `EPIPE` for that one write, never the end of the daemon.
    private func installSignalHandlers(onStop: @escaping @Sendable (Int32) -> Void) {
        var sources: [any DispatchSourceSignal] = []
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGHUP, SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                if number == SIGHUP {
                    fullReloads.request(perform: { self.fullReload(reason: "SIGHUP: reloading") })
                } else {
                    stop(onStop: onStop)
                }
            }
            source.resume()
            sources.append(source)
        }
        let installed = SignalSources(sources: sources)
        startedParts.withLock { $0.signalSources = installed }
    }

    /// Stops accepting, answers what is pending, closes, removes the socket file (unless
    /// systemd owns it), then calls `onStop(0)`.
    package func stop(onStop: @escaping @Sendable (Int32) -> Void) {
        let first = phase.withLock { phase in
            defer { phase = .stopping }
            return phase == .running || phase == .starting
        }
        guard first else { return }
        logger.notice("stopping")
        notify { try notifier.stopping() }
        notifier.stopWatchdog()
        // First: a probe finding nothing there reads the daemon as not ready while it drains.
        stopMetricsEndpoint()
        let (watcher, server, listener, housekeeping) = startedParts.withLock {
            ($0.watcher, $0.server, $0.listener, $0.housekeeping)
        }
        housekeeping?.timer.cancel()
        guard let server else {
            watcher?.stop()
            listener?.close()  // stopped during start-up, before the server took the listener
            onStop(0)
            return
        }
        // Beside the drain, not before it: the exit must not wait on the watcher (its queue
        // may be in a rescan, its inotify thread in a wait), and the process ends anyway.
        // What its log held for a burst's next line is said first, at once.
        watcher?.flushLog()
        if let watcher { DispatchQueue.global().async { watcher.stop() } }
        server.stop { [weak self] in
            self?.phase.withLock { $0 = .stopped }
            onStop(0)
        }
    }

    /// `STATUS=` text: what systemctl status shows; it starts `Degraded:` with the
    /// problems when a root is missing or no language is served.
    func statusLine() -> String {
        let snapshot = store.snapshot
        let problems = problems()
        var line = problems.isEmpty ? "" : "Degraded: \(problems.joined(separator: "; ")). "
        line += configurationStatusPrefix()
        line +=
            "Serving \(snapshot.segments.languages.count) languages, \(snapshot.segments.keyCount) keys, generation \(snapshot.generation)"
        if !snapshot.errors.isEmpty { line += "; \(snapshot.errors.count) errors (files or entries left out)" }
        return line
    }

    /// The daemon's parts of `status`: its process, the watcher's and server's counters,
    /// the socket file.
    func statusParts() -> StatusReport.DaemonParts {
        let (watcher, server, listener) = startedParts.withLock { ($0.watcher, $0.server, $0.listener) }
        var socket: StatusReport.SocketFile?
        if let listener, !listener.isAdopted {
            let state = socketFile.withLock { $0 }
            socket = StatusReport.SocketFile(
                path: configuration.socketPath, inPlace: listener.isFileInPlace, recreated: state.recreated,
                lastError: state.lastError)
        }
        return StatusReport.DaemonParts(
            version: DaemonVersion.string,
            uptimeSeconds: Int64((ContinuousClock.now - startedAt).components.seconds),
            roots: store.roots, developmentLanguage: store.developmentLanguage.identifier, problems: problems(),
            watcher: watcher?.statistics, socket: socket, server: server?.statistics,
            droppedLogLines: logger.droppedLines, configuration: configurationReport())
    }

    /// Sends to systemd, logging (not failing) when the notify socket refuses.
    private func notify(_ body: () throws -> Void) {
        do { try body() } catch { logger.warning("systemd notify: \(error)") }
    }
}
