import LocalizationSockets
import Testing

/// The input thread's looking before it sleeps: opened by input that came back soon,
/// closed by input that comes rarely.
@Suite struct PollingWindowTests {
    @Test func opensWhenInputComesBackSoonAndGrowsToTheMaximum() {
        var window = PollingWindow(maximum: 40_000)
        #expect(window.current == 0)
        window.noteInput(afterIdle: 30_000, at: 0)
        #expect(window.current == 10_000)
        window.noteInput(afterIdle: 30_000, at: 0)
        #expect(window.current == 20_000)
        window.noteInput(afterIdle: 30_000, at: 0)
        #expect(window.current == 40_000)
        window.noteInput(afterIdle: 39_000, at: 0)
        #expect(window.current == 40_000)
    }

    @Test func inputWithinTheWindowKeepsIt() {
        var window = PollingWindow(maximum: 40_000)
        window.noteInput(afterIdle: 30_000, at: 0)
        window.noteInput(afterIdle: 5_000, at: 0)
        #expect(window.current == 10_000)
    }

    @Test func rareInputOrNoneClosesIt() {
        var window = PollingWindow(maximum: 40_000)
        for _ in 0..<3 { window.noteInput(afterIdle: 30_000, at: 0) }
        window.noteInput(afterIdle: 2_000_000, at: 0)
        #expect(window.current == 20_000)
        window.noteNoInput()
        #expect(window.current == 10_000)
        window.noteInput(afterIdle: 2_000_000, at: 0)
        #expect(window.current == 0)
        window.noteInput(afterIdle: 2_000_000, at: 0)
        #expect(window.current == 0)
    }

    @Test func anotherThreadOnTheCoreClosesItForAWhileLongerEachTime() {
        var window = PollingWindow(maximum: 40_000)
        for _ in 0..<3 { window.noteInput(afterIdle: 30_000, at: 0) }
        window.noteSharedCore(at: 1_000_000)
        #expect(window.current == 0)
        window.noteInput(afterIdle: 30_000, at: 10_000_000)
        #expect(window.current == 0)
        window.noteInput(afterIdle: 30_000, at: 11_000_000)
        #expect(window.current == 10_000)
        // Again soon: closed twice as long.
        window.noteSharedCore(at: 12_000_000)
        window.noteInput(afterIdle: 30_000, at: 31_000_000)
        #expect(window.current == 0)
        window.noteInput(afterIdle: 30_000, at: 32_000_000)
        #expect(window.current == 10_000)
        // Input caught by looking makes the next hold short again.
        window.noteInput(afterIdle: 5_000, at: 33_000_000)
        window.noteSharedCore(at: 34_000_000)
        window.noteInput(afterIdle: 30_000, at: 44_000_000)
        #expect(window.current == 10_000)
    }

    @Test func aZeroMaximumNeverLooks() {
        var window = PollingWindow(maximum: 0)
        window.noteInput(afterIdle: 0, at: 0)
        window.noteInput(afterIdle: 10, at: 0)
        #expect(window.current == 0)
    }
}
