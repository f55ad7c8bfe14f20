import Glibc
import LocalizationSockets
import Testing

/// The input thread's looking before it sleeps, on a real loop and socket: a client that
/// keeps it busy opens the window, one that asks now and then closes it, and the counts
/// add up (every idle stretch either caught input by looking or slept).
@Suite struct ReadinessLoopPollingTests {
    @Test func aBusyClientOpensTheWindowAndARareOneClosesIt() throws {
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let (client, server) = (ends[0], ends[1])
        defer {
            close(client)
            close(server)
        }
        let loop = try ReadinessLoop()
        // An echo server: each byte read is sent back.
        loop.start(name: "polling-test", polling: 50_000) { _ in
            var byte: UInt8 = 0
            if read(server, &byte, 1) == 1 { _ = write(server, &byte, 1) }
        }
        defer { loop.stop() }
        try loop.watch(server, token: 1)

        func ping() {
            var byte: UInt8 = 7
            _ = write(client, &byte, 1)
            _ = read(client, &byte, 1)
        }
        for _ in 0..<3_000 { ping() }
        let busy = loop.pollingStatistics
        #expect(busy.idleStretches >= 3_000)
        // The loop may be between counting an idle stretch and how it ended.
        #expect((busy.idleStretches - 1...busy.idleStretches).contains(busy.caught + busy.sleeps))
        #expect(busy.looks > 0)
        #expect(busy.caught <= busy.looks)

        // Input 3 ms apart halves the window each time: at most three more looks (50, 25,
        // 12.5 µs), then none; plus the look after the last busy ping, which the loop may
        // begin (and count) only after `busy` was read (seen in CI on a loaded machine).
        for _ in 0..<20 {
            usleep(3_000)
            ping()
        }
        let rare = loop.pollingStatistics
        #expect(rare.looks - busy.looks <= 4)
        #expect(rare.sleeps - busy.sleeps >= 17)
    }
}
