import Foundation
import LocalizationWire
import TestSupport
import Testing

@testable import Localization

/// Outside testers: at `max_connections` the refused client read "too many connections",
/// `l10nctl` printed "send failed: Broken pipe", and the daemon's log said nothing. Now each
/// says the daemon is at its connection limit, and the log says so once per burst.
@Suite struct ConnectionLimitTests {
    static let limitLine = "l10nd is at its connection limit (max_connections = 1); try again later"

    /// A daemon with `max_connections = 1`, and the client that holds its one connection.
    static func daemonAtItsLimit() throws -> (daemon: DaemonProcess, holder: JSONLineClient?) {
        let directory = try TemporaryDirectory(prefix: "l10nd-conf")
        let config = try directory.write("max_connections = 1\n", to: "l10nd.conf")
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources], arguments: ["--config", config])
        // Holds the one connection; answered, so it is in the daemon's table (the start-up
        // probe's connection may not be closed there yet: then this one is refused, and retried).
        var holder: JSONLineClient?
        #expect(
            eventually {
                holder = try? daemon.connect()
                return (try? holder?.request(["op": "hello"]))??["ok"] as? Bool == true
            })
        return (daemon, holder)
    }

    @Test func refusedClientsAndTheLogSayTheDaemonIsAtItsConnectionLimit() throws {
        let daemon: DaemonProcess
        var holder: JSONLineClient?
        do {
            // Not kept beyond this block: `holder = nil` below must close the connection.
            let limited = try Self.daemonAtItsLimit()
            (daemon, holder) = (limited.daemon, limited.holder)
        }
        let limitLine = Self.limitLine
        let refused = try JSONLineClient(path: daemon.socketPath).readObject()
        #expect((refused["error"] as? [String: Any])?["message"] as? String == limitLine, "\(refused)")
        // Deterministically the broken-pipe case `l10nctl` met: the daemon has already said
        // why and closed when the request is sent.
        func refusedSoFar() -> Int {
            let server = (try? holder?.request(["op": "status"]))??["server"] as? [String: Any]
            return server?["connections_refused"] as? Int ?? 0
        }
        let before = refusedSoFar()
        let connection = try DaemonConnection(socketPath: daemon.socketPath, timeout: 5)
        #expect(eventually { refusedSoFar() > before })
        guard case .error(let error) = try connection.send(.status) else {
            Issue.record("a refused connection's request got no error")
            return
        }
        #expect(error.code == .unavailable && error.message == limitLine, "\(error)")
        // `get` looks up through the client library, which falls back quietly: it said no
        // daemon was listening until it asked the daemon why.
        let commands = [
            ["status"], ["reload"], ["languages"], ["missing"], ["metrics"], ["get", "保存", "--lang", "fr"], ["status"],
        ]
        for command in commands {
            let result = try ProcessRunner.run(
                PackagePaths.executable("l10nctl"), command + ["--socket", daemon.socketPath],
                environment: ["PATH": "/usr/bin:/bin"])
            #expect(result.status == 1, "\(command): \(result)")
            #expect(
                result.stderr == "l10nctl: error: the daemon refused: \(limitLine) (unavailable)\n",
                "\(command): \(result.stderr)")
        }
        // One line for the burst, and one when it is over (a second without refusals).
        holder = nil
        let ended = "below the connection limit again: "
        #expect(eventually(10) { daemon.log.contains(ended) }, "\(daemon.log)")
        let refusedCount = try #require(
            (try daemon.request(["op": "status"])["server"] as? [String: Any])?["connections_refused"] as? Int)
        #expect(refusedCount >= 5)
        #expect(
            daemon.log.contains(ended + "\(refusedCount) clients were refused (max_connections = 1)")
                || daemon.log.components(separatedBy: ended).count > 2, "\(daemon.log)")
        let started = "at the connection limit (max_connections = 1): refusing new clients until some leave"
        let bursts = daemon.log.components(separatedBy: started).count - 1
        #expect(
            bursts >= 1 && bursts <= 2 && bursts == daemon.log.components(separatedBy: ended).count - 1, "\(daemon.log)"
        )
        // The limit is a limit, not a failure: the next client is served.
        // (Once the daemon has seen the last connection close.)
        #expect(
            eventually {
                (try? daemon.request(["op": "lookup", "key": "保存", "lang": "de"]))?["value"] as? String == "Sichern"
            })
    }

    /// Chaos round 3: with 400 processes at the limit, `l10nctl status` was refused 6 times
    /// of 6 — monitoring went blind exactly when it mattered. The last connections are kept
    /// for root and the daemon's own user (`SO_PEERCRED` at accept): another user who fills
    /// every connection gets all but those, and root still gets in.
    @Test func theOperatorGetsInWhenAnotherUserFillsEveryConnection() throws {
        // Two users are needed: root, to whom the daemon's connections are kept, and another.
        guard let stranger = FaultTests.unprivilegedUser else { return }
        let limit = 6
        let kept = 4  // the connections kept for the operator (DAEMON.md, `max_connections`)
        let directory = try TemporaryDirectory(prefix: "l10nd-conf")
        let config = try directory.write("max_connections = \(limit)\n", to: "l10nd.conf")
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources], arguments: ["--config", config])
        // Only this connection (root's) is open once the start-up probe's has gone.
        let observer = try daemon.connect()
        #expect(
            eventually {
                ((try? observer.request(["op": "status"]))?["server"] as? [String: Any])?["connections_current"] as? Int
                    == 1
            })
        // The stranger may reach the socket (the daemon's socket is 0660, its directory 0700).
        chmod((daemon.socketPath as NSString).deletingLastPathComponent, 0o755)
        chmod(daemon.socketPath, 0o666)
        let script = """
            import json, socket, sys, time
            held, results = [], []
            for _ in range(int(sys.argv[2])):
                s = socket.socket(socket.AF_UNIX)
                s.connect(sys.argv[1])
                s.settimeout(10)
                try:
                    s.sendall(b'{"op":"hello","id":1}\\n')
                except OSError:
                    pass  # refused: the line saying why is read below
                line = s.makefile("rb").readline()
                results.append(json.loads(line) if line else None)
                held.append(s)
            print(json.dumps(results), file=sys.stderr, flush=True)
            time.sleep(600)
            """
        let strangers = try BackgroundProcess(
            "/usr/bin/setpriv",
            ["--reuid=\(stranger)", "--regid=\(stranger)", "--clear-groups", "/usr/bin/python3", "-c", script]
                + [daemon.socketPath, "\(limit)"])
        defer { strangers.stop() }
        #expect(eventually(20) { strangers.log.hasSuffix("\n") }, "\(strangers.log)")
        let replies = try #require(
            try JSONSerialization.jsonObject(with: Data(strangers.log.utf8)) as? [Any], "\(strangers.log)")
        let answered = replies.filter { ($0 as? [String: Any])?["ok"] as? Bool == true }
        let refusals = replies.compactMap {
            (($0 as? [String: Any])?["error"] as? [String: Any])?["message"] as? String
        }
        // Root's observer holds one of the connections another user may take.
        #expect(answered.count == limit - kept - 1, "\(replies)")
        let keptLine =
            "l10nd is at its connection limit (max_connections = \(limit), of which \(kept) are kept for root and l10nd's own user); try again later"
        #expect(refusals.count == kept + 1 && refusals.allSatisfy { $0 == keptLine }, "\(replies)")
        // Root gets in: a new connection, and `l10nctl status`.
        let operatorConnection = try daemon.connect()
        let status = try operatorConnection.request(["op": "status"])
        #expect(status["ok"] as? Bool == true, "\(status)")
        #expect(((status["server"] as? [String: Any])?["connections_refused"] as? Int ?? 0) >= kept + 1, "\(status)")
        let result = try ProcessRunner.run(
            PackagePaths.executable("l10nctl"), ["status", "--socket", daemon.socketPath],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result)")
    }

    /// Outside tester: a `Localizer` refused at the limit logged only "unreachable", and its
    /// lookups, which returned their keys, said `lastKnown`. It logs the daemon's reason, once,
    /// and says that the keys answer.
    @Test func aLocalizerRefusedAtTheLimitSaysWhyAndThatTheKeysAnswer() throws {
        let (daemon, holder) = try Self.daemonAtItsLimit()
        defer { withExtendedLifetime(holder) {} }
        let log = ClientFailoverTests.LogLines()
        let localizer = Localizer(environment: [:], log: log.handler)
        localizer.useDaemon(socketPath: daemon.socketPath, mode: .mapped, timeout: 1)
        defer { localizer.useEmbedded() }
        #expect(localizer.source == .keys)
        #expect(localizer.lookupWithSource("保存", languages: ["de"]) == (LookupResult.missing("保存"), .keys))
        #expect(
            log.all == [
                "l10nd-client: l10nd at \(daemon.socketPath) is unreachable (\(Self.limitLine)); lookups return their keys until it is back"
            ], "\(log.all)")
    }
}
