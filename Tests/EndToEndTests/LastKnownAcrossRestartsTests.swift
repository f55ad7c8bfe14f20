import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// The last known answers of mapped mode across daemon restarts, as an outside
/// tester's chaos run went (TERM, a restarted daemon still loading, a short reconnection, TERM
/// again): every table, mapped generation and counted answer the daemon gave on any
/// connection keeps answering while it is away, through attempts that end at the handshake's
/// time limit. (The keys that tester saw were for tables the client had never fetched: those
/// have no last answer.)
@Suite struct LastKnownAcrossRestartsTests {
    @Test(arguments: [LookupMode.mapped])
    func answersOutliveTwoRestartsAndADaemonThatDoesNotAnswerYet(mode: LookupMode) throws {
        let resources = try TemporaryDirectory()
        try resources.write("\"k\" = \"ja value\";\n", to: "ja.lproj/Localizable.strings")
        try resources.write("\"k\" = \"fr value\";\n", to: "fr.lproj/Localizable.strings")
        let slot = try ClientFailoverTests.DaemonSlot()
        try slot.start(resources: resources.path)
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: slot.path, mode: mode, timeout: 0.3)
        // The first connection answers ja: its table, and one counted question.
        #expect(localizer.value("k", languages: .one("ja"), table: nil) == "ja value")
        #expect(localizer.lookup("k", languages: ["ja"], count: 3).value == "ja value")
        func expectLastKnown(_ tags: [String], _ comment: Comment) {
            for tag in tags {
                let expected = "\(tag) value"
                #expect(localizer.value("k", languages: .one(tag), table: nil) == expected, comment)
                #expect(localizer.lookupWithSource("k", languages: [tag]).result.value == expected, comment)
            }
            #expect(localizer.lookup("k", languages: ["ja"], count: 3).value == "ja value", comment)
            #expect(localizer.source == .lastKnown, comment)
        }

        _ = slot.daemon?.stop()  // SIGTERM, as the tester did
        #expect(ClientFailoverTests.wait(seconds: 5) { localizer.source == .lastKnown })
        expectLastKnown(["ja"], "after the first daemon died")

        // A daemon still loading takes connections and does not answer yet: each attempt
        // sends `hello` and is abandoned at the time limit, the next after the retry delay.
        let loading = slot.directory.path + "/loading.sock"
        let listener = try ClientHandshakeTests.listen(at: loading)
        let held = Mutex<[Int32]>([])
        let accepting = Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                held.withLock { $0.append(connection) }
            }
        }
        accepting.start()
        try? FileManager.default.removeItem(atPath: slot.path)
        try FileManager.default.createSymbolicLink(atPath: slot.path, withDestinationPath: loading)
        let until = Date().addingTimeInterval(1.5)
        while Date() < until {
            expectLastKnown(["ja"], "while the restarted daemon does not answer")
            usleep(50_000)
        }
        #expect(held.withLock { $0.count } >= 2, "the client did not try the silent daemon twice")
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in held.withLock({ $0 }) { close(connection) }

        // The second daemon answers fr, on the second connection.
        try slot.start(resources: resources.path)
        #expect(ClientFailoverTests.wait(seconds: 10) { localizer.source == .daemon })
        // A lookup waits for the table at most the time limit: a daemon just started, on a
        // loaded machine, may answer the first fetch later (the lookups after it get it).
        #expect(
            ClientFailoverTests.wait(seconds: 10) {
                localizer.value("k", languages: .one("fr"), table: nil) == "fr value"
            })
        _ = slot.daemon?.stop()  // SIGTERM, as the tester did
        #expect(ClientFailoverTests.wait(seconds: 5) { localizer.source == .lastKnown })
        expectLastKnown(["ja", "fr"], "after the second daemon died")
    }
}
