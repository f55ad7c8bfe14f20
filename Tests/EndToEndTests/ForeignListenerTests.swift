import Foundation
import TestSupport
import Testing

/// Chaos round 3: the daemon's socket file replaced by someone else's listener. `status`
/// (over a connection made before) says `degraded`, and names who listens: "another
/// l10nd" only when it answers `hello` as l10nd, else "a program that is not l10nd" with
/// its pid as `SO_PEERCRED` gives it.
@Suite struct ForeignListenerTests {
    typealias Fixture = FaultTests.Fixture

    /// A Python listener at `path` that answers every connection with a line that is not
    /// l10nd's (or with nothing, with `silent`). SIGTERM is unblocked first: the test
    /// process's threads block it, and a child inherits the mask (the WIP's hang: the
    /// listener never ended, and the test waited for it forever).
    static func foreignListener(at path: String, silent: Bool = false) throws -> BackgroundProcess {
        let script = """
            import signal, socket, sys
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)
            while True:
                c, _ = s.accept()
                try:
                    c.recv(100)
                    if sys.argv[2] == "talk": c.sendall(b'{"ok":true,"daemon":"imposter"}\\n')
                except OSError:
                    pass  # a prober that left before the answer
                c.close()
            """
        let process = try BackgroundProcess("/usr/bin/python3", ["-c", script, path, silent ? "silent" : "talk"])
        #expect(eventually(10) { FileManager.default.fileExists(atPath: path) }, "the listener never bound")
        return process
    }

    static func problems(_ status: [String: Any]) -> [String] { status["problems"] as? [String] ?? [] }

    @Test(arguments: [false, true]) func aProgramThatIsNotL10ndIsReportedAsSuch(silent: Bool) throws {
        let f = try Fixture(["en.lproj/Localizable.strings": "\"k\" = \"en\";\n"])
        let kept = try f.daemon.connect()
        #expect(unlink(f.daemon.socketPath) == 0)
        let foreign = try Self.foreignListener(at: f.daemon.socketPath, silent: silent)
        defer { foreign.stop(timeout: 2) }
        var status: [String: Any] = [:]
        #expect(
            eventually(10) {
                status = (try? kept.request(["op": "status"])) ?? [:]
                return status["degraded"] as? Bool == true
            }, "\(status)")
        let socket = status["socket"] as? [String: Any] ?? [:]
        #expect(socket["in_place"] as? Bool == false, "\(socket)")
        let problem = Self.problems(status).joined(separator: "; ")
        #expect(problem.contains("a program that is not l10nd (pid \(foreign.pid)"), "\(problem)")
        #expect(!problem.contains("another l10nd"), "\(problem)")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
        #expect(f.daemon.log.contains("a program that is not l10nd"), "\(f.daemon.log)")
    }

    /// At start, a live listener on the path (not l10nd) is refused with its pid, and its
    /// socket is left alone: still there, still accepting.
    @Test func aStartOnALiveForeignSocketIsRefusedNamingItsPid() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-foreign")
        let path = directory.path + "/l10nd.sock"
        let foreign = try Self.foreignListener(at: path)
        defer { foreign.stop(timeout: 2) }
        let started = try ProcessRunner.run(
            PackagePaths.executable("l10nd"), ["--resources", PackagePaths.exampleResources, "--socket", path],
            timeout: 30)
        #expect(started.status != 0, "\(started.stderr)")
        #expect(
            started.stderr.contains("a program that is not l10nd (pid \(foreign.pid) `python3`, user "),
            "\(started.stderr)")
        #expect(started.stderr.contains("its socket is left alone"), "\(started.stderr)")
        #expect(!started.stderr.contains("another l10nd"), "\(started.stderr)")
        let reply = try JSONLineClient(path: path, timeout: 5).request(["op": "hello"])
        #expect(reply["daemon"] as? String == "imposter", "\(reply)")
    }

    @Test func anotherL10ndIsReportedAsOne() throws {
        let f = try Fixture(["en.lproj/Localizable.strings": "\"k\" = \"en\";\n"])
        let other = try Fixture(["en.lproj/Localizable.strings": "\"k\" = \"other\";\n"])
        let kept = try f.daemon.connect()
        // The other daemon's socket, moved to this one's path: connecting there reaches it.
        #expect(rename(other.daemon.socketPath, f.daemon.socketPath) == 0)
        var status: [String: Any] = [:]
        #expect(
            eventually(10) {
                status = (try? kept.request(["op": "status"])) ?? [:]
                return status["degraded"] as? Bool == true
            }, "\(status)")
        let problem = Self.problems(status).joined(separator: "; ")
        #expect(problem.contains("another l10nd (pid \(other.daemon.process.processIdentifier)"), "\(problem)")
        #expect(f.daemon.stop() == 0, "\(f.daemon.log)")
        _ = other.daemon.stop()
    }
}
