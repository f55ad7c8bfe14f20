import Foundation

/// Paths the tests read: the package's own examples and the shared real-world corpus.
public enum PackagePaths {
    /// The package root, found from this file's own path.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `Examples/Resources`, the bundled example resources.
    public static var exampleResources: String { root + "/Examples/Resources" }

    /// What every test configures `Localizer.shared` with, always the same list: suites run
    /// in parallel, so one that pointed the shared localizer elsewhere would change another's
    /// answers mid-test. `Tests/Fixtures/Resources` holds cases the examples must not (a
    /// translation whose format does not fit its arguments), in tables of their own.
    public static var sharedLocalizerRoots: [String] { [exampleResources, root + "/Tests/Fixtures/Resources"] }

    /// `Tests/Fixtures/StringCatalog`: a String Catalog keyed the way Xcode keys
    /// `String(localized:)` interpolations (`%lld items`), laid out as SwiftPM copies a
    /// target's resources (catalog and `.lproj` side by side), for the `String(localized:)` tests.
    public static var stringCatalog: String { root + "/Tests/Fixtures/StringCatalog" }

    /// `../shared`, beside the package: the real-world corpora (`corpus/iina`,
    /// `corpus/mastodon-ios`) and the schemas output is checked against (`schemas/`). A
    /// user's own clone has none, so every test that reads it skips where it is absent.
    /// `L10ND_SHARED` in the environment names it instead (a worktree beside the package's
    /// checkout has no `../shared` of its own).
    public static var shared: String {
        if let named = ProcessInfo.processInfo.environment["L10ND_SHARED"], !named.isEmpty { return named }
        return URL(fileURLWithPath: root + "/../shared").standardizedFileURL.path
    }

    /// `../shared/<relativePath>`, or `nil` where it is absent: a test that needs it skips
    /// (`.enabled(if: PackagePaths.shared(…) != nil, …)`).
    public static func shared(_ relativePath: String) -> String? {
        let path = shared + "/" + relativePath
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// `../shared/corpus/iina`, the real `.strings` corpus, or `nil` where it is absent.
    public static var corpus: String? { shared("corpus/iina") }

    /// The build directory the running test binary sits in (what `swift build
    /// --show-bin-path` prints), so `swift test` with any scratch path finds what it built.
    public static var binPath: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// A built executable of this package (`l10nd`, `l10nctl`), from ``binPath``.
    public static func executable(_ name: String) -> String {
        URL(fileURLWithPath: binPath).appendingPathComponent(name).path
    }
}
