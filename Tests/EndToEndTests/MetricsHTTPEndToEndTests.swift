import Foundation
import Glibc
import TestSupport
import Testing

/// `metrics_listen` with the built daemon: `curl` scrapes `/metrics` on real loopback (port 0,
/// the port read from the log) and on a Unix socket, `/healthz` and `/readyz` answer, other
/// paths get 404, a bad address stops the start, and with no `metrics_listen` nothing listens.
@Suite struct MetricsHTTPEndToEndTests {
    static let curl = "/usr/bin/curl"

    /// A daemon over the example resources with `lines` in its l10nd.conf.
    func daemon(_ lines: [String], in directory: TemporaryDirectory) throws -> DaemonProcess {
        let config = try directory.write(lines.joined(separator: "\n") + "\n", to: "l10nd.conf")
        return try DaemonProcess(resources: [PackagePaths.exampleResources], arguments: ["--config", config])
    }

    /// The base URL the daemon logged for `/metrics` (port 0 made concrete).
    func baseURL(_ daemon: DaemonProcess) throws -> String {
        let log = daemon.log
        let match = try #require(
            log.firstMatch(of: /metrics and health over HTTP at (http:\/\/\S+)\/metrics/), "no metrics line in: \(log)")
        return String(match.1)
    }

    /// `curl -s` of `url`: status, content type, body.
    func get(_ url: String, extra: [String] = []) throws -> (status: Int, type: String, body: String) {
        let marker = "\n--curl--"
        let output = try ProcessRunner.run(
            Self.curl, extra + ["-s", "--max-time", "10", "-w", marker + "%{http_code} %{content_type}", url])
        #expect(output.status == 0, "curl \(url): \(output.stderr)")
        let parts = output.stdout.components(separatedBy: marker)
        let trailer = parts.last ?? ""
        let space = trailer.firstIndex(of: " ") ?? trailer.endIndex
        return (
            Int(trailer[..<space]) ?? -1, String(trailer[space...].dropFirst()),
            parts.dropLast().joined(separator: marker)
        )
    }

    /// Listening TCP sockets (IPv4 and IPv6) that are `pid`'s own, as `host:port` in hex.
    func listeningTCPSockets(of daemon: DaemonProcess) -> [String] {
        let inodes = Set(
            daemon.descriptorTargets.compactMap { target -> String? in
                // `3 → socket:[1234]`
                guard let match = target.firstMatch(of: /socket:\[(\d+)\]/) else { return nil }
                return String(match.1)
            })
        var listening: [String] = []
        for table in ["tcp", "tcp6"] {
            let text =
                (try? String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/net/\(table)", encoding: .utf8))
                ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // local_address is field 1, st (0A: LISTEN) field 3, inode field 9.
                if fields.count > 9, fields[3] == "0A", inodes.contains(String(fields[9])) {
                    listening.append(String(fields[1]))
                }
            }
        }
        return listening
    }

    @Test func metricsAndHealthOverLoopback() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-metrics-http")
        let daemon = try daemon(["metrics_listen = 127.0.0.1:0"], in: directory)
        let client = try daemon.connect()
        _ = try client.request(["op": "lookup", "key": "nowhere", "lang": "ja"])
        let base = try baseURL(daemon)
        #expect(!base.hasSuffix(":0"), "port 0 not resolved: \(base)")
        #expect(listeningTCPSockets(of: daemon).count == 1)

        let metrics = try get(base + "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.type.hasPrefix("text/plain; version=0.0.4"), "\(metrics.type)")
        let exposition = try MetricsExposition(metrics.body)
        #expect(exposition.types["l10nd_lookups_total"] == "counter")
        #expect(exposition[#"l10nd_lookups_total{found="false"}"#] == 1)
        // The daemon's families too (the same renderer as `l10nctl metrics`).
        #expect(exposition.types["l10nd_connections"] == "gauge" && exposition["l10nd_degraded"] == 0)
        #expect(metrics.body.hasSuffix("# EOF\n"))

        let health = try get(base + "/healthz")
        #expect(health.status == 200 && health.body == "ok\n", "\(health)")
        let ready = try get(base + "/readyz")
        #expect(ready.status == 200 && ready.body == "ready\n", "\(ready)")
        #expect(try get(base + "/elsewhere").status == 404)
        #expect(try get(base + "/metrics", extra: ["-X", "POST"]).status == 405)

        // The socket file gone: not ready until the daemon puts it back (every 2 s).
        #expect(unlink(daemon.socketPath) == 0)
        let gone = try get(base + "/readyz")
        #expect(gone.status == 503 && gone.body.contains("is not in place"), "\(gone)")
        let deadline = Date().addingTimeInterval(10)
        var back = gone
        while back.status != 200, Date() < deadline {
            usleep(100_000)
            back = try get(base + "/readyz")
        }
        #expect(back.status == 200, "\(back)")
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: MetricsEndToEndTests.promtool),
            "promtool is not installed: apt-get install prometheus (or scripts/install-dependencies prometheus)"))
    func promtoolAcceptsTheScrape() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-metrics-http")
        let daemon = try daemon(["metrics_listen = [::1]:0"], in: directory)
        let text = try get(try baseURL(daemon) + "/metrics").body
        let check = try ProcessRunner.run(MetricsEndToEndTests.promtool, ["check", "metrics"], stdin: text)
        #expect(check.status == 0, "promtool: \(check.stdout)\(check.stderr)\n\(text)")
    }

    @Test func aUnixSocketServesTheSame() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-metrics-http")
        let path = directory.path + "/metrics.sock"
        let daemon = try daemon(["metrics_listen = \(path)"], in: directory)
        let metrics = try get("http://localhost/metrics", extra: ["--unix-socket", path])
        #expect(metrics.status == 200 && metrics.body.contains("# TYPE l10nd_languages gauge"), "\(metrics)")
        #expect(try get("http://localhost/readyz", extra: ["--unix-socket", path]).status == 200)
        #expect(listeningTCPSockets(of: daemon).isEmpty)
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: path), "the metrics socket file is left behind")
    }

    /// `--metrics-listen` on the command line, as a Kubernetes container's `args:` give it
    /// (deploy/kubernetes): `/readyz` and `/healthz`, what its probes ask, answer 200.
    @Test func theFlagServesWhatTheProbesAsk() throws {
        let daemon = try DaemonProcess(
            resources: [PackagePaths.exampleResources], arguments: ["--metrics-listen", "127.0.0.1:0"])
        let base = try baseURL(daemon)
        let ready = try get(base + "/readyz")
        #expect(ready.status == 200 && ready.body.hasPrefix("ready"), "\(ready)")
        let healthy = try get(base + "/healthz")
        #expect(healthy.status == 200 && healthy.body.hasPrefix("ok"), "\(healthy)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test func offByDefaultNothingListens() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        #expect(try daemon.request(["op": "status"])["version"] != nil)
        #expect(listeningTCPSockets(of: daemon).isEmpty)
        #expect(!daemon.log.contains("over HTTP"), "\(daemon.log)")
    }

    @Test(arguments: ["localhost:9464", "127.0.0.1", "127.0.0.1:99999", "[::1:9464", "metrics.sock"])
    func aBadAddressIsAClearError(value: String) throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-metrics-http")
        let config = try directory.write("metrics_listen = \(value)\n", to: "l10nd.conf")
        let output = try ProcessRunner.run(
            PackagePaths.executable("l10nd"),
            ["--config", config, "--resources", PackagePaths.exampleResources, "--socket", directory.path + "/s"])
        #expect(output.status != 0)
        #expect(
            output.stderr.contains("metrics_listen")
                && output.stderr.contains("expected an IP address and port such as 127.0.0.1:9464"),
            "\(output.stderr)")
    }

    /// A port someone else holds stops the start with the address named.
    @Test func aBusyPortStopsTheStart() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-metrics-http")
        let first = try daemon(["metrics_listen = 127.0.0.1:0"], in: directory)
        let port = try #require(try baseURL(first).split(separator: ":").last)
        let config = try directory.write("metrics_listen = 127.0.0.1:\(port)\n", to: "second.conf")
        let output = try ProcessRunner.run(
            PackagePaths.executable("l10nd"),
            ["--config", config, "--resources", PackagePaths.exampleResources, "--socket", directory.path + "/s2"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("metrics_listen 127.0.0.1:\(port): cannot listen"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/s2"), "the socket file is left behind")
    }

    /// `metrics_listen` is bound at start: a reload naming another address says it waits for
    /// a restart (reply, `status`), and the endpoint goes on answering where it was.
    @Test func aChangedAddressWaitsForARestart() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-metrics-http")
        let daemon = try daemon(["metrics_listen = 127.0.0.1:0"], in: directory)
        let base = try baseURL(daemon)
        _ = try directory.write("metrics_listen = [::1]:0\n", to: "l10nd.conf")
        let output = try ProcessRunner.run(
            PackagePaths.executable("l10nctl"), ["reload", "--socket", daemon.socketPath])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("configuration: metrics_listen [::1]:0"), "\(output.stdout)")
        #expect(output.stdout.contains("takes effect at the next restart"), "\(output.stdout)")
        let configuration = try #require(try daemon.request(["op": "status"])["configuration"] as? [String: Any])
        let waiting = try #require(configuration["restart_needed"] as? [String])
        #expect(waiting.count == 1 && waiting[0].hasPrefix("metrics_listen"), "\(waiting)")
        #expect(try get(base + "/metrics").status == 200)
    }

    /// The running address a waiting change names is the one bound (an outside tester's
    /// find: after a reload it was the configured `127.0.0.1:0`, and after a second the
    /// first reload's address, which was never bound).
    @Test func aWaitingChangeNamesTheAddressBound() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-metrics-http")
        let daemon = try daemon(["metrics_listen = 127.0.0.1:0"], in: directory)
        let bound = try #require(try baseURL(daemon).split(separator: "/").last.map(String.init))
        for lines in ["metrics_listen = 127.0.0.1:19999\n", "\n"] {
            _ = try directory.write(lines, to: "l10nd.conf")
            let output = try ProcessRunner.run(
                PackagePaths.executable("l10nctl"), ["reload", "--socket", daemon.socketPath])
            #expect(output.status == 0, "\(output.stderr)")
            let configuration = try #require(try daemon.request(["op": "status"])["configuration"] as? [String: Any])
            let waiting = try #require(configuration["restart_needed"] as? [String])
            #expect(waiting.count == 1 && waiting[0].hasSuffix("(was \(bound))"), "\(lines): \(waiting)")
        }
        #expect(daemon.stop() == 0)
        #expect(!daemon.log.contains("running with 127.0.0.1:0 "), "\(daemon.log)")
        #expect(!daemon.log.contains("running with 127.0.0.1:19999"), "\(daemon.log)")
        #expect(daemon.log.contains("running with \(bound) until then"), "\(daemon.log)")
    }
}
