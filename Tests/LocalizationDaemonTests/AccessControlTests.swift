import Foundation
import LocalizationCore
import LocalizationDaemon
import LocalizationSockets
import LocalizationWire
import Synchronization
import TestSupport
import Testing

/// Who may do what: lookups for anyone who can connect, changes for root and the daemon's
/// user; and no file outside the roots is read through a link.
@Suite struct AccessControlTests {
    final class Replies: Sendable {
        let replies = Mutex<[WireReply]>([])
        func record(_ reply: WireReply) { replies.withLock { $0.append(reply) } }
        var all: [WireReply] { replies.withLock { $0 } }
    }

    func service(counters: DaemonCounters = DaemonCounters()) throws -> (LookupService, TemporaryDirectory) {
        let root = try TemporaryDirectory()
        try root.write(#""k" = "v";"#, to: "ja.lproj/Localizable.strings")
        let store = ResourceStore(roots: [root.path], developmentLanguage: LanguageTag(language: "en"))
        store.rescan()
        let service = LookupService(
            store: store, missing: MissingKeyReport(), counters: counters,
            actions: LookupService.Actions(
                reload: { done in done(store.rescan()) },
                status: { nil }),
            administrators: [0, 4242])
        return (service, root)
    }

    @Test(arguments: [UInt32(0), 4242])
    func administratorsMayReload(uid: UInt32) throws {
        let (service, _) = try service()
        let replies = Replies()
        service.handle(WireRequest(operation: .reload), from: PeerInfo(pid: 1, uid: uid, gid: 1), reply: replies.record)
        guard case .fields(let fields) = try #require(replies.all.first) else {
            Issue.record("expected a reload reply, got \(replies.all)")
            return
        }
        #expect(fields["generation"] != nil)
    }

    /// `reset` answers with what the missing-key report held and leaves it empty, but never
    /// touches the counters (a scraper's rates need them to only grow), and says so; a
    /// stranger's `reset` is refused and changes nothing.
    @Test func administratorsMayResetTheMissingKeyReportOthersMayNot() throws {
        let counters = DaemonCounters()
        let (service, _) = try service(counters: counters)
        let replies = Replies()
        let stranger = PeerInfo(pid: 1, uid: 1000, gid: 1000)
        for key in ["k", "absent", "absent"] {
            service.handle(
                WireRequest(operation: .lookup(key: key, languages: ["ja"], table: nil)), from: stranger,
                reply: replies.record)
        }
        service.handle(WireRequest(operation: .reset), from: stranger, reply: replies.record)
        guard case .error(let error) = replies.all.last else {
            Issue.record("reset by a stranger was not refused: \(replies.all)")
            return
        }
        #expect(error.code == .forbidden && error.message.hasPrefix("reset is for root"), "\(error)")
        #expect(counters.lookups == 3 && counters.value(.misses) == 2)

        service.handle(WireRequest(operation: .reset), from: PeerInfo(pid: 1, uid: 4242, gid: 1), reply: replies.record)
        guard case .fields(let held) = replies.all.last else {
            Issue.record("reset by the daemon's user failed: \(replies.all)")
            return
        }
        #expect(held["counters"] == nil, "\(held)")
        #expect(held["counters_reset"] == .bool(false) && held["cleared"] == .array([.string("missing")]), "\(held)")
        #expect(held["missing"]?.arrayValue?.first?["key"]?.stringValue == "absent")
        #expect(held["missing"]?.arrayValue?.first?["count"]?.integerValue == 2)
        #expect(counters.lookups == 3 && counters.value(.misses) == 2 && counters.value(.found) == 1)
        service.handle(WireRequest(operation: .missing), from: stranger, reply: replies.record)
        guard case .fields(let after) = replies.all.last else {
            Issue.record("missing failed: \(replies.all)")
            return
        }
        #expect(after["missing"]?.arrayValue?.isEmpty == true, "\(after)")
    }

    @Test func othersMayLookUpButNotReload() throws {
        let (service, _) = try service()
        let replies = Replies()
        let stranger = PeerInfo(pid: 1, uid: 1000, gid: 1000)
        service.handle(WireRequest(operation: .reload), from: stranger, reply: replies.record)
        service.handle(
            WireRequest(operation: .lookup(key: "k", languages: ["ja"], table: nil)), from: stranger,
            reply: replies.record)
        guard case .error(let error) = replies.all.first else {
            Issue.record("reload by a stranger was not refused: \(replies.all)")
            return
        }
        #expect(error.code == .forbidden)
        #expect(error.message.contains("user 1000"))
        guard case .lookup(let result) = replies.all.last else {
            Issue.record("lookup by a stranger was refused: \(replies.all)")
            return
        }
        #expect(result.value == "v")
    }

    @Test func linksOutOfTheRootsAreNotFollowedUnlessAllowed() throws {
        let root = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try root.write(#""k" = "inside";"#, to: "en.lproj/Localizable.strings")
        try outside.write(#""k" = "outside";"#, to: "ja.lproj/Localizable.strings")
        try outside.write(#""secret" = "outside";"#, to: "Localizable.strings")
        try FileManager.default.createSymbolicLink(
            atPath: root.path + "/ja.lproj", withDestinationPath: outside.path + "/ja.lproj")
        try FileManager.default.createDirectory(atPath: root.path + "/de.lproj", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: root.path + "/de.lproj/Localizable.strings",
            withDestinationPath: outside.path + "/Localizable.strings")
        let confined = ResourceStore(roots: [root.path], developmentLanguage: LanguageTag(language: "en"))
        confined.rescan()
        #expect(confined.snapshot.segments.languages.map(\.identifier) == ["en"])
        confined.refresh(paths: [root.path + "/de.lproj/Localizable.strings"])
        #expect(confined.snapshot.segments.languages.map(\.identifier) == ["en"])
        let open = ResourceStore(
            roots: [root.path], developmentLanguage: LanguageTag(language: "en"), allowSymlinksOutsideRoots: true)
        open.rescan()
        #expect(open.snapshot.segments.languages.map(\.identifier) == ["de", "en", "ja"])
    }

    @Test func anotherUserOnTheSocketMayLookUpButNotReload() throws {
        try #require(getuid() == 0, "needs root to act as another user through setpriv")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv is not installed")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/socat"), "socat is not installed")
        let directory = try TemporaryDirectory(prefix: "l10nd-acl")
        let config = try directory.write("socket_group = 65534\n", to: "l10nd.conf")
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources], arguments: ["--config", config])
        // The test's temp directories are private; the socket's own directory must be reachable.
        chmod((daemon.socketPath as NSString).deletingLastPathComponent, 0o755)
        func asNobody(_ line: String) throws -> String {
            try ProcessRunner.run(
                "/usr/bin/setpriv",
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/socat", "-t", "2", "-",
                    "UNIX-CONNECT:\(daemon.socketPath)",
                ],
                stdin: line + "\n"
            ).stdout
        }
        #expect(try asNobody(#"{"op":"lookup","key":"多言語化","lang":"en"}"#).contains(#""value":"Multilingualization""#))
        for op in ["reload", "reset"] {
            let refused = try asNobody(#"{"op":"\#(op)"}"#)
            #expect(refused.contains(#""code":"forbidden""#), "\(op): \(refused)")
            #expect(try daemon.request(["op": op])["ok"] as? Bool == true, "the daemon's own user may \(op)")
        }
    }
}
