import Foundation
import Glibc
import TestSupport
import Testing

/// Releases deployed the common ways — a root link re-pointed (`ln -sfn`, `mv -T`), a real
/// root directory replaced by a link, Kubernetes' `..data` swap — against the built `l10nd`,
/// with a client asking all the while: it never sees fewer languages, a key as its value, a
/// fallback or a mix of releases; afterwards the new release is served, `reload` included.
@Suite struct ReleaseSwitchTests {
    static let languages = ["en", "ja", "de"]
    static let keys = ConsistencyPoller.keys()

    /// A deployment directory: `releases/41` and `releases/42`, each with every language,
    /// values `41-ja:k00`…; the daemon serves `current`.
    final class Deployment {
        let directory: TemporaryDirectory
        var root: String { directory.path + "/current" }

        init() throws {
            directory = try TemporaryDirectory(prefix: "l10nd-releases")
            for release in ["41", "42"] { try publish(release, at: "releases/\(release)") }
        }

        /// Writes release `release`'s tables under `relative`.
        func publish(_ release: String, at relative: String) throws {
            for language in ReleaseSwitchTests.languages {
                try directory.write(
                    ConsistencyPoller.table("\(release)-\(language)"),
                    to: "\(relative)/\(language).lproj/Localizable.strings")
            }
        }

        func shell(_ script: String) throws {
            let result = try ProcessRunner.run("/bin/sh", ["-c", script], currentDirectory: directory.path)
            #expect(result.status == 0, "\(script): \(result.stderr)")
        }
    }

    /// A poller that accepts only complete tables of the asked language from `releases`, with
    /// every language served.
    static func poller(_ daemon: DaemonProcess, releases: Set<String>) throws -> ConsistencyPoller {
        try ConsistencyPoller(daemon: daemon, languages: languages, keys: keys, minimumLanguages: languages.count) {
            language, origin in
            let parts = origin.split(separator: "-", maxSplits: 1).map(String.init)
            guard parts.count == 2, releases.contains(parts[0]), parts[1] == language else { return "served \(origin)" }
            return nil
        }
    }

    /// Whether every language is served from `release`.
    static func serves(_ release: String, _ daemon: DaemonProcess) throws -> Bool {
        try languages.allSatisfy { language in
            try daemon.request(["op": "lookup", "key": "k19", "lang": language])["value"] as? String
                == "\(release)-\(language):k19"
        }
    }

    /// Every language served from `release`, `reload` changes nothing, and `status` lists no
    /// error: what the testers' #5 lost (zero languages after `reload`).
    static func expectServed(_ release: String, by daemon: DaemonProcess) throws {
        #expect(try eventually { try serves(release, daemon) }, "release \(release) not served: \(daemon.log)")
        #expect(try daemon.request(["op": "reload"])["ok"] as? Bool == true)
        #expect(try serves(release, daemon))
        #expect((try daemon.request(["op": "languages"])["languages"] as? [Any])?.count == languages.count)
        let errors = try daemon.request(["op": "status"])["errors"] as? [Any]
        #expect(errors?.isEmpty == true, "\(errors ?? [])")
    }

    enum Shape: String, CaseIterable {
        /// `ln -sfn releases/42 current`: coreutils makes a new link and renames it over.
        case lnSfn = "ln -sfn"
        /// A new link made beside, then `mv -T` over the old one.
        case mvT = "mv -T"
        /// `current` a real directory, moved away and replaced by a link.
        case directoryReplacedByLink = "directory replaced by a link"
    }

    @Test(arguments: Shape.allCases)
    func aRootLinkSwitchesReleasesWithNoGap(shape: Shape) throws {
        let deployment = try Deployment()
        switch shape {
        case .lnSfn, .mvT: try deployment.shell("ln -s releases/41 current")
        case .directoryReplacedByLink: try deployment.publish("41", at: "current")
        }
        let daemon = try DaemonProcess(resources: [deployment.root])
        #expect(try Self.serves("41", daemon))
        let poller = try Self.poller(daemon, releases: ["41", "42", "43"])
        #expect(poller.waitForRounds())
        switch shape {
        case .lnSfn: try deployment.shell("ln -sfn releases/42 current")
        case .mvT: try deployment.shell("ln -s releases/42 current.new && mv -T current.new current")
        case .directoryReplacedByLink: try deployment.shell("mv current previous && ln -s releases/42 current")
        }
        try Self.expectServed("42", by: daemon)
        // The deployment cleans up the old release; a later edit in the new one is seen.
        try deployment.shell(shape == .directoryReplacedByLink ? "rm -rf previous" : "rm -rf releases/41")
        try deployment.publish("43", at: "releases/42")
        #expect(try eventually { try Self.serves("43", daemon) }, "an edit in the new release was missed")
        #expect(poller.waitForRounds())
        let report = poller.stop()
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// Releases switched back and forth with `ln -sfn`, each served in full.
    @Test func repeatedSwitchesServeEachReleaseInFull() throws {
        let deployment = try Deployment()
        try deployment.shell("ln -s releases/41 current")
        let daemon = try DaemonProcess(resources: [deployment.root])
        let poller = try Self.poller(daemon, releases: ["41", "42"])
        for release in ["42", "41", "42"] {
            try deployment.shell("ln -sfn releases/\(release) current")
            #expect(try eventually { try Self.serves(release, daemon) }, "release \(release) not served")
        }
        let report = poller.stop()
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// Kubernetes' ConfigMap volume: `xx.lproj -> ..data/xx.lproj`, and the kubelet renames a
    /// new `..data` link over the old one, then deletes the old data directory.
    @Test func aKubernetesDataSwapSwitchesWithNoGap() throws {
        let deployment = try Deployment()
        try deployment.publish("41", at: "volume/..2026_01_01")
        try deployment.shell(
            "cd volume && ln -s ..2026_01_01 ..data && for l in en ja de; do ln -s ..data/$l.lproj $l.lproj; done")
        let daemon = try DaemonProcess(resources: [deployment.directory.path + "/volume"])
        #expect(try Self.serves("41", daemon))
        let poller = try Self.poller(daemon, releases: ["41", "42", "43"])
        for (old, new, release) in [("..2026_01_01", "..2026_01_02", "42"), ("..2026_01_02", "..2026_01_03", "43")] {
            try deployment.publish(release, at: "volume/\(new)")
            try deployment.shell("cd volume && ln -s \(new) ..data_tmp && mv -T ..data_tmp ..data && rm -rf \(old)")
            #expect(try eventually { try Self.serves(release, daemon) }, "release \(release) not served")
        }
        #expect(try daemon.request(["op": "reload"])["ok"] as? Bool == true)
        #expect(try Self.serves("43", daemon))
        let report = poller.stop()
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    /// A root link re-pointed at nothing, or at a release that holds no language: the last
    /// tables are kept, `status` and the log say why, and a good release is served once linked.
    @Test(arguments: ["releases/none", "releases/empty"])
    func aRootThatServesNothingKeepsTheLastRelease(target: String) throws {
        let deployment = try Deployment()
        try deployment.directory.makeDirectory("releases/empty")
        try deployment.shell("ln -s releases/41 current")
        let daemon = try DaemonProcess(resources: [deployment.root])
        let poller = try Self.poller(daemon, releases: ["41", "42"])
        try deployment.shell("ln -sfn \(target) current")
        let errors = {
            (try daemon.request(["op": "status"])["errors"] as? [[String: Any]] ?? []).map {
                "\($0["file"] ?? ""): \($0["message"] ?? "")"
            }
        }
        #expect(
            try eventually { try errors().contains { $0.hasPrefix(deployment.root + ": the resource directory") } },
            "\((try? errors()) ?? [])")
        #expect(try daemon.request(["op": "reload"])["ok"] as? Bool == true)
        #expect(try Self.serves("41", daemon))
        #expect(daemon.log.contains("the tables last read from it are still served"), "\(daemon.log)")
        try deployment.shell("ln -sfn releases/42 current")
        try Self.expectServed("42", by: daemon)
        let report = poller.stop()
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
