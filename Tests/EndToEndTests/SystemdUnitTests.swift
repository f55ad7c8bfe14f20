import Foundation
import TestSupport
import Testing

/// The shipped units, checked by systemd's own tools (no running systemd needed).
@Suite struct SystemdUnitTests {
    let analyze = "/usr/bin/systemd-analyze"

    /// The units with their install paths pointed at this build, as `verify` checks that
    /// every executable exists.
    func installedCopies() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for name in ["l10nd.service", "l10nd.socket"] {
            let text = try String(contentsOfFile: PackagePaths.root + "/systemd/" + name, encoding: .utf8)
            let built = URL(fileURLWithPath: PackagePaths.executable("l10nd")).deletingLastPathComponent().path
            let local = text.replacing("/usr/sbin/l10nd", with: built + "/l10nd")
            try directory.write(local.replacing("/usr/bin/l10nctl", with: built + "/l10nctl"), to: name)
        }
        return directory
    }

    @Test func verifyPasses() throws {
        try #require(FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze is not installed")
        let units = try installedCopies()
        // The manual pages the units name are installed by the package, not by a checkout:
        // scripts/test-package verifies the installed units with them.
        let result = try ProcessRunner.run(
            analyze, ["verify", "--man=no", units.path + "/l10nd.service", units.path + "/l10nd.socket"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func securityExposureIsAtMostTwo() throws {
        try #require(FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze is not installed")
        let result = try ProcessRunner.run(
            analyze, ["security", "--offline=true", PackagePaths.root + "/systemd/l10nd.service"])
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        #expect(score <= 2.0, "\(line)")
    }

    @Test func theServiceIsANotifyServiceReloadedThroughL10nctl() throws {
        let text = try String(contentsOfFile: PackagePaths.root + "/systemd/l10nd.service", encoding: .utf8)
        #expect(text.contains("\nType=notify\n"))
        #expect(text.contains("\nExecReload=/usr/bin/l10nctl reload"))
        #expect(!text.contains("RuntimeDirectory="), "the socket unit owns the socket's directory")
    }
}
