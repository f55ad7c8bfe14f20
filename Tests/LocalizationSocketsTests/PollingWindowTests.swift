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
        #expect(window.isHeldClosed(at: 10_000_000))
        window.noteInput(afterIdle: 30_000, at: 10_000_000)
        #expect(window.current == 0)
        #expect(!window.isHeldClosed(at: 11_000_000))
        window.noteInput(afterIdle: 30_000, at: 11_000_000)
        #expect(window.current == 10_000)
        // Again, with no input caught by looking in between: closed twice as long.
        window.noteSharedCore(at: 12_000_000)
        window.noteInput(afterIdle: 30_000, at: 31_000_000)
        #expect(window.current == 0)
        window.noteInput(afterIdle: 30_000, at: 32_000_000)
        #expect(window.current == 10_000)
    }

    /// What kept the window shut under a busy client: the loop reported only input it slept
    /// through, never input its looking caught, so the hold after another thread ran only
    /// ever doubled — a few such yields in a run, and every one closed looking for a second.
    @Test func inputCaughtByLookingMakesTheNextHoldShortAgain() {
        var window = PollingWindow(maximum: 40_000)
        window.noteInput(afterIdle: 30_000, at: 0)
        // Six holds in a row: the next would be 640 ms.
        var now: UInt64 = 0
        for _ in 0..<6 {
            now += 1_000_000_000
            window.noteSharedCore(at: now)
        }
        now += 1_000_000_000
        window.noteInput(afterIdle: 30_000, at: now)
        window.noteCaught()
        window.noteSharedCore(at: now)
        #expect(window.isHeldClosed(at: now + 9_000_000))
        #expect(!window.isHeldClosed(at: now + 10_000_000))
        window.noteInput(afterIdle: 30_000, at: now + 10_000_000)
        #expect(window.current == 10_000)
    }

    @Test func aZeroMaximumNeverLooks() {
        var window = PollingWindow(maximum: 0)
        window.noteInput(afterIdle: 0, at: 0)
        window.noteInput(afterIdle: 10, at: 0)
        #expect(window.current == 0)
    }
}
