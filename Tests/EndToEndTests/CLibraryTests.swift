import Foundation
import Glibc
import TestSupport
import Testing

/// The C client library (clients/c) against a real `l10nd` on the example resources: built
/// with its Makefile, programs compiled with `pkg-config --cflags --libs l10nd` against the
/// build directory, as a user of the library builds them. The checks themselves are
/// clients/c/tests/check.c; its README's example runs as printed.
@Suite struct CLibraryTests {
    /// A make, pkg-config or gcc run that failed, with what it printed.
    struct BuildFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A build of the library (with `cflags`) and of check.c against it, in a directory of its own.
    final class Build: Sendable {
        let directory: TemporaryDirectory
        let check: String
        let pkgConfigPath: String
        let linkFlags: [String]

        init(cflags: String, linkFlags: [String] = []) throws {
            directory = try TemporaryDirectory(prefix: "clib")
            pkgConfigPath = directory.path + "/build"
            self.linkFlags = linkFlags
            let make = try ProcessRunner.run(
                "/usr/bin/make",
                ["-C", PackagePaths.root + "/clients/c", "BUILD=" + pkgConfigPath, "CFLAGS=" + cflags],
                environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
            guard make.status == 0 else {
                throw BuildFailure(description: "make -C clients/c failed: \(make.stdout)\(make.stderr)")
            }
            check = directory.path + "/check"
            try compile(PackagePaths.root + "/clients/c/tests/check.c", to: check)
        }

        /// Compiles one C file into `output` with the flags pkg-config gives for this build.
        func compile(_ source: String, to output: String) throws {
            let flags = try ProcessRunner.run(
                "/usr/bin/pkg-config", ["--cflags", "--libs", "l10nd"],
                environment: ["PATH": "/usr/bin:/bin", "PKG_CONFIG_PATH": pkgConfigPath])
            guard flags.status == 0 else {
                throw BuildFailure(description: "pkg-config l10nd failed: \(flags.stderr)")
            }
            let arguments =
                ["-Wall", "-Wextra", "-Werror", "-g", source, "-o", output] + linkFlags
                + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init) + ["-lpthread"]
            let gcc = try ProcessRunner.run(
                "/usr/bin/gcc", arguments, environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
            guard gcc.status == 0 else {
                throw BuildFailure(description: "gcc \(source) failed: \(gcc.stdout)\(gcc.stderr)")
            }
        }
    }

    /// Built once for the suite's tests (make and gcc take seconds).
    static let plain = Result { try Build(cflags: "-O2 -g") }
    static let sanitized = Result {
        let flags = "-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
        return try Build(cflags: flags, linkFlags: flags.split(separator: " ").map(String.init))
    }

    static let threadSanitized = Result {
        let flags = "-O1 -g -fsanitize=thread"
        return try Build(cflags: flags, linkFlags: flags.split(separator: " ").map(String.init))
    }

    /// The library and check.c built with ThreadSanitizer: 16 threads sharing one client
    /// race on nothing (a report exits non-zero).
    @Test func threadSanitizerFindsNoRace() throws {
        let build = try Self.threadSanitized.get()
        let setup = try Self.daemon()
        let output = try Self.run(build.check, ["threads", "16", "200"], socket: setup.daemon.socketPath)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout == "lookups=3200 wrong=0 errors=0\n" && !output.stderr.contains("ThreadSanitizer"))
    }

    /// A daemon on a private copy of the example resources (the subscribe check edits them),
    /// kept as long as the setup is.
    struct Setup {
        let directory: TemporaryDirectory
        let resources: String
        let daemon: DaemonProcess
    }

    static func daemon() throws -> Setup {
        let directory = try TemporaryDirectory(prefix: "clib-resources")
        let resources = directory.path + "/Resources"
        try FileManager.default.copyItem(atPath: PackagePaths.exampleResources, toPath: resources)
        return Setup(directory: directory, resources: resources, daemon: try DaemonProcess(resources: [resources]))
    }

    /// Runs `program` with `arguments` against the daemon, found by `L10N_SOCKET`.
    static func run(_ program: String, _ arguments: [String], socket: String) throws -> ProcessOutput {
        try ProcessRunner.run(
            program, arguments, environment: ["PATH": "/usr/bin:/bin", "L10N_SOCKET": socket], timeout: 120)
    }

    @Test func readmeExampleRunsAsPrinted() throws {
        let build = try Self.plain.get()
        let readme = try String(contentsOfFile: PackagePaths.root + "/clients/c/README.md", encoding: .utf8)
        let source = try #require(Self.block("c", in: readme), "clients/c/README.md has no ```c block")
        let printed = try #require(Self.block("text", in: readme), "clients/c/README.md has no ```text block")
        let file = build.directory.path + "/hello.c"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        try build.compile(file, to: build.directory.path + "/hello")
        let setup = try Self.daemon()
        let daemon = setup.daemon
        let output = try Self.run(build.directory.path + "/hello", [], socket: daemon.socketPath)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == printed)
    }

    @Test func batchErrorsAndSubscribe() throws {
        let build = try Self.plain.get()
        let setup = try Self.daemon()
        let daemon = setup.daemon
        let resources = setup.resources
        let batch = try Self.run(build.check, ["batch"], socket: daemon.socketPath)
        #expect(
            batch.status == 0 && batch.stdout == "Enregistrer|1 Bonjour|1 nowhere|0\n", "\(batch.stdout)\(batch.stderr)"
        )
        let errors = try Self.run(build.check, ["errors"], socket: daemon.socketPath)
        #expect(errors.status == 0, "\(errors.stdout)\(errors.stderr)")
        #expect(errors.stdout.contains("no l10nd is listening on /nonexistent/l10nd.sock"))
        #expect(errors.stdout.contains("refused: code 5: bad_request: "))
        let subscribe = try Self.run(
            build.check, ["subscribe", resources + "/de.lproj/Localizable.strings"], socket: daemon.socketPath)
        #expect(subscribe.status == 0, "\(subscribe.stdout)\(subscribe.stderr)")
        #expect(subscribe.stdout.hasSuffix("reconnected=0; C-Test in de: Neu aus C\n"), "\(subscribe.stdout)")
    }

    /// 16 threads share one client; every answer is checked against the files.
    @Test func sixteenThreadsShareOneClient() throws {
        let build = try Self.plain.get()
        let setup = try Self.daemon()
        let daemon = setup.daemon
        let output = try Self.run(build.check, ["threads", "16", "1000"], socket: daemon.socketPath)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "lookups=16000 wrong=0 errors=0\n", "\(output.stderr)")
    }

    /// Issue 22: an `L10N_MODE` naming no mode was ignored silently; it is said once per
    /// process (mapped mode is used), `direct` turns mapping off.
    @Test func anUnknownModeIsSaidOnce() throws {
        let build = try Self.plain.get()
        let setup = try Self.daemon()
        var outputs: [String: ProcessOutput] = [:]
        for mode in ["bogus", "direct", " direct", "di\"re\nct"] {
            outputs[mode] = try ProcessRunner.run(
                build.check, ["mode"],
                environment: ["PATH": "/usr/bin:/bin", "L10N_SOCKET": setup.daemon.socketPath, "L10N_MODE": mode],
                timeout: 120)
        }
        let bogus = try #require(outputs["bogus"])
        #expect(bogus.status == 0 && bogus.stdout == "client 0: state 0, mapped\nclient 1: state 0, mapped\n")
        #expect(
            bogus.stderr
                == "l10nd-client: L10N_MODE=\"bogus\" is not a mode of this library (mapped, direct); using mapped mode\n"
        )
        // Quoted and escaped as the Swift and Python clients write it: a stray space shows, a
        // quote or a newline cannot forge the rest of the line.
        for (mode, shown) in [(" direct", #"" direct""#), ("di\"re\nct", #""di\"re\x0Act""#)] {
            #expect(
                outputs[mode]?.stderr
                    == "l10nd-client: L10N_MODE=\(shown) is not a mode of this library (mapped, direct); using mapped mode\n"
            )
        }
        let direct = try #require(outputs["direct"])
        #expect(direct.stdout == "client 0: state 0, not mapped\nclient 1: state 0, not mapped\n")
        #expect(direct.stderr == "")
    }

    /// Issue 22: one client shared across fork(2), while the parent's threads look up with it.
    /// Before, parent and child read each other's replies on the one socket and timed out.
    @Test func aClientSharedAcrossForkConnectsAnewInTheChild() throws {
        let build = try Self.plain.get()
        let setup = try Self.daemon()
        let output = try Self.run(build.check, ["fork"], socket: setup.daemon.socketPath)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout == "fork: parent and 3 children ok\n", "\(output.stdout)\(output.stderr)")
    }

    /// The socket rule with nothing set: the per-user socket is absent, so the system one
    /// (replaced for the test by `L10N_SYSTEM_SOCKET_FOR_TESTS`) is found; with neither, the
    /// message names both paths.
    @Test func socketRuleFindsTheSystemSocket() throws {
        let build = try Self.plain.get()
        let setup = try Self.daemon()
        let daemon = setup.daemon
        let directory = setup.directory
        let runtime = directory.path + "/runtime"
        let found = try ProcessRunner.run(
            build.check, ["batch"],
            environment: [
                "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "L10N_SYSTEM_SOCKET_FOR_TESTS": daemon.socketPath,
            ])
        #expect(found.status == 0, "\(found.stdout)\(found.stderr)")
        let missing = try ProcessRunner.run(
            build.check, ["batch"],
            environment: [
                "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime,
                "L10N_SYSTEM_SOCKET_FOR_TESTS": directory.path + "/none.sock",
            ])
        #expect(missing.status != 0)
        #expect(
            missing.stdout.contains(
                "tried \(runtime)/l10nd/l10nd.sock: no such socket, then no l10nd is listening on \(directory.path)/none.sock"
            ),
            "\(missing.stdout)")
    }

    /// A relative `L10N_SOCKET` is taken from the current directory, as every client takes
    /// it (ClientSocketPath); a refused permission names the socket's real group (here
    /// `users`), found by `stat`, as the Swift library and l10nctl name it.
    @Test func relativeSocketAndTheSocketsGroup() throws {
        let build = try Self.plain.get()
        let setup = try Self.daemon()
        let daemon = setup.daemon
        let directory = (daemon.socketPath as NSString).deletingLastPathComponent
        for relative in [(daemon.socketPath as NSString).lastPathComponent, "./l10nd.sock"] {
            let found = try ProcessRunner.run(
                build.check, ["batch"], environment: ["PATH": "/usr/bin:/bin", "L10N_SOCKET": relative],
                currentDirectory: directory, timeout: 60)
            #expect(found.status == 0, "\(found.stdout)\(found.stderr)")
        }
        // Made absolute, as every client makes it: the message names the file asked for.
        let missing = try ProcessRunner.run(
            build.check, ["batch"], environment: ["PATH": "/usr/bin:/bin", "L10N_SOCKET": "none.sock"],
            currentDirectory: directory, timeout: 60)
        #expect(missing.status != 0)
        #expect(
            missing.stdout.contains("no l10nd is listening on \(directory)/none.sock"),
            "\(missing.stdout)\(missing.stderr)")
        guard getuid() == 0 else { return }  // root is refused nothing: the check runs as nobody
        for path in [directory, build.directory.path, build.pkgConfigPath] { chmod(path, 0o755) }
        #expect(chown(daemon.socketPath, UInt32.max, 100) == 0)  // users
        let refused = try ProcessRunner.run(
            "/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", build.check, "batch"],
            environment: ["PATH": "/usr/bin:/bin", "L10N_SOCKET": daemon.socketPath], timeout: 60)
        #expect(refused.status != 0)
        #expect(
            refused.stdout.contains(
                "permission denied connecting to \(daemon.socketPath): join the group 'users', which owns the socket"),
            "\(refused.stdout)\(refused.stderr)")
    }

    /// A client made before a daemon restart answers the first call after it, and a
    /// subscription is renewed and says so.
    @Test func survivesADaemonRestart() throws {
        let build = try Self.plain.get()
        let setup = try Self.daemon()
        let first = setup.daemon
        let resources = setup.resources
        let process = Process()
        process.executableURL = URL(fileURLWithPath: build.check)
        process.arguments = ["restart"]
        process.environment = SanitizerEnvironment.adding(to: [
            "PATH": "/usr/bin:/bin", "L10N_SOCKET": first.socketPath,
        ])
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let reader = output.fileHandleForReading
        var text = ""
        while !text.contains("ready\n"), let chunk = Optional(reader.availableData), !chunk.isEmpty {
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text == "ready\n")
        #expect(first.stop() == 0)
        // Started directly: DaemonProcess waits on a socket of its own, and this one must be the
        // first one's path. The check's next lookup waits (up to its 10 s limit) for it to listen.
        let second = Process()
        second.executableURL = URL(fileURLWithPath: PackagePaths.executable("l10nd"))
        second.arguments = ["--resources", resources, "--socket", first.socketPath]
        second.environment = SanitizerEnvironment.adding(to: ["PATH": "/usr/bin:/bin"])
        second.standardError = FileHandle.nullDevice
        try second.run()
        defer {
            second.terminate()
            second.waitUntilExit()
        }
        input.fileHandleForWriting.write(Data("restarted\n".utf8))
        try input.fileHandleForWriting.close()
        text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text == "ready\nafter the restart: ok\nsubscription: reconnected=1\nmapped again: yes\n")
    }

    /// The library and check.c built with AddressSanitizer and UBSan: every check passes with
    /// no report (a report halts the program with a non-zero status and prints it). `garbage`
    /// feeds the reply reader broken and random replies from a fake daemon. Not `fork`: ASan's
    /// own allocator is not fork-safe, and a child forked while a parent thread allocated hung
    /// for good in the allocator's lock (seen in a full run); the plain build runs it.
    @Test func sanitizersFindNothing() throws {
        let build = try Self.sanitized.get()
        let setup = try Self.daemon()
        let daemon = setup.daemon
        let resources = setup.resources
        let runs = [
            ["threads", "16", "300"], ["batch"], ["errors"], ["garbage"], ["events"],
            ["subscribe", resources + "/de.lproj/Localizable.strings"],
        ]
        for arguments in runs {
            let output = try Self.run(build.check, arguments, socket: daemon.socketPath)
            #expect(output.status == 0, "check \(arguments): \(output.stdout)\(output.stderr)")
            #expect(
                !output.stderr.contains("Sanitizer") && !output.stderr.contains("runtime error"), "\(output.stderr)")
        }
    }

    /// Mapped lookups (the default) while a writer rewrites the files: 16 threads get their own
    /// key and language, never older than they saw, batches of one generation; each rewrite is
    /// answered; the last generation ends mapped and the older ones unmapped; direct mode
    /// unmaps everything (`check mapped`). Built plain, with ASan and UBSan, and with TSan.
    @Test func mappedLookupsFollowRewrites() throws {
        let builds = [
            ("plain", try Self.plain.get(), "2000"), ("asan", try Self.sanitized.get(), "300"),
            ("tsan", try Self.threadSanitized.get(), "200"),
        ]
        for (name, build, lookups) in builds {
            let directory = try TemporaryDirectory(prefix: "clib-mapped")
            let resources = directory.path + "/Resources"
            for language in ["de", "fr", "ja", "ru", "es", "it", "pt-BR", "zh-Hans"] {
                try FileManager.default.createDirectory(
                    atPath: resources + "/\(language).lproj", withIntermediateDirectories: true)
                let lines = (0..<40).map { "\"key \($0)\" = \"\(language) value \($0) v0\";\n" }
                try lines.joined().write(
                    toFile: resources + "/\(language).lproj/Localizable.strings", atomically: true, encoding: .utf8)
            }
            let daemon = try DaemonProcess(resources: [resources])
            let output = try Self.run(build.check, ["mapped", resources, "16", lookups], socket: daemon.socketPath)
            #expect(output.status == 0, "\(name): \(output.stdout)\(output.stderr)")
            #expect(output.stdout.contains("wrong=0 errors=0 rewrites=24"), "\(name): \(output.stdout)")
            #expect(
                !output.stderr.contains("Sanitizer") && !output.stderr.contains("runtime error"),
                "\(name): \(output.stderr)")
        }
    }

    /// Mapped answers equal the daemon's on real tables: every key of iina's `.strings` and
    /// Mastodon's `.stringsdict` (plural entries, asked) that six languages' `table` replies
    /// list (their fallbacks too), and some missing keys, looked up mapped and asked
    /// (`check parity`).
    @Test(
        .enabled(
            if: PackagePaths.corpus != nil && PackagePaths.shared(Self.mastodonResources) != nil,
            "the shared corpus is absent"))
    func mappedAnswersEqualTheDaemonsOnRealTables() throws {
        let build = try Self.plain.get()
        let roots = [try #require(PackagePaths.corpus), try #require(PackagePaths.shared(Self.mastodonResources))]
        let daemon = try DaemonProcess(resources: roots)
        var lines = ""
        for language in ["de", "fr", "ja", "zh-Hans", "pt-BR", "ru"] {
            let files = roots.flatMap {
                (try? FileManager.default.contentsOfDirectory(atPath: "\($0)/\(language).lproj")) ?? []
            }
            for table in Set(files.map { ($0 as NSString).deletingPathExtension }).sorted() {
                let reply = try daemon.request(["op": "table", "lang": language, "table": table])
                let keys = (reply["entries"] as? [String: Any] ?? [:]).keys.sorted()
                for (index, key) in keys.enumerated() where !key.contains("\t") && !key.contains("\n") {
                    lines += "\(language)\t\(table)\t\(key)\n"
                    if index % 9 == 0 { lines += "\(language)\t\(table)\t\(key) ✗\n" }
                    // An ASCII miss is answered in place; a non-ASCII one (above) is asked, as
                    // the library does not compose keys (NFC) to be sure it is absent.
                    if index % 9 == 4 { lines += "\(language)\t\(table)\t\(key) (missing)\n" }
                    // Fallbacks along chains only the daemon builds (CLDR parents, likely
                    // subtags, last resorts, lists, Accept-Language, none), and misses.
                    if index % 4 == 0 {
                        let other = Self.fallbackLanguages[(index / 4) % Self.fallbackLanguages.count]
                        lines += "\(other)\t\(table)\t\(key)\n"
                    }
                }
            }
        }
        let directory = try TemporaryDirectory(prefix: "clib-parity")
        try lines.write(toFile: directory.path + "/keys", atomically: true, encoding: .utf8)
        let output = try Self.run(
            build.check, ["parity", directory.path + "/keys", String(daemon.process.processIdentifier)],
            socket: daemon.socketPath)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("differ=0 errors=0 mapped=yes"), "\(output.stdout)\(output.stderr)")
        // With the daemon stopped, what still answers was answered in place: nearly every line
        // (plural entries and non-ASCII misses are asked), fallbacks and misses among them.
        let counts = Dictionary(
            output.stdout.split(separator: " ").compactMap { field -> (String, Int)? in
                let parts = field.split(separator: "=")
                guard parts.count == 2, let number = Int(parts[1].trimmingCharacters(in: .whitespacesAndNewlines))
                else { return nil }
                return (String(parts[0]), number)
            }, uniquingKeysWith: { first, _ in first })
        let lookups = try #require(counts["lookups"])
        #expect(try #require(counts["in_place"]) * 10 > lookups * 9, "\(output.stdout)")
        #expect(try #require(counts["fallbacks"]) > 1_000, "\(output.stdout)")
        #expect(try #require(counts["misses"]) > 500, "\(output.stdout)")
    }

    /// A daemon that refuses `map` for real, with no test hook: its descriptor limit is
    /// lowered from outside (`prlimit`) to leave it one descriptor free, so the slab of a file
    /// rewritten then cannot be had (its memory file needs two) and the rebuilt segment lies in
    /// private memory: `map` answers `unavailable`, and the library's lookups are asked of the
    /// daemon and answer exactly as before (`check refused`).
    @Test func lookupsAreAskedAndRightWhenMapIsRefused() throws {
        let build = try Self.plain.get()
        let directory = try TemporaryDirectory(prefix: "clib-refused")
        let resources = try Self.deAndEnResources(in: directory.path)
        let daemon = try DaemonProcess(resources: [resources])
        let output = try Self.run(
            build.check,
            ["refused", String(daemon.process.processIdentifier), resources + "/de.lproj/Localizable.strings"],
            socket: daemon.socketPath)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout == "generation=-1 refusal=unavailable\nrefused: ok\n", "\(output.stdout)\(output.stderr)")
    }

    /// A content-only edit keeps the daemon's fallback chains (l10nd_chains.h): once its
    /// generation is mapped, a daemon killed before any lookup asked a chain of it still leaves
    /// a fallback answered in place, not an error after a reconnect attempt (`check carry`).
    @Test func fallbacksAnswerInPlaceWhenTheDaemonDiesAfterAnEdit() throws {
        let build = try Self.plain.get()
        let directory = try TemporaryDirectory(prefix: "clib-carry")
        let resources = try Self.deAndEnResources(in: directory.path)
        let daemon = try DaemonProcess(resources: [resources])
        let output = try Self.run(
            build.check,
            ["carry", String(daemon.process.processIdentifier), resources + "/de.lproj/Localizable.strings"],
            socket: daemon.socketPath)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout == "carry: ok\n", "\(output.stdout)\(output.stderr)")
    }

    /// Issue 22: misses answered in place while the daemon is away wait for its return, at
    /// most 4,096 keys, and what is not reported is said, not dropped silently (`check held`):
    /// the daemon killed, 5,000 distinct misses answered in place, then `l10nd_close` (which
    /// cannot send the 4,096 waiting either) writes one line counting both. Built plain and
    /// with ASan and UBSan (the held keys are put back after a failed send).
    @Test func missesThatCannotBeReportedAreSaid() throws {
        for (name, build) in [("plain", try Self.plain.get()), ("asan", try Self.sanitized.get())] {
            let directory = try TemporaryDirectory(prefix: "clib-held")
            let resources = try Self.deAndEnResources(in: directory.path)
            let daemon = try DaemonProcess(resources: [resources])
            let output = try Self.run(
                build.check, ["held", String(daemon.process.processIdentifier)], socket: daemon.socketPath)
            #expect(output.status == 0, "\(name): \(output.stdout)\(output.stderr)")
            #expect(output.stdout == "held: answered in place\n", "\(name): \(output.stdout)")
            #expect(
                output.stderr
                    == "l10nd-client: 5000 misses and fallbacks answered in place were not reported to l10nd's "
                    + "missing-key report (904 past the 4096 keys that may wait, 4096 that could not be sent)\n",
                "\(name): \(output.stderr)")
        }
    }

    /// Issue 22: during a daemon outage every call honours its own time limit. Four threads
    /// share a client with a 1,000 ms limit, asking lookups one after another; the daemon is
    /// killed, and for 3 s more each call fails (naming the socket) within 1,250 ms (`check
    /// outage`). Before, a call waited for the write lock behind the other threads' reconnect
    /// attempts (held while sleeping between them) and failed after 2 s and more. Built plain
    /// and with ThreadSanitizer (the write turn and the reconnect loop race on nothing).
    @Test func callsDuringAnOutageEndWithinTheirTimeLimit() throws {
        for (name, build) in [("plain", try Self.plain.get()), ("tsan", try Self.threadSanitized.get())] {
            let setup = try Self.daemon()
            let output = try Self.run(
                build.check, ["outage", String(setup.daemon.process.processIdentifier), "4", "1000"],
                socket: setup.daemon.socketPath)
            #expect(output.status == 0, "\(name): \(output.stdout)\(output.stderr)")
            #expect(output.stdout == "outage: late=0 other=0 unreachable=yes\n", "\(name): \(output.stdout)")
            #expect(!output.stderr.contains("ThreadSanitizer"), "\(name): \(output.stderr)")
        }
    }

    /// A daemon that hangs before accepting (its socket listens and nothing accepts for 4 s):
    /// sixteen threads share a client with a 1,000 ms limit, asking a lookup the daemon must
    /// answer (ja, fr); each call ends within 1,250 ms (`check silent`). Before, a lookup spent
    /// its limit on the watch connection's subscribe and then its limit again on the lookup
    /// (2 s; backlog 64), and a connect behind a full backlog (1) waited until the listener
    /// went (4 s): one deadline per call now bounds the watch, the connects and the lookup.
    @Test(arguments: ["1", "64"]) func callsToAHungDaemonEndWithinTheirTimeLimit(backlog: String) throws {
        let output = try Self.run(
            try Self.plain.get().check, ["silent", "16", "1000", backlog], socket: "/nonexistent")
        #expect(output.status == 0, "backlog \(backlog): \(output.stdout)\(output.stderr)")
        #expect(output.stdout == "silent: late=0 other=0 open_late=no\n", "backlog \(backlog): \(output.stdout)")
    }

    /// Resources in `directory` where de has "a" = "A de" and en "a" and "b": what `check
    /// refused`, `check carry` and `check held` expect; their path.
    static func deAndEnResources(in directory: String) throws -> String {
        let resources = directory + "/Resources"
        for (language, text) in [("de", "\"a\" = \"A de\";\n"), ("en", "\"a\" = \"A en\";\n\"b\" = \"B en\";\n")] {
            try FileManager.default.createDirectory(
                atPath: "\(resources)/\(language).lproj", withIntermediateDirectories: true)
            try text.write(
                toFile: "\(resources)/\(language).lproj/Localizable.strings", atomically: true, encoding: .utf8)
        }
        return resources
    }

    /// The `check parity` languages of the fallback lines: `|` separates a list's tags.
    static let fallbackLanguages = [
        "de-AT", "zh-Hant-TW", "zh-TW", "pt", "pt-PT", "en-AU", "es-MX", "sr-Latn", "nb", "Base", "sv|de",
        "fi|ja-JP", "fr-CH, fr;q=0.9, en;q=0.8", "", "ja_JP.UTF-8", "sv",
    ]

    static let mastodonResources = "corpus/mastodon-ios/MastodonSDK/Sources/MastodonLocalization/Resources"

    /// Found by the c-reply fuzz target: an `"event":null` line crashed `l10nd_next_event`
    /// (strcmp of NULL). A fake daemon sends lines whose `event` is null, a number and an array
    /// before a real change event: they are skipped, and the change is the event returned.
    @Test func eventLinesOfAnotherShapeAreSkipped() throws {
        let build = try Self.plain.get()
        let output = try ProcessRunner.run(build.check, ["events"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout == "event: generation=9 reconnected=0\n", "\(output.stdout)\(output.stderr)")
    }

    /// `clang` on the tests' `PATH`, in the Swift toolchain or in /usr/bin, if any.
    static let clang: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return (path.split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin"])
            .map { $0 + "/clang" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// `scripts/fuzz` run for 10 s on `target` into a temp directory: what it printed, and the
    /// target's log.
    static func fuzz(_ target: String) throws -> (ProcessOutput, String) {
        let clang = try #require(Self.clang)
        let out = try TemporaryDirectory(prefix: "fuzz-" + target)
        let run = try ProcessRunner.run(
            PackagePaths.root + "/scripts/fuzz", ["10", target],
            environment: [
                "PATH": (clang as NSString).deletingLastPathComponent + ":/usr/bin:/bin", "L10ND_FUZZ_OUT": out.path,
            ], timeout: 300)
        return (run, (try? String(contentsOfFile: out.path + "/\(target).log", encoding: .utf8)) ?? "")
    }

    /// A short run of the reply reader's libFuzzer target (Fuzz/Targets/c-reply.c, through
    /// `scripts/fuzz` into a temp directory): every committed seed, among them each input a
    /// run found, runs first, then 10 s of new inputs, all under ASan and UBSan; any finding
    /// fails it with libFuzzer's report. `scripts/fuzz 600 c-reply` is the long run.
    @Test(.enabled(if: clang != nil, "clang is not installed: the C fuzz target is not run"))
    func replyFuzzTargetRunsClean() throws {
        let (run, log) = try Self.fuzz("c-reply")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(log.suffix(4000))")
        #expect(run.stdout.contains("c-reply: clean;"), "\(run.stdout)")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: PackagePaths.root + "/Fuzz/Seeds/c-reply")
        #expect(seeds.contains("crash-event-null.json"))
        // libFuzzer read every seed before mutating: "INFO: seed corpus: files: N".
        #expect(log.contains("seed corpus: files: \(seeds.count)"), "\(log.prefix(2000))")
    }

    /// A short run of the segment and map-reply reader's libFuzzer target
    /// (Fuzz/Targets/c-segment.c: the segment seeds, and a map reply over a sealed memory
    /// file), as ``replyFuzzTargetRunsClean()``. `scripts/fuzz 600 c-segment` is the long run.
    @Test(.enabled(if: clang != nil, "clang is not installed: the C fuzz target is not run"))
    func segmentFuzzTargetRunsClean() throws {
        let (run, log) = try Self.fuzz("c-segment")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)\n\(log.suffix(4000))")
        #expect(run.stdout.contains("c-segment: clean;"), "\(run.stdout)")
    }

    /// `rustc` on the tests' `PATH` or in `~/.cargo/bin` (where rustup puts it), if any.
    static let rustc: String? = {
        let environment = ProcessInfo.processInfo.environment
        let directories =
            (environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + [(environment["HOME"] ?? "/root") + "/.cargo/bin"]
        return directories.map { $0 + "/rustc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// A Rust program (clients/c/tests/ffi.rs: plain `extern "C"`, no crates) built with `rustc`
    /// against the library looks strings up and gets a finished string.
    @Test(.enabled(if: rustc != nil, "rustc is not installed: the Rust FFI check is skipped"))
    func rustProgramThroughFFI() throws {
        let build = try Self.plain.get()
        let rustc = try #require(Self.rustc)
        let program = build.directory.path + "/ffi"
        let compile = try ProcessRunner.run(
            rustc,
            [
                "--edition", "2021", PackagePaths.root + "/clients/c/tests/ffi.rs", "-o", program,
                "-L", build.pkgConfigPath, "-l", "l10nd", "-C", "link-arg=-Wl,-rpath," + build.pkgConfigPath,
            ],
            environment: ["PATH": "/usr/bin:/bin", "HOME": ProcessInfo.processInfo.environment["HOME"] ?? "/root"],
            timeout: 300)
        #expect(compile.status == 0, "rustc failed: \(compile.stderr)")
        guard compile.status == 0 else { return }
        let setup = try Self.daemon()
        let daemon = setup.daemon
        let output = try Self.run(program, ["de", "fr", "ja"], socket: daemon.socketPath)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "de=Hallo\nfr=Bonjour\nja=こんにちは\nAnaさんに新しいメッセージが3件あります\n")
    }

    /// The body of the first fenced block of `language` in `markdown`.
    static func block(_ language: String, in markdown: String) -> String? {
        guard let start = markdown.range(of: "```\(language)\n"),
            let end = markdown.range(of: "\n```", range: start.upperBound..<markdown.endIndex)
        else { return nil }
        return String(markdown[start.upperBound..<end.lowerBound]) + "\n"
    }
}
