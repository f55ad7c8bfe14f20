import Foundation
import Glibc
import TestSupport
import Testing

/// `l10nd --check-config` said `ok` for a `socket_group` the system has no group of and for
/// a `metrics_listen` that cannot be bound, and the start then failed. Now each is an error
/// at the line that set it, exit 2, as a bad line is; an address the running l10nd holds
/// (the check runs beside it) is a note.
@Suite struct ConfigurationBindingCheckTests {
    func check(_ settings: String) throws -> (output: ProcessOutput, file: String, directory: TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "l10nd-check")
        let file = try directory.write("resources = \(PackagePaths.exampleResources)\n\(settings)\n", to: "l10nd.conf")
        let output = try ProcessRunner.run(
            PackagePaths.executable("l10nd"), ["--check-config", "--config", file], timeout: 20)
        return (output, file, directory)
    }

    @Test func aGroupThatDoesNotExistIsAnErrorAtItsLine() throws {
        let (output, file, _) = try check("socket_group = l10nd-no-such-group")
        #expect(output.status == 2, "\(output)")
        #expect(
            output.stderr.hasPrefix(
                "l10nd: error: \(file):2: socket_group: no group named 'l10nd-no-such-group' on this system"),
            "\(output.stderr)")
        #expect(!output.stdout.contains("ok"), "\(output.stdout)")
        // A group that exists, by name or number, is taken.
        #expect(try check("socket_group = root").output.status == 0)
        #expect(try check("socket_group = 4242").output.status == 0)
    }

    @Test func anAddressOfNoLocalInterfaceIsAnErrorAtItsLine() throws {
        // 192.0.2.0/24 is TEST-NET-1: no machine has it.
        let (output, file, _) = try check("metrics_listen = 192.0.2.1:9464")
        #expect(output.status == 2, "\(output)")
        #expect(
            output.stderr.contains(
                "\(file):2: metrics_listen 192.0.2.1:9464: cannot listen (Cannot assign requested address"),
            "\(output.stderr)")
        #expect(output.stderr.contains("it is no address of this machine"), "\(output.stderr)")
    }

    @Test func anAddressAnotherProcessListensOnIsAnErrorNamingIt() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-check")
        let path = directory.path + "/metrics.sock"
        // Another program of its own, listening there until it is stopped.
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        listener.arguments = [
            "-c",
            "import socket, sys, time\ns = socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\ns.listen()\n"
                + "open(sys.argv[1] + '.ready', 'w').close()\ntime.sleep(60)",
            path,
        ]
        try listener.run()
        defer {
            listener.terminate()
            listener.waitUntilExit()
        }
        #expect(eventually(10) { FileManager.default.fileExists(atPath: path + ".ready") })
        let (output, file, _) = try check("metrics_listen = \(path)")
        #expect(output.status == 2, "\(output)")
        #expect(
            output.stderr.contains(
                "\(file):2: metrics_listen \(path): in use by python3 (pid \(listener.processIdentifier))"),
            "\(output.stderr)")
        // A free one can be bound, and is said so.
        let free = try check("metrics_listen = \(directory.path)/free.sock")
        #expect(free.output.status == 0, "\(free.output)")
        #expect(free.output.stdout.contains("metrics_listen \(directory.path)/free.sock: can be bound\n"))
    }

    @Test func theRunningDaemonsOwnEndpointIsANote() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-check")
        let path = directory.path + "/metrics.sock"
        let daemon = try DaemonProcess(
            resources: [PackagePaths.exampleResources], arguments: ["--metrics-listen", path])
        let (output, _, _) = try check("metrics_listen = \(path)")
        #expect(output.status == 0, "\(output)")
        #expect(
            output.stdout.contains(
                "metrics_listen \(path): held by the running l10nd (pid \(daemon.process.processIdentifier))"),
            "\(output.stdout)")
    }
}
