import Foundation
import TestSupport
import Testing

/// One grammar for the built `l10nctl`: global options anywhere, `--format` on every data
/// command, `help` for every command, errors that name the fix, `--version`.
@Suite struct L10nctlGrammarTests {
    let l10nctl = PackagePaths.executable("l10nctl")
    let environment = ["PATH": "/usr/bin:/bin"]

    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProcessOutput {
        try ProcessRunner.run(l10nctl, arguments, environment: environment.merging(extra) { _, new in new })
    }

    /// The command names `l10nctl --help` lists, in order: the lines of its Commands block
    /// whose text starts at the help's second column.
    func listedCommands() throws -> [String] {
        let lines = try run(["--help"]).stdout.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "Commands:"))
        let end = try #require(lines.firstIndex(of: "Global options:"))
        return lines[(start + 1)..<end].filter { line in
            let characters = Array(line)
            return characters.count > 30 && characters[2] != " " && characters[28] == " " && characters[29] == " "
                && characters[30] != " "
        }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    func json(_ text: String) -> Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }

    /// A relative `--socket` is the same usage mistake to every command that takes one,
    /// never "not listening" to one and "not absolute" to another.
    @Test func aRelativeSocketPathIsTheSameMistakeToEveryCommand() throws {
        var messages: Set<String> = []
        for arguments in [["get", "k"], ["status"], ["reload"], ["languages"], ["metrics"], ["socket-path"]] {
            let result = try run(arguments + ["--socket", "new.sock"])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("absolute") && result.stderr.contains("'new.sock'"), "\(result.stderr)")
            messages.insert(String(result.stderr.prefix { $0 != "\n" }))
        }
        #expect(messages.count == 1, "\(messages)")
    }

    @Test func globalOptionsWorkBeforeAndAfterTheCommand() throws {
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let socket = daemon.socketPath
        for arguments in [
            ["--socket", socket, "status"], ["status", "--socket", socket], ["--socket=\(socket)", "status"],
            ["--format", "json", "--socket", socket, "status"], ["status", "--json", "--socket", socket],
        ] {
            let result = try run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains("generation"), "\(arguments): \(result.stdout)")
        }
        let before = try run(["--socket", socket, "--json", "get", "多言語化", "--lang", "ja"])
        let after = try run(["get", "多言語化", "--lang", "ja", "--socket", socket, "--format", "json"])
        #expect(before.stdout == "{\"found\":true,\"lang\":\"ja\",\"value\":\"多言語化\"}\n", "\(before.stderr)")
        #expect(after.stdout == before.stdout)
        let files = try run(["--resources", PackagePaths.exampleResources, "get", "多言語化", "--lang", "ja"])
        #expect(files.stdout == "多言語化\n", "\(files.stderr)")
    }

    @Test func formatJSONOnEveryCommandThatPrintsData() throws {
        let resources = try TemporaryDirectory()
        try resources.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        let strings = try resources.write("\"k\" = \"w\";\n", to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let socket = ["--socket", daemon.socketPath]
        let commands: [[String]] = [
            ["status"] + socket, ["languages"] + socket, ["missing"] + socket, ["reset"] + socket,
            ["reload"] + socket, ["socket-path"] + socket, ["get", "k", "--lang", "ja"] + socket,
            ["dump", strings], ["lint", resources.path], ["coverage", resources.path],
        ]
        for command in commands {
            for spelling in [["--format", "json"], ["--json"]] {
                let result = try run(spelling + command)
                #expect(result.status == 0, "\(spelling + command): \(result.stderr)")
                #expect(json(result.stdout) != nil, "\(spelling + command) printed no JSON: \(result.stdout)")
            }
        }
        let lint = try run(["lint", "--format", "json", resources.path])
        #expect((json(lint.stdout) as? [String: Any])?["findings"] as? [Any] != nil)
        let wrong = try run(["lint", "--format", "yaml", resources.path])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("lint --format is text or json or sarif, not 'yaml'"), "\(wrong.stderr)")
    }

    @Test func helpWorksForEveryCommand() throws {
        let commands = try listedCommands()
        #expect(
            commands == [
                "get", "dump", "coverage", "report", "lint", "export", "import", "status", "reload", "watch",
                "missing", "reset",
                "metrics",
                "languages", "socket-path", "help",
            ])
        for command in commands {
            let help = try run(["help", command])
            #expect(help.status == 0, "help \(command): \(help.stderr)")
            #expect(help.stdout.hasPrefix("Usage: l10nctl \(command)"), "help \(command): \(help.stdout)")
            #expect(try run([command, "--help"]).stdout == help.stdout, "\(command) --help")
        }
    }

    @Test func anUnknownCommandNamesTheFix() throws {
        let bogus = try run(["bogus"])
        #expect(bogus.status == 2)
        #expect(bogus.stderr.contains("unknown command 'bogus'"), "\(bogus.stderr)")
        #expect(bogus.stderr.contains("the commands are get, dump,"), "\(bogus.stderr)")
        #expect(bogus.stderr.contains("see 'l10nctl help')"), "\(bogus.stderr)")
        #expect(!bogus.stderr.contains("help bogus"), "\(bogus.stderr)")
        let typo = try run(["stauts"])
        #expect(typo.stderr.contains("(did you mean 'status'?)"), "\(typo.stderr)")
        let help = try run(["help", "bogus"])
        #expect(help.status == 2)
        #expect(help.stderr.contains("unknown command 'bogus'"), "\(help.stderr)")
        let misplaced = try run(["status", "--resources", "/tmp"])
        #expect(misplaced.status == 2)
        #expect(
            misplaced.stderr.contains(
                "status does not use --resources; the commands that do: get, coverage, report, lint"))
        // Options are read by the parser l10nd uses: the same messages, the same suggestions.
        let option = try run(["get", "k", "--lnag", "ja"])
        #expect(option.status == 2)
        #expect(option.stderr.contains("unknown option '--lnag' (did you mean '--lang'?)"), "\(option.stderr)")
        let missing = try run(["get", "k", "--lang"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("option '--lang' needs a value"), "\(missing.stderr)")
        let flag = try run(["get", "k", "--json=1"])
        #expect(flag.status == 2)
        #expect(flag.stderr.contains("option '--json' takes no value"), "\(flag.stderr)")
    }

    @Test func bothExecutablesPrintTheSameVersion() throws {
        let client = try run(["--version"])
        let daemon = try ProcessRunner.run(PackagePaths.executable("l10nd"), ["--version"])
        #expect(client.status == 0 && daemon.status == 0)
        let clientVersion = client.stdout.split(separator: " ").last
        #expect(client.stdout.hasPrefix("l10nctl ") && daemon.stdout.hasPrefix("l10nd "))
        #expect(clientVersion == daemon.stdout.split(separator: " ").last, "\(client.stdout) \(daemon.stdout)")
        #expect(try run(["status", "--version"]).stdout == client.stdout)
    }

    @Test func l10ndNamesTheFixTooAndPrintsItsManualPages() throws {
        let l10nd = PackagePaths.executable("l10nd")
        let typo = try ProcessRunner.run(l10nd, ["--setle-ms", "5"])
        #expect(typo.status == 2)
        #expect(
            typo.stderr
                == "l10nd: error: unknown option '--setle-ms' (did you mean '--settle-ms'?)\n(see 'l10nd --help', or l10nd(8))\n"
        )
        let page = try ProcessRunner.run(l10nd, ["--man", "nope"])
        #expect(page.status == 2)
        #expect(page.stderr.contains("--man takes l10nd or l10nd.conf, not 'nope'"), "\(page.stderr)")
        for name in ["l10nd", "l10nd.conf"] {
            let roff = try ProcessRunner.run(l10nd, ["--man=\(name)"])
            #expect(roff.status == 0)
            #expect(
                roff.stdout.contains(".SH NAME\n\(name.replacing("-", with: "\\-")) \\- "), "\(roff.stdout.prefix(300))"
            )
        }
        let help = try ProcessRunner.run(l10nd, ["--help"])
        #expect(help.stdout.hasPrefix("l10nd: serve localized strings"), "\(help.stdout)")
    }

    /// Outside testers: `l10nd --resources --socket X` started a daemon serving a root named
    /// `--socket` from the default socket; `l10nctl get k --lang --json` looked `k` up in a
    /// language named `--json`. An option whose next argument is another option lacks its value.
    @Test func anOptionFollowedByAnotherOptionLacksItsValue() throws {
        let socket = try TemporaryDirectory(prefix: "l10nd-sock")
        let daemon = try ProcessRunner.run(
            PackagePaths.executable("l10nd"), ["--resources", "--socket", socket.path + "/l10nd.sock"])
        #expect(daemon.status == 2, "\(daemon.stderr)")
        #expect(daemon.stderr.hasPrefix("l10nd: error: option '--resources' needs a value\n"), "\(daemon.stderr)")
        let client = try run(["get", "k", "--lang", "--json", "--resources", PackagePaths.exampleResources])
        #expect(client.status == 2, "\(client.stdout)")
        #expect(client.stderr.contains("option '--lang' needs a value"), "\(client.stderr)")
        let global = try run(["--socket", "--json", "status"])
        #expect(global.status == 2)
        #expect(global.stderr.contains("option '--socket' needs a value"), "\(global.stderr)")
        // Such a value goes after `=`.
        let inline = try run(["get", "k", "--lang=--json", "--resources", PackagePaths.exampleResources])
        #expect(!inline.stderr.contains("needs a value"), "\(inline.stderr)")
    }

    /// Outside testers: `l10nctl status extra` printed the status and ignored `extra`. A
    /// command that takes no operands refuses one, as `watch` always did.
    @Test func commandsWithoutOperandsRefuseThem() throws {
        for command in ["status", "reload", "watch", "missing", "reset", "metrics", "languages", "socket-path"] {
            let result = try run([command, "extra", "--socket", "/nonexistent/l10nd.sock"])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("unexpected argument 'extra'"), "\(command): \(result.stderr)")
        }
        let export = try run(["export", PackagePaths.exampleResources, "second", "--lang", "fr"])
        #expect(export.status == 2, "\(export.stderr)")
        #expect(export.stderr.contains("unexpected argument 'second'"), "\(export.stderr)")
        let help = try run(["help", "status", "get"])
        #expect(help.status == 2, "\(help.stderr)")
        #expect(help.stderr.contains("unexpected argument 'get'"), "\(help.stderr)")
    }
}
