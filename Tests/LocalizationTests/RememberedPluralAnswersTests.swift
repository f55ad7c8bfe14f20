import Foundation
import Glibc
import LocalizationCore
import TestSupport
import Testing

@testable import Localization

/// With the daemon gone, a direct-mode plural lookup falls back to what the daemon said to
/// that very question: a form selected for one count never answers another. (Mapped mode
/// selects in place from the generation it mapped.)
@Suite struct RememberedPluralAnswersTests {
    @Test(arguments: [LookupMode.direct])
    func eachCountKeepsItsOwnLastAnswer(mode: LookupMode) throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: 2)
        let one = localizer.lookup("%d files", languages: ["en"], count: 1)
        let five = localizer.lookup("%d files", languages: ["en"], count: 5)
        let byArguments = localizer.lookup("%d files", languages: ["en"], counts: [PluralOperands(1)])
        #expect(one.value == "%d file" && five.value == "%d files" && byArguments.value == "%d file")
        #expect(daemon.suspend())
        defer { daemon.send(signal: SIGCONT) }
        let answers = [
            localizer.lookupWithSource("%d files", languages: ["en"], count: PluralOperands(1)),
            localizer.lookupWithSource("%d files", languages: ["en"], count: PluralOperands(5)),
            localizer.lookupWithSource("%d files", languages: ["en"], counts: [PluralOperands(1)]),
        ]
        #expect(answers.map(\.source) == [.lastKnown, .lastKnown, .lastKnown])
        #expect(answers.map(\.result.value) == ["%d file", "%d files", "%d file"])
    }
}
