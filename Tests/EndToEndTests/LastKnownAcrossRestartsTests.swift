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

    /// A restarted daemon counts its generations anew, so an answer an earlier daemon gave at
    /// its generation 6 is older than the next daemon's generation 1, whatever the numbers
    /// say. Each daemon here is killed right after it served a new version; what answers while
    /// it is away must be that version, both when a round-trip answer of the first daemon
    /// meets the second one's mapping and when the first one's mapping meets a round-trip
    /// answer of the second.
    @Test func aRestartedDaemonsAnswersAreNewerWhateverItsGenerationNumbers() throws {
        let resources = try TemporaryDirectory()
        let file = "ja.lproj/Localizable.strings"
        try resources.write("\"k\" = \"v1\";\n", to: file)
        let slot = try ClientFailoverTests.DaemonSlot()
        try slot.start(resources: resources.path)
        let ja = [try LanguageTag("ja")]
        let link = DaemonLookups(socketPath: slot.path, mode: .mapped, timeout: 1, onEvent: { _ in })
        defer { link.close() }
        func mappedValue(_ lookups: DaemonLookups) -> String? {
            lookups.mapped.current?.lookup("k", tags: ja, table: "Localizable", plural: .none).value
        }
        // The first daemon's generation climbs with each save.
        for version in 2...6 {
            try resources.write("\"k\" = \"v\(version)\";\n", to: file)
            #expect(ClientFailoverTests.wait(seconds: 10) { mappedValue(link) == "v\(version)" })
        }
        let firstGeneration = try #require(link.mapped.current?.generation)
        // Remembered with the first daemon's generation.
        #expect(link.lookup("k", languages: ["ja"], table: "Localizable", plural: .none)?.value == "v6")

        slot.kill()
        try resources.write("\"k\" = \"v7\";\n", to: file)
        try slot.start(resources: resources.path)
        // A link that holds the first daemon's mapping as an earlier connection's (as a child
        // made by `fork()` holds its parent's) and asks the second daemon with round trips:
        // direct mode, so that no mapping of the second daemon replaces the first's.
        let child = DaemonLookups(
            socketPath: slot.path, mode: .direct, timeout: 1, lastKnown: link.mapped.kept.first, onEvent: { _ in })
        defer { child.close() }
        let asked = child.lookup("k", languages: ["ja"], table: "Localizable", plural: .none)
        #expect(asked?.value == "v7")
        #expect(ClientFailoverTests.wait(seconds: 10) { mappedValue(link) == "v7" })
        let secondGeneration = try #require(link.mapped.current?.generation)
        #expect(secondGeneration < firstGeneration, "the numbers do not say which daemon came last")

        slot.kill()
        #expect(ClientFailoverTests.wait(seconds: 5) { !link.client.isConnected && !child.client.isConnected })
        #expect(
            link.lastKnown("k", languages: ["ja"], table: "Localizable")?.value == "v7", "the first daemon's answer")
        #expect(child.lastKnown("k", languages: ["ja"], table: "Localizable")?.value == "v7", "the first daemon's map")
    }
}
