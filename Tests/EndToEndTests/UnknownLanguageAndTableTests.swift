import Foundation
import TestSupport
import Testing

/// A language or table that does not exist is said, with what exists (an outside tester's
/// find: `missing --lang zz`, `get KEY --table NoSuchTable` and `--table ../../etc/passwd`
/// all answered quietly, exit 0). A table name with a path separator is a usage error.
@Suite struct UnknownLanguageAndTableTests {
    static func resources() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        try root.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        try root.write("\"k\" = \"w\";\n", to: "de.lproj/Localizable.strings")
        try root.write("\"s\" = \"t\";\n", to: "en.lproj/Settings.strings")
        return root
    }

    func l10nctl(_ arguments: [String]) throws -> ProcessOutput { try L10nctl.run(arguments: arguments) }

    @Test func getOfATableNoLanguageHasFailsListingTheTables() throws {
        let root = try Self.resources()
        let daemon = try DaemonProcess(resources: [root.path])
        for (place, source) in [
            ("the resources", ["--resources", root.path]), ("l10nd", ["--socket", daemon.socketPath]),
        ] {
            let output = try l10nctl(["get", "k", "--lang", "de", "--table", "NoSuchTable"] + source)
            #expect(output.status == 1, "\(place): \(output)")
            #expect(output.stdout.isEmpty, "\(place): \(output.stdout)")
            #expect(
                output.stderr.contains(
                    "\(place) has no table 'NoSuchTable' in any language (its tables: Localizable, Settings)"),
                "\(place): \(output.stderr)")
            let good = try l10nctl(["get", "s", "--lang", "de", "--table", "Settings"] + source)
            #expect(good.status == 0 && good.stdout == "t\n", "\(place): \(good)")
        }
    }

    /// The tables listed are file names: an escape sequence or a newline in one is written
    /// escaped, as every other text output does (an outside tester's find: they were raw).
    @Test func theTablesListedAreEscaped() throws {
        let root = try Self.resources()
        try root.write("\"e\" = \"f\";\n", to: "de.lproj/Bad\u{1B}[2J\nName.strings")
        let daemon = try DaemonProcess(resources: [root.path])
        for source in [["--resources", root.path], ["--socket", daemon.socketPath]] {
            let output = try l10nctl(["get", "k", "--lang", "fr", "--table", "Nope"] + source)
            #expect(output.status == 1, "\(output)")
            #expect(output.stderr.contains("Bad\\e[2J\\nName, Localizable, Settings)"), "\(output.stderr)")
            #expect(!output.stderr.contains("\u{1B}"), "\(output.stderr)")
        }
    }

    /// `get --table Nope` fails as a mistake, and the daemon agrees: the lookup is counted
    /// apart (`unknown_table_lookups`), not as a miss in the missing-key report and
    /// `l10nd_lookups_total{found="false"}`, where it read as a key for translators to add.
    @Test func aLookupInATableNoLanguageHasIsNoMiss() throws {
        let root = try Self.resources()
        let daemon = try DaemonProcess(resources: [root.path])
        let failed = try l10nctl(["get", "k", "--lang", "de", "--table", "Nope", "--socket", daemon.socketPath])
        #expect(failed.status == 1, "\(failed)")
        let miss = try l10nctl(["get", "absent", "--lang", "de", "--socket", daemon.socketPath])
        #expect(miss.status == 0 && miss.stdout == "absent\n", "\(miss)")

        let status = try daemon.request(["op": "status"])
        let counters = try #require(status["counters"] as? [String: Any])
        #expect(counters["misses"] as? Int == 1, "\(counters)")
        #expect(counters["unknown_table_lookups"] as? Int == 1, "\(counters)")
        let report = try l10nctl(["missing", "--format", "json", "--socket", daemon.socketPath])
        #expect(report.status == 0, "\(report)")
        #expect(!report.stdout.contains("Nope") && report.stdout.contains("\"absent\""), "\(report.stdout)")
        let metrics = try l10nctl(["metrics", "--socket", daemon.socketPath])
        #expect(metrics.stdout.contains("l10nd_lookups_total{found=\"false\"} 1\n"), "\(metrics.stdout)")
        #expect(metrics.stdout.contains("l10nd_unknown_table_lookups_total 1\n"), "\(metrics.stdout)")
    }

    @Test(arguments: ["../../etc/passwd", "a/b", "..", ""])
    func aTableNameThatIsAPathIsAUsageError(name: String) throws {
        let root = try Self.resources()
        let daemon = try DaemonProcess(resources: [root.path])
        for command in [["get", "k", "--resources", root.path], ["missing", "--socket", daemon.socketPath]] {
            let output = try l10nctl(command + ["--table", name])
            #expect(output.status == 2, "\(command): \(output)")
            #expect(output.stderr.contains("--table takes a table's name"), "\(command): \(output.stderr)")
        }
    }

    @Test func missingForALanguageNeitherServedNorAskedFailsListingTheLanguages() throws {
        let root = try Self.resources()
        let daemon = try DaemonProcess(resources: [root.path])
        let output = try l10nctl(["missing", "--lang", "zz", "--socket", daemon.socketPath])
        #expect(output.status == 1, "\(output)")
        #expect(
            output.stderr.contains(
                "l10nd serves no language matching 'zz' and no lookup asked for it (it serves: de, en)"),
            "\(output.stderr)")
        let table = try l10nctl(["missing", "--table", "NoSuchTable", "--socket", daemon.socketPath])
        #expect(table.status == 1, "\(table)")
        #expect(
            table.stderr.contains(
                "l10nd has no table 'NoSuchTable' in any language (its tables: Localizable, Settings)"),
            "\(table.stderr)")
        // A served language with nothing missing is an empty report, not an error.
        let served = try l10nctl(["missing", "--lang", "de", "--socket", daemon.socketPath])
        #expect(served.status == 0 && served.stdout.isEmpty && served.stderr.isEmpty, "\(served)")
    }

    /// Lookups asked in a language l10nd does not serve are the report of that language
    /// (a new translation's skeleton starts from them): listed, with a warning that says so.
    @Test func missingForALanguageOnlyAskedForWarnsAndLists() throws {
        let root = try Self.resources()
        let daemon = try DaemonProcess(resources: [root.path])
        _ = try daemon.request(["op": "lookup", "key": "nope", "lang": "pt-BR"])
        let output = try l10nctl(["missing", "--lang", "pt-BR", "--socket", daemon.socketPath])
        #expect(output.status == 0, "\(output)")
        #expect(output.stdout.contains("pt-BR\tLocalizable\tnope"), "\(output.stdout)")
        #expect(output.stderr.contains("warning: l10nd serves no language matching 'pt-BR'"), "\(output.stderr)")
    }
}
