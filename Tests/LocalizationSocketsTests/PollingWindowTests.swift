import LocalizationSockets
import Testing

/// The input thread's looking before it sleeps: opened by input that came back soon,
/// closed by input that comes rarely.
@Suite struct PollingWindowTests {
    @Test func opensWhenInputComesBackSoonAndGrowsToTheMaximum() {
        var window = PollingWindow(maximum: 40_000)
        #expect(window.current == 0)
        window.noteInput(afterIdle: 30_000)
        #expect(window.current == 10_000)
        window.noteInput(afterIdle: 30_000)
        #expect(window.current == 20_000)
        window.noteInput(afterIdle: 30_000)
        #expect(window.current == 40_000)
        window.noteInput(afterIdle: 39_000)
        #expect(window.current == 40_000)
    }

    @Test func inputWithinTheWindowKeepsIt() {
        var window = PollingWindow(maximum: 40_000)
        window.noteInput(afterIdle: 30_000)
        window.noteInput(afterIdle: 5_000)
        #expect(window.current == 10_000)
    }

    @Test func rareInputOrNoneClosesIt() {
        var window = PollingWindow(maximum: 40_000)
        for _ in 0..<3 { window.noteInput(afterIdle: 30_000) }
        window.noteInput(afterIdle: 1_000_000)
        #expect(window.current == 20_000)
        window.noteNoInput()
        #expect(window.current == 10_000)
        window.noteInput(afterIdle: 1_000_000)
        #expect(window.current == 0)
        window.noteInput(afterIdle: 1_000_000)
        #expect(window.current == 0)
    }

    @Test func anotherThreadOnTheCoreClosesItUntilInputComesBackSoonAgain() {
        var window = PollingWindow(maximum: 40_000)
        for _ in 0..<3 { window.noteInput(afterIdle: 30_000) }
        window.noteSharedCore()
        #expect(window.current == 0)
        window.noteInput(afterIdle: 30_000)
        #expect(window.current == 10_000)
    }

    @Test func aZeroMaximumNeverLooks() {
        var window = PollingWindow(maximum: 0)
        window.noteInput(afterIdle: 0)
        window.noteInput(afterIdle: 10)
        #expect(window.current == 0)
    }
}
