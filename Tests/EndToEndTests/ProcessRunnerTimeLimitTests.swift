import Foundation
import Glibc
import TestSupport
import Testing

/// `ProcessRunner.run`'s time limit holds when the child leaves a grandchild holding its
/// output open: the test fails at the limit, and the grandchild is stopped with the child.
@Suite struct ProcessRunnerTimeLimitTests {
    /// A shell that starts a sleeping grandchild (its pid written to `pidFile`), then either
    /// sleeps itself (`exits: false`) or exits at once (`exits: true`).
    static func script(pidFile: String, exits: Bool) -> [String] {
        ["-c", "sleep 120 & echo $! > '\(pidFile)'; \(exits ? "exit 0" : "sleep 120")"]
    }

    /// Whether `pid` is alive and not a zombie.
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    @Test(arguments: [false, true])
    func aGrandchildHoldingThePipesDoesNotOutlastTheLimit(childExits: Bool) throws {
        let directory = try TemporaryDirectory()
        let pidFile = directory.path + "/grandchild.pid"
        let started = Date()
        #expect(throws: ProcessTimeout.self) {
            try ProcessRunner.run("/bin/sh", Self.script(pidFile: pidFile, exits: childExits), timeout: 1)
        }
        let took = Date().timeIntervalSince(started)
        // The limit, the 2 s grace after SIGTERM, and time to spare on a loaded machine.
        #expect(took < 10, "run waited \(took) s for a 1 s limit")
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        let grandchild = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        let deadline = Date().addingTimeInterval(5)
        while Self.isAlive(grandchild), Date() < deadline { usleep(20_000) }
        #expect(!Self.isAlive(grandchild), "the grandchild \(grandchild) outlived the time limit")
        if Self.isAlive(grandchild) { kill(grandchild, SIGKILL) }
    }

    /// A child that finishes within the limit is unaffected: its output and status come back.
    @Test func aChildWithinTheLimitReturnsItsOutput() throws {
        let output = try ProcessRunner.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: 10)
        #expect(output.status == 3)
        #expect(output.stdout == "out\n")
        #expect(output.stderr == "err\n")
    }
}
