import Localization
import Synchronization
import TestSupport
import Testing

/// The library says so when its resources cannot answer: a root that does not exist, one
/// that holds no language, a language tag nothing matches.
@Suite struct ResourceRootWarningTests {
    final class Log: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var handler: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
    }

    @Test func aMissingRootIsWarnedAtOnceOneLineEach() {
        let log = Log()
        let localizer = Localizer(environment: [:], log: log.handler)
        localizer.useResources(at: ["/nonexistent-l10nd-root", PackagePaths.exampleResources])
        #expect(log.all.count == 1, "\(log.all)")
        #expect(
            log.all.first?.hasPrefix("l10nd-client: warning: resource directory /nonexistent-l10nd-root does not exist")
                == true)
        // The other root still answers, and nothing more is said.
        #expect(localizer.lookup("多言語化", languages: ["de"]).value == "Mehrsprachigkeit")
        #expect(log.all.count == 1, "\(log.all)")
    }

    @Test func aMissingRootFromTheEnvironmentIsWarned() {
        let log = Log()
        _ = Localizer(environment: ["L10N_RESOURCES": "/nonexistent-l10nd-env"], log: log.handler)
        #expect(
            log.all == [
                "l10nd-client: warning: resource directory /nonexistent-l10nd-env does not exist (give the directory that holds the xx.lproj folders)"
            ])
    }

    @Test func aRootWithoutLanguagesIsWarnedWhenTheFilesAreRead() throws {
        let empty = try TemporaryDirectory()
        try empty.write("not a resource", to: "README.txt")
        let log = Log()
        let localizer = Localizer(environment: [:], log: log.handler)
        localizer.useResources(at: [empty.path])
        #expect(log.all.isEmpty, "the directory exists; the files are read on first use")
        #expect(localizer.lookup("k", languages: ["en"]).value == "k")
        _ = localizer.lookup("k2", languages: ["en"])
        #expect(
            log.all == [
                "l10nd-client: warning: resource directory \(empty.path) holds no language: no xx.lproj folder or .xcstrings file under it"
            ])
    }

    /// Outside testers: a root listed twice was "holding no language" the second time, a
    /// root that is a file "did not exist". The library says what each is.
    @Test func aDuplicateRootAndAFileRootAreNamedForWhatTheyAre() throws {
        let scratch = try TemporaryDirectory()
        let file = try scratch.write("\"k\" = \"v\";\n", to: "Localizable.strings")
        let log = Log()
        let localizer = Localizer(environment: [:], log: log.handler)
        let roots = PackagePaths.exampleResources
        localizer.useResources(at: [roots, file, roots])
        #expect(localizer.lookup("多言語化", languages: ["de"]).value == "Mehrsprachigkeit")
        #expect(
            log.all == [
                "l10nd-client: warning: resource directory \(file) is not a directory (give the directory that holds the xx.lproj folders)",
                "l10nd-client: warning: resource directory \(roots) is listed twice: it is read once, where it is first listed",
            ], "\(log.all)")
    }

    @Test func aTagNoServedLanguageMatchesIsReported() {
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useResources(at: [PackagePaths.exampleResources])
        // `jp` is well formed but is no language here; `English` is the legacy name of `en`,
        // and `de-AT` reaches de.lproj through the fallback rules.
        #expect(localizer.unmatchedLanguages(["jp", "English", "de-AT", "Base", "ja,jp;q=0.5"]) == ["jp"])
        #expect(Localizer(environment: [:], log: { _ in }).unmatchedLanguages(["jp"]).isEmpty, "nothing served")
    }
}
