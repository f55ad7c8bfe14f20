import LocalizationCore
import LocalizationWire

/// The `status` reply, built here and nowhere else: what the tables hold and the counters
/// (which the ``LookupService`` answers from), and what the daemon around the service adds
/// (``DaemonParts``: its process, the watcher, the socket file, the server, the log). A
/// service running on its own, as in tests, has no daemon parts, and the reply has none of
/// their members. Public only as what ``LookupService/Actions/status`` returns: nothing
/// outside the module makes or reads one.
package struct StatusReport: Sendable {
    /// What the daemon around the service adds to `status`.
    package struct DaemonParts: Sendable {
        /// The daemon's version (`version`).
        var version: String
        /// Whole seconds since the daemon started (`uptime_seconds`).
        var uptimeSeconds: Int64
        /// The resource roots, in precedence order (`roots`).
        var roots: [String]
        /// The language every chain ends with (`development_language`).
        var developmentLanguage: String
        /// What keeps the daemon from serving as configured (`problems`; `degraded` when any).
        var problems: [String]
        /// The watcher's counters, when it runs (`watcher`).
        var watcher: ResourceWatcher.Statistics?
        /// The socket file the daemon bound, unless systemd passed the socket (`socket`).
        var socket: SocketFile?
        /// The server's counters, when it runs (`server`).
        var server: SocketServerStatistics?
        /// Log lines the output refused (`log.lines_dropped`).
        var droppedLogLines: Int
        /// The configuration's file, reloads, last error and warnings (`configuration`).
        var configuration: WireValue?
    }

    /// The socket file the daemon bound, and what became of it.
    package struct SocketFile: Sendable {
        /// Where it is.
        var path: String
        /// Whether the file at `path` is still the daemon's socket.
        var inPlace: Bool
        /// How often it was bound again after it went missing.
        var recreated: Int
        /// Why binding it again failed, last time it did.
        var lastError: String?
    }

    /// The tables served.
    var snapshot: ResourceSnapshot
    /// The lookups, misses and reloads counted since start.
    var counters: DaemonCounters
    /// What the daemon adds; `nil` for a service on its own.
    var daemon: DaemonParts?

    /// The reply's members.
    var fields: [String: WireValue] {
        var fields: [String: WireValue] = [
            "generation": .integer(Int64(snapshot.generation)),
            "languages": .integer(Int64(snapshot.segments.languages.count)),
            "tables": .integer(Int64(snapshot.segments.tableCount)),
            "keys": .integer(Int64(snapshot.segments.keyCount)),
            "files": .integer(Int64(snapshot.fileCount)),
            "errors": .array(snapshot.errors.map(LookupService.wireValue)),
            "counters": .object(
                Dictionary(
                    uniqueKeysWithValues: DaemonCounters.Counter.allCases.map { counter in
                        (counter.rawValue, .integer(Int64(counters.value(counter))))
                    }
                ).merging(["lookups": .integer(Int64(counters.lookups))]) { old, _ in old }),
        ]
        guard let daemon else { return fields }
        fields["version"] = .string(daemon.version)
        fields["uptime_seconds"] = .integer(daemon.uptimeSeconds)
        fields["roots"] = .array(daemon.roots.map(WireValue.string))
        fields["development_language"] = .string(daemon.developmentLanguage)
        fields["degraded"] = .bool(!daemon.problems.isEmpty)
        fields["problems"] = .array(daemon.problems.map(WireValue.string))
        if let statistics = daemon.watcher {
            var watcher = Self.counts([
                "events": statistics.events, "batches": statistics.batches, "rescans": statistics.rescans,
                "overflows": statistics.overflows, "watches": statistics.watchCount,
                "unwatched_count": statistics.unwatchedCount, "polled_changes": statistics.polledChanges,
                "polled_files": statistics.polledFiles,
            ])
            watcher.merge([
                "last_error": statistics.lastError.map(WireValue.string) ?? .null,
                // A problem that is over, with when it ended: history, not a current fault.
                "resolved_error": statistics.resolvedError.map(WireValue.string) ?? .null,
                // A root that exists as a file is not missing: it is named apart, so the fix
                // (give a directory) is not mistaken for "create it".
                "missing_roots": .array(statistics.absentRoots.map(WireValue.string)),
                "not_directory_roots": .array(statistics.notDirectoryRoots.map(WireValue.string)),
                // Nor is one behind a directory the daemon may not enter: the fix is a permission.
                "permission_denied_roots": .array(statistics.permissionDeniedRoots.map(WireValue.string)),
                "unwatched": .array(
                    statistics.unwatched.map { directory in
                        .object([
                            "path": .string(directory.path), "reason": .string(directory.reason.rawValue),
                            "message": .string(directory.message), "polled": .bool(directory.polled),
                            "kind": .string(directory.isFile ? "file" : "directory"),
                        ])
                    }),
            ]) { count, _ in count }
            fields["watcher"] = .object(watcher)
        }
        if let socket = daemon.socket {
            fields["socket"] = .object([
                "path": .string(socket.path),
                "in_place": .bool(socket.inPlace),
                "recreated": .integer(Int64(socket.recreated)),
                "last_error": socket.lastError.map(WireValue.string) ?? .null,
            ])
        }
        if let statistics = daemon.server {
            fields["server"] = .object(
                Self.counts([
                    "connections_accepted": statistics.connectionsAccepted,
                    "connections_current": statistics.connectionsCurrent,
                    "connections_refused": statistics.connectionsRefused,
                    "connections_cut_off": statistics.connectionsCutOff,
                    "connections_timed_out": statistics.connectionsTimedOut,
                    "requests_timed_out": statistics.requestsTimedOut, "accept_pauses": statistics.acceptPauses,
                    "requests": statistics.requests, "errors": statistics.errors, "subscribers": statistics.subscribers,
                ]))
        }
        fields["log"] = .object(["lines_dropped": .integer(Int64(daemon.droppedLogLines))])
        if let configuration = daemon.configuration { fields["configuration"] = configuration }
        return fields
    }

    /// An object of counts, each a JSON integer.
    private static func counts(_ members: [String: Int]) -> [String: WireValue] {
        members.mapValues { .integer(Int64($0)) }
    }
}
