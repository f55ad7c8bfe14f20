import Foundation
import Glibc
import TestSupport
import Testing

/// The delivery paths of docs/DEPLOY.md, end to end: real files moved the way a kubelet,
/// rsync or a release script moves them, three real `l10nd` processes (each its own socket)
/// watching, and a client per daemon asking all the while. Every daemon must serve each
/// new edit within ``convergenceBound``, and none may ever answer with a missing key, the
/// fallback language or an older edit than it already served (``ConvergencePoller``).
@Suite(.serialized) struct FleetDeliveryTests {
    /// Daemons per scenario: a small fleet.
    static let fleetSize = 3
    /// Edits delivered after the first version: several, so a racy switch has chances to show.
    static let edits = 4
    /// Seconds a daemon may take to serve an edit once it is delivered: generous, for a
    /// machine shared with other builds; the time taken is printed.
    static let convergenceBound: TimeInterval = 30

    /// The resource files of delivery `version`, by path: `ja` and `en` tables, each
    /// `Localizable` and `Settings`. Only `ja`'s greeting changes; a comment of `version`
    /// characters changes the file's size too, as a real edit does, so rsync's quick check
    /// (size and modification time) always sends it even within one second.
    static func files(version: Int) -> [String: Data] {
        let padding = String(repeating: "·", count: version)
        return [
            "ja.lproj/Localizable.strings": Data(
                "/* delivery \(padding) */\n\"greeting\" = \"\(ConvergencePoller.greetingPrefix)\(version)\";\n".utf8),
            "ja.lproj/Settings.strings": Data("\"title\" = \"設定\";\n".utf8),
            "en.lproj/Localizable.strings": Data("\"greeting\" = \"Hello\";\n".utf8),
            "en.lproj/Settings.strings": Data("\"title\" = \"Settings\";\n".utf8),
        ]
    }

    /// Writes `files` under `directory`.
    static func write(_ files: [String: Data], under directory: String) throws {
        for (path, data) in files {
            let full = directory + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: full))
        }
    }

    /// A delivery command that failed: the delivery, not the daemon, is at fault.
    struct CommandFailed: Error, CustomStringConvertible {
        let description: String
    }

    static func shell(_ script: String, in directory: String) throws {
        let result = try ProcessRunner.run("/bin/sh", ["-c", script], currentDirectory: directory)
        guard result.status == 0 else {
            throw CommandFailed(description: "\(script): exit \(result.status): \(result.stderr)")
        }
    }

    /// Starts one daemon per root (version 1 already there), polls each, calls `deliver`
    /// with versions 2…, and checks that every daemon converges on each and that no
    /// poller saw anything wrong.
    func converge(roots: [String], deliver: (Int) throws -> Void) throws {
        let daemons = try roots.map { try DaemonProcess(resources: [$0]) }
        let pollers = try daemons.enumerated().map { try ConvergencePoller(daemon: $1, name: "daemon \($0 + 1)") }
        defer { for poller in pollers { _ = poller.stop() } }
        for poller in pollers {
            #expect(poller.awaitVersion(1, timeout: Self.convergenceBound) != nil, "\(poller.name) never served v1")
        }
        for version in 2...(Self.edits + 1) {
            let started = Date()
            try deliver(version)
            for (poller, daemon) in zip(pollers, daemons) {
                guard let served = poller.awaitVersion(version, timeout: Self.convergenceBound) else {
                    let seen = poller.stop()
                    Issue.record(
                        """
                        \(poller.name) did not serve v\(version) within \(Self.convergenceBound) s of its delivery \
                        (serves v\(seen.version)); what it answered wrong: \(seen.violations)
                        \(daemon.log.suffix(3000))
                        """)
                    return
                }
                let milliseconds = Int(served.timeIntervalSince(started) * 1000)
                print("\(poller.name): v\(version) served \(milliseconds) ms after its delivery began")
            }
        }
        for poller in pollers { #expect(poller.awaitAnswers(), "\(poller.name) stopped answering") }
        for (poller, daemon) in zip(pollers, daemons) {
            let report = poller.stop()
            print("\(poller.name): \(report.answers) right answers during the deliveries")
            #expect(
                report.violations.isEmpty,
                "\(poller.name) (\(report.answers) right answers): \(report.violations)\n\(daemon.log.suffix(3000))")
            let errors = try daemon.request(["op": "status"])["errors"] as? [[String: Any]] ?? []
            #expect(errors.isEmpty, "\(poller.name) lists errors after the deliveries: \(errors)")
        }
    }

    /// A ConfigMap volume on three nodes: each kubelet projects the same update into its own
    /// pod's volume with the atomic writer (`..data` swapped, the old `..2026_…` directory
    /// removed at once, `ja.lproj -> ..data/ja.lproj` links), as the `items:` of
    /// deploy/kubernetes/overlays/sidecar lays them out.
    @Test func configMapAtomicWriterOnEveryNode() throws {
        let volumes = try (0..<Self.fleetSize).map { _ in try TemporaryDirectory(prefix: "l10nd-configmap") }
        let writers = volumes.map { KubeletAtomicWriter(targetDirectory: $0.path) }
        for writer in writers { try writer.write(Self.files(version: 1)) }
        try converge(roots: volumes.map(\.path)) { version in
            for writer in writers { try writer.write(Self.files(version: version)) }
        }
    }

    /// rsync from one staging tree to three hosts' copies, as DEPLOY.md writes it:
    /// `--delay-updates` renames every changed file into place at the end, `--delete-after`
    /// removes what the source no longer has only then.
    @Test func rsyncDelayUpdatesToEveryHost() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/rsync"), "rsync is not installed")
        let staging = try TemporaryDirectory(prefix: "l10nd-staging")
        let hosts = try (0..<Self.fleetSize).map { _ in try TemporaryDirectory(prefix: "l10nd-host") }
        func deliver(_ version: Int) throws {
            try Self.write(Self.files(version: version), under: staging.path)
            for host in hosts {
                try Self.shell(
                    "rsync -a --delay-updates --delete-after \(staging.path)/ \(host.path)/", in: staging.path)
            }
        }
        try deliver(1)
        try converge(roots: hosts.map(\.path), deliver: deliver)
    }

    /// A release directory per version, `current` re-pointed with `ln -sfn … current.new &&
    /// mv -T current.new current` (one rename), the release before the previous one removed;
    /// the three daemons all serve the same `current`.
    @Test func releaseSymlinkRepointed() throws {
        let site = try TemporaryDirectory(prefix: "l10nd-releases")
        func deliver(_ version: Int) throws {
            try Self.write(Self.files(version: version), under: site.path + "/releases/\(version)")
            try Self.shell("ln -sfn releases/\(version) current.new && mv -T current.new current", in: site.path)
            if version > 2 { try FileManager.default.removeItem(atPath: site.path + "/releases/\(version - 2)") }
        }
        try deliver(1)
        try converge(roots: Array(repeating: site.path + "/current", count: Self.fleetSize), deliver: deliver)
    }

    /// git-sync (registry.k8s.io/git-sync, v4) in three pods: each checks the new commit out
    /// as a worktree `.worktrees/<hash>`, points a `tmp-link` at it, renames that over
    /// `current` (its `--link`), and removes the old worktree at once. Real git does the
    /// checkouts; only the fetch from a remote is a fetch from a local repository. The
    /// repository holds the `.lproj` directories at its top, as
    /// deploy/kubernetes/overlays/git-sync expects, or in a directory under it (the root
    /// is then `current/Resources`: a link in the middle of the path).
    @Test(arguments: ["", "/Resources"])
    func gitSyncLinkSwapInEveryPod(subdirectory: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is not installed")
        let source = try TemporaryDirectory(prefix: "l10nd-git-source")
        let git = "git -c user.name=l10nd -c user.email=l10nd@localhost -c init.defaultBranch=main"
        try Self.shell("\(git) init -q .", in: source.path)
        let pods = try (0..<Self.fleetSize).map { _ in try TemporaryDirectory(prefix: "l10nd-git-sync") }
        for pod in pods { try Self.shell("\(git) init -q .", in: pod.path) }
        func deliver(_ version: Int) throws {
            try Self.write(Self.files(version: version), under: source.path + subdirectory)
            try Self.shell("\(git) add -A && \(git) commit -q -m v\(version)", in: source.path)
            for pod in pods {
                try Self.shell(
                    """
                    old=$(readlink current || true)
                    \(git) fetch -q \(source.path) main && hash=$(git rev-parse FETCH_HEAD) \
                    && \(git) worktree add -q --detach .worktrees/$hash $hash \
                    && ln -s .worktrees/$hash tmp-link && mv -T tmp-link current \
                    && if [ -n "$old" ]; then \(git) worktree remove --force "$old"; fi
                    """, in: pod.path)
            }
        }
        try deliver(1)
        try converge(roots: pods.map { $0.path + "/current" + subdirectory }, deliver: deliver)
    }
}
