import Foundation
import Glibc
import TestSupport
import Testing

/// Every fenced block of shell, C, Python or Swift in `README.md`, `CONTRIBUTING.md`,
/// `docs/*.md` and `clients/*/README.md` says whether it runs, on the line before its fence
/// (CONTRIBUTING.md, "Examples in the docs"): `<!-- runnable -->` blocks are run here as
/// printed, each in a temp directory of its own against a real daemon it finds by the socket
/// rule; `<!-- run by PATH -->` blocks are run by that test, which must name the document;
/// `<!-- not runnable: why -->` blocks say why. A block that fails is named by file and line.
@Suite struct DocumentedExamplesTests {
    /// One fenced block and the marker before it.
    struct Block: Sendable, CustomTestStringConvertible {
        /// The document, relative to the checkout (`docs/INSTALL.md`).
        var file: String
        /// The line of its opening fence, from 1.
        var line: Int
        /// The fence's info string's first word (`sh`, `c`, `python`).
        var language: String
        var body: String
        /// The marker's text between `<!--` and `-->`, trimmed, if the line before had one.
        var marker: String?
        /// The body of the next fenced block of the document, for `prints the next block`.
        var nextBody: String?

        var testDescription: String { "\(file):\(line)" }

        /// `runnable`'s options (`no daemon`, `runs until stopped`, `exits N`, `prints the next block`).
        var options: [String]? {
            guard let marker, marker == "runnable" || marker.hasPrefix("runnable:") else { return nil }
            return marker.dropFirst("runnable".count).drop { $0 == ":" }.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        }
    }

    /// The languages a reader could run; the runner runs the first three.
    static let languages: Set<String> = ["sh", "bash", "c", "python", "swift"]

    static let documents: [String] = {
        let root = PackagePaths.root
        let docs = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/docs")) ?? [])
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let clients = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/clients")) ?? [])
            .map { "clients/\($0)/README.md" }.filter { FileManager.default.fileExists(atPath: root + "/" + $0) }
        return (["README.md", "CONTRIBUTING.md"] + docs + clients).sorted()
    }()

    /// The fenced blocks of `file`, each with the marker on the last non-blank line before it.
    static func blocks(in file: String) -> [Block] {
        guard let text = try? String(contentsOfFile: PackagePaths.root + "/" + file, encoding: .utf8) else { return [] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            // Fences may be indented, inside a list item.
            let fence = lines[index].trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = String(fence.dropFirst(3).split(separator: " ").first ?? "")
            var end = index + 1
            while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") { end += 1 }
            let previous = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                .trimmingCharacters(in: .whitespaces)
            var marker: String?
            if let previous, previous.hasPrefix("<!--"), previous.hasSuffix("-->") {
                marker = String(previous.dropFirst(4).dropLast(3)).trimmingCharacters(in: .whitespaces)
            }
            let body = lines[(index + 1)..<min(end, lines.count)].joined(separator: "\n") + "\n"
            if let last = blocks.last, last.file == file, last.nextBody == nil {
                blocks[blocks.count - 1].nextBody = body
            }
            blocks.append(Block(file: file, line: index + 1, language: language, body: body, marker: marker))
            index = end + 1
        }
        return blocks
    }

    static let all: [Block] = documents.flatMap { blocks(in: $0) }
    static let runnable: [Block] = all.filter { $0.options != nil }

    /// A block a reader could run says whether it does, and a marker is one of the three forms.
    @Test func everyBlockSaysWhetherItRuns() {
        #expect(Self.all.count > 40, "\(Self.all.count) blocks found")
        for block in Self.all where Self.languages.contains(block.language) {
            guard let marker = block.marker else {
                Issue.record(
                    "\(block.file):\(block.line): a ```\(block.language) block without <!-- runnable -->, <!-- run by TEST --> or <!-- not runnable: why --> before it"
                )
                continue
            }
            if let test = marker.hasPrefix("run by ") ? String(marker.dropFirst("run by ".count)) : nil {
                let text = try? String(contentsOfFile: PackagePaths.root + "/" + test, encoding: .utf8)
                #expect(
                    text?.contains(block.file) == true,
                    "\(block.file):\(block.line): \(test) does not exist or does not name \(block.file)")
            } else if marker.hasPrefix("not runnable:") {
                #expect(marker.count > "not runnable:".count + 3, "\(block.file):\(block.line): say why")
            } else if let options = block.options {
                #expect(block.language != "swift", "\(block.file):\(block.line): the runner cannot run Swift")
                let known = ["no daemon", "runs until stopped", "prints the next block"]
                for option in options where !known.contains(option) && !option.hasPrefix("exits ") {
                    Issue.record("\(block.file):\(block.line): unknown option '\(option)'")
                }
            } else {
                Issue.record("\(block.file):\(block.line): '<!-- \(marker) -->' is no marker")
            }
        }
        #expect(Self.runnable.count >= 5, "\(Self.runnable.map(\.testDescription))")
    }

    /// The files a block may use, copied into its directory: the examples (also as
    /// `Resources`, a project's own folder in TRANSLATORS.md), the configuration, the clients.
    static func workspace() throws -> TemporaryDirectory {
        let work = try TemporaryDirectory(prefix: "doc-example")
        let root = PackagePaths.root
        try FileManager.default.createDirectory(atPath: work.path + "/Examples", withIntermediateDirectories: true)
        for (source, target) in [
            ("Examples/Resources", "Examples/Resources"), ("Examples/Resources", "Resources"), ("config", "config"),
            ("clients/c", "clients/c"),
        ] {
            try FileManager.default.createDirectory(
                atPath: work.path + "/" + (target as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: root + "/" + source, toPath: work.path + "/" + target)
        }
        try? FileManager.default.removeItem(atPath: work.path + "/clients/c/build")
        return work
    }

    /// A shell line as `bash -x` traces it when its words are plain: without its comment,
    /// single spaces between the words.
    static func shellCommand(_ line: Substring) -> String {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard !text.hasPrefix("#") else { return "" }
        let code = text.components(separatedBy: " #").first ?? ""
        return code.split(separator: " ").joined(separator: " ")
    }

    /// The processes below `pid`, from /proc's parent links.
    static func descendants(of pid: Int32) -> [Int32] {
        var parents: [Int32: Int32] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int32(name),
                let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // "PID (comm) STATE PPID …": comm may hold spaces and parentheses, so after the last ')'.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[child] = parent }
        }
        var found: [Int32] = []
        var frontier = [pid]
        while let next = frontier.popLast() {
            let children = parents.filter { $0.value == next }.map(\.key)
            found += children
            frontier += children
        }
        return found
    }

    @Test(arguments: runnable)
    func runsAsPrinted(_ block: Block) throws {
        let options = block.options ?? []
        let work = try Self.workspace()
        // The per-user socket of the socket rule, in a runtime directory of the block's own.
        let runtime = work.path + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime + "/l10nd", withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        var daemon: DaemonProcess?
        if !options.contains("no daemon") {
            daemon = try DaemonProcess(resources: [work.path + "/Examples/Resources"])
            try FileManager.default.createSymbolicLink(
                atPath: runtime + "/l10nd/l10nd.sock", withDestinationPath: daemon!.socketPath)
        }
        defer { _ = daemon?.stop() }
        let bin = (PackagePaths.executable("l10nd") as NSString).deletingLastPathComponent
        var environment = [
            "PATH": bin + ":/usr/bin:/bin", "HOME": work.path, "LANG": "C.UTF-8", "XDG_RUNTIME_DIR": runtime,
            "PYTHONPATH": PackagePaths.root + "/clients/python",
        ]
        let command: [String]
        switch block.language {
        case "sh", "bash":
            command = ["/bin/bash", "-e", "-o", "pipefail", try work.write(block.body, to: "example.sh")]
        case "python":
            command = ["/usr/bin/python3", try work.write(block.body, to: "example.py")]
        case "c":
            let build = try CLibraryTests.plain.get()
            let program = work.path + "/example"
            try build.compile(try work.write(block.body, to: "example.c"), to: program)
            environment["PKG_CONFIG_PATH"] = build.pkgConfigPath
            command = [program]
        default:
            Issue.record("\(block.file):\(block.line): the runner cannot run ```\(block.language)")
            return
        }
        let place = "\(block.file):\(block.line)"
        if options.contains("runs until stopped") {
            // Traced (bash -x, to the log), so the runner sees the last line start: every line
            // before it ran (-e), and the last must then keep running.
            let traced = [command[0], "-x"] + command.dropFirst()
            let process = try BackgroundProcess("/usr/bin/env", ["-C", work.path] + traced, environment: environment)
            defer {
                // SIGKILL for the block and what it started (a daemon, l10nctl watch): the
                // test process blocks SIGTERM, and its children inherit that.
                for pid in Self.descendants(of: process.pid) + [process.pid] { kill(pid, SIGKILL) }
                process.process.waitUntilExit()
            }
            try #require(command[0] == "/bin/bash", "\(place): only a shell block runs until stopped")
            let last = try #require(
                block.body.split(separator: "\n").map(Self.shellCommand).last { !$0.isEmpty }, "\(place): no command")
            let deadline = Date().addingTimeInterval(60)
            while process.process.isRunning, !process.log.contains("+ \(last)\n"), Date() < deadline {
                usleep(50_000)
            }
            #expect(process.log.contains("+ \(last)\n"), "\(place): never reached '\(last)': \(process.log)")
            let status = process.waitForExit(timeout: 2)
            #expect(status == nil, "\(place): ended with status \(status ?? 0): \(process.log)")
            return
        }
        let output = try ProcessRunner.run(
            command[0], Array(command.dropFirst()), environment: environment, currentDirectory: work.path,
            timeout: 60)
        let expected = options.first { $0.hasPrefix("exits ") }.flatMap { Int32($0.dropFirst("exits ".count)) } ?? 0
        #expect(
            output.status == expected,
            "\(place): exited \(output.status), not \(expected): \(output.stdout)\(output.stderr)")
        if options.contains("prints the next block") {
            #expect(output.stdout == block.nextBody, "\(place) printed: \(output.stdout)")
        }
    }
}
