import Foundation
import Testing

@testable import LocalizationCore

/// The carried CLDR data is the one `scripts/update-cldr-data` pins: bumping CLDR is then one
/// edit (the pin) and one command (the script), and a pin moved without running the script
/// fails here, saying what to run.
@Suite struct CLDRSnapshotPinTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "scripts/update-cldr-data")

    /// The `BABEL_VERSION = "…"` line of the script.
    static func pinnedBabel() throws -> String {
        let text = try String(contentsOf: script, encoding: .utf8)
        let line = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("BABEL_VERSION = \"") },
            "scripts/update-cldr-data has no BABEL_VERSION line")
        return String(line.split(separator: "\"")[1])
    }

    @Test func carriedDataIsThePinnedBabels() throws {
        let pinned = try Self.pinnedBabel()
        #expect(
            CLDRSnapshot.babelVersion == pinned,
            """
            CLDRSnapshot.swift carries CLDR \(CLDRSnapshot.version) from babel \(CLDRSnapshot.babelVersion), \
            but scripts/update-cldr-data pins babel \(pinned): run `scripts/update-cldr-data` \
            (with a Python whose babel is \(pinned)) to carry its CLDR
            """)
    }
}
