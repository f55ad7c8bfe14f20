import Foundation
import TestSupport
import Testing

/// What the Debian package ships, checked cheaply: the manual pages the executables print
/// render without a warning and say what `--help` says, the completions offer every command
/// and option, and (once `scripts/package` has run, as `scripts/test` does first) the `.deb`
/// itself. Installing it into a clean Debian root is `scripts/test-package`.
@Suite struct PackagingTests {
    let l10nctl = PackagePaths.executable("l10nctl")
    let l10nd = PackagePaths.executable("l10nd")

    /// The manual pages, as the package makes them: (name, program, arguments).
    static let pages = [
        ("l10nctl.1", "l10nctl", ["help", "--format", "man"]), ("l10nd.8", "l10nd", ["--man", "l10nd"]),
        ("l10nd.conf.5", "l10nd", ["--man", "l10nd.conf"]),
    ]

    /// `page` formatted by man-db as a reader sees it, 80 columns wide; fails on any warning.
    func rendered(_ roff: String, name: String) throws -> String {
        let directory = try TemporaryDirectory()
        let file = try directory.write(roff, to: name)
        let result = try ProcessRunner.run(
            "/usr/bin/man", ["--warnings", "-E", "UTF-8", "-l", file],
            environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0", "LANG": "C.UTF-8"])
        #expect(result.status == 0, "\(name): \(result.stderr)")
        #expect(result.stderr.isEmpty, "\(name) warns: \(result.stderr)")
        // Words as a reader sees them, whatever the line breaks, and without the overstrikes
        // (`N\bN`) man writes for bold.
        var plain: [Character] = []
        for character in result.stdout {
            if character == "\u{8}" { _ = plain.popLast() } else { plain.append(character) }
        }
        return String(plain).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The `--name` options a help text lists: the first word of each entry line (two
    /// spaces in, an option name and nothing glued to it).
    func optionTerms(_ help: String) -> Set<String> {
        Set(
            help.split(separator: "\n").compactMap { line in
                guard line.hasPrefix("  --"), let word = line.dropFirst(2).split(separator: " ").first else {
                    return nil
                }
                let name = word.dropFirst(2)
                return name.allSatisfy({ $0.isLowercase || $0 == "-" }) && !name.isEmpty ? String(word) : nil
            })
    }

    @Test(arguments: pages)
    func manualPagesRenderWithoutWarnings(name: String, program: String, arguments: [String]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "man-db is not installed")
        let roff = try ProcessRunner.run(PackagePaths.executable(program), arguments)
        #expect(roff.status == 0, "\(roff.stderr)")
        let text = try rendered(roff.stdout, name: name)
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION"] where name != "l10nctl.1" || heading != "DESCRIPTION" {
            #expect(text.contains(" \(heading) "), "\(name) lacks \(heading)")
        }
    }

    @Test func theManualPagesSayWhatTheHelpSays() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "man-db is not installed")
        let daemonHelp = try ProcessRunner.run(l10nd, ["--help"]).stdout
        let daemonPage = try rendered(try ProcessRunner.run(l10nd, ["--man", "l10nd"]).stdout, name: "l10nd.8")
        #expect(optionTerms(daemonHelp).count == 11, "\(optionTerms(daemonHelp))")
        for option in optionTerms(daemonHelp) { #expect(daemonPage.contains(option), "l10nd(8) lacks \(option)") }
        let clientPage = try rendered(
            try ProcessRunner.run(l10nctl, ["help", "--format", "man"]).stdout, name: "l10nctl.1")
        for command in [
            "get", "dump", "coverage", "lint", "export", "import", "status", "reload", "watch", "missing", "reset",
        ] {
            let help = try ProcessRunner.run(l10nctl, ["help", command]).stdout
            for option in optionTerms(help) { #expect(clientPage.contains(option), "l10nctl(1) lacks \(option)") }
            // The first sentence of the command's help, as the page wraps it.
            let sentence = help.split(separator: "\n")[1].split(separator: " ").prefix(6).joined(separator: " ")
            #expect(clientPage.contains(sentence), "l10nctl(1) lacks \(command)'s '\(sentence)'")
        }
        let configurationPage = try rendered(
            try ProcessRunner.run(l10nd, ["--man", "l10nd.conf"]).stdout, name: "l10nd.conf.5")
        let shipped = try String(contentsOfFile: PackagePaths.root + "/config/l10nd.conf", encoding: .utf8)
        for line in shipped.split(separator: "\n") where line.hasPrefix("# ") && line.contains(":") {
            let key = line.dropFirst(2).prefix { $0 != ":" }
            // A key is a documented word the file also sets, or shows set in a comment.
            let lines = shipped.split(separator: "\n")
            guard lines.contains(where: { $0.hasPrefix("\(key) = ") || $0.hasPrefix("# \(key) = ") }) else { continue }
            #expect(configurationPage.contains("\(key) = "), "l10nd.conf(5) lacks \(key)")
        }
    }

    @Test func completionsOfferEveryCommandAndOption() throws {
        let commands = [
            "get", "dump", "coverage", "lint", "export", "import", "status", "reload", "watch", "missing", "reset",
            "metrics",
            "languages", "socket-path", "help",
        ]
        var options = optionTerms(try ProcessRunner.run(l10nctl, ["--help"]).stdout)
        for command in commands {
            options.formUnion(optionTerms(try ProcessRunner.run(l10nctl, ["help", command]).stdout))
        }
        for file in ["l10nctl.bash", "_l10nctl"] {
            let text = try String(contentsOfFile: PackagePaths.root + "/completions/" + file, encoding: .utf8)
            for command in commands { #expect(text.contains(command), "\(file) lacks \(command)") }
            for option in options { #expect(text.contains(option), "\(file) lacks \(option)") }
        }
        let daemonOptions = optionTerms(try ProcessRunner.run(l10nd, ["--help"]).stdout)
        for file in ["l10nd.bash", "_l10nd"] {
            let text = try String(contentsOfFile: PackagePaths.root + "/completions/" + file, encoding: .utf8)
            for option in daemonOptions { #expect(text.contains(option), "\(file) lacks \(option)") }
        }
    }

    /// The package `scripts/package` left in `.build/debian`, if any.
    static var builtPackage: String? { built("l10nd_") }

    /// The Python client's package `scripts/package` left beside it, if any.
    static var builtPythonPackage: String? { built("python3-l10nd_") }

    static func built(_ prefix: String) -> String? {
        let directory = PackagePaths.root + "/.build/debian"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".deb") }.sorted().last.map {
            directory + "/" + $0
        }
    }

    /// Outside testers: in an image build (no running systemd) the postinst left l10nd.socket
    /// disabled. The real maintainer scripts, run as dpkg runs them into a root of their own
    /// (`DPKG_ROOT`, so the host is not touched), enable it with deb-systemd-helper, make the
    /// group, and on purge leave nothing of either link behind.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/deb-systemd-helper")))
    func postinstEnablesTheSocketWithoutARunningSystemd() throws {
        let root = try TemporaryDirectory()
        for unit in ["l10nd.socket", "l10nd.service"] {
            try root.write(
                try String(contentsOfFile: PackagePaths.root + "/systemd/" + unit, encoding: .utf8),
                to: "lib/systemd/system/" + unit)
        }
        try root.write("root:x:0:\n", to: "etc/group")
        try root.write("root:*::\n", to: "etc/gshadow")
        try FileManager.default.createDirectory(
            atPath: root.path + "/var/lib/systemd", withIntermediateDirectories: true)
        func script(_ name: String, _ argument: String) throws {
            let result = try ProcessRunner.run(
                "/bin/sh", [PackagePaths.root + "/packaging/debian/" + name, argument],
                environment: [
                    "PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DPKG_ROOT": root.path,
                    "DPKG_MAINTSCRIPT_PACKAGE": "l10nd",
                ])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(name) \(argument): \(result.stderr)")
        }
        let link = root.path + "/etc/systemd/system/sockets.target.wants/l10nd.socket"
        try script("postinst", "configure")
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "/lib/systemd/system/l10nd.socket")
        #expect(try String(contentsOfFile: root.path + "/etc/group", encoding: .utf8).contains("\nl10n:x:"))
        try script("prerm", "remove")
        try script("postrm", "remove")
        try script("postrm", "purge")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
        let mask = root.path + "/etc/systemd/system/l10nd.socket"
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: mask)) == nil)
    }

    /// python3-l10nd puts the module where Debian's python3 finds it, and it works as unpacked.
    @Test(
        .enabled(
            if: builtPythonPackage != nil,
            "no .build/debian/python3-l10nd_*.deb: scripts/package makes it, scripts/test runs it"))
    func thePythonPackageHoldsAWorkingModule() throws {
        let deb = try #require(Self.builtPythonPackage)
        let info = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--field", deb]).stdout
        let version =
            try ProcessRunner.run(l10nd, ["--version"]).stdout.split(separator: " ").last?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        #expect(info.contains("Package: python3-l10nd\n"))
        #expect(info.contains("Version: \(version)\n"), "\(info)")
        #expect(info.contains("Architecture: all\n") && info.contains("Depends: python3 (>= 3.9)\n"), "\(info)")
        let contents = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--contents", deb]).stdout
        let packages = "./usr/lib/python3/dist-packages/"
        for path in [
            packages + "l10nd_client/__init__.py", packages + "l10nd_client/client.py",
            packages + "l10nd_client-\(version).dist-info/METADATA", "./usr/share/doc/python3-l10nd/copyright",
        ] {
            #expect(contents.contains(" \(path)\n"), "the package lacks \(path)")
        }
        let unpacked = try TemporaryDirectory()
        let extract = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--extract", deb, unpacked.path])
        #expect(extract.status == 0, "\(extract.stderr)")
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let script = """
            import l10nd_client, sys
            assert l10nd_client.__file__.startswith(sys.argv[1]), l10nd_client.__file__
            with l10nd_client.Client() as l10n:
                print(l10n.localized("%d files in %d folders", 21, 2, lang="ru"))
            """
        let result = try ProcessRunner.run(
            "/usr/bin/python3", ["-c", script, unpacked.path],
            environment: [
                "L10N_SOCKET": daemon.socketPath, "PYTHONPATH": unpacked.path + "/usr/lib/python3/dist-packages",
            ])
        #expect(result.stdout == "21 файл в 2 папках\n", "\(result.stderr)")
    }

    /// The C library's packages scripts/package (scripts/package-c) left beside it, if any.
    static var builtCPackages: (runtime: String, dev: String)? {
        guard let runtime = built("libl10nd0_"), let dev = built("libl10nd-dev_") else { return nil }
        return (runtime, dev)
    }

    /// libl10nd0 holds the shared library under its soname with a symbols and a shlibs file,
    /// libl10nd-dev the header, the link and l10nd.pc: unpacked into a root of their own, a
    /// C program (clients/c/README.md's example) compiles with `pkg-config --cflags --libs
    /// l10nd` from it, loads the packaged library through its soname, and answers from a
    /// real daemon as the README prints.
    @Test(
        .enabled(
            if: builtCPackages != nil,
            "no .build/debian/libl10nd{0,-dev}_*.deb: scripts/package makes them, scripts/test runs it"))
    func theCDevelopmentPackageBuildsAProgram() throws {
        let (runtime, dev) = try #require(Self.builtCPackages)
        let version =
            try ProcessRunner.run(l10nd, ["--version"]).stdout.split(separator: " ").last?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let multiarch = try ProcessRunner.run("/usr/bin/dpkg-architecture", ["-qDEB_HOST_MULTIARCH"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let runtimeInfo = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--field", runtime]).stdout
        #expect(runtimeInfo.contains("Package: libl10nd0\n") && runtimeInfo.contains("Section: libs\n"))
        #expect(runtimeInfo.contains("Version: \(version)\n"), "\(runtimeInfo)")
        let depends = try #require(runtimeInfo.split(separator: "\n").first { $0.hasPrefix("Depends: ") })
        #expect(depends.contains("libc6") && depends.contains("libjson-c5"), "\(depends)")
        let devInfo = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--field", dev]).stdout
        #expect(devInfo.contains("Package: libl10nd-dev\n") && devInfo.contains("Section: libdevel\n"))
        #expect(devInfo.contains("Depends: libl10nd0 (= \(version)), libjson-c-dev\n"), "\(devInfo)")

        let lib = "/usr/lib/\(multiarch)"
        let runtimeFiles = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--contents", runtime]).stdout
        #expect(runtimeFiles.contains(" .\(lib)/libl10nd.so.\(version)\n"), "\(runtimeFiles)")
        #expect(runtimeFiles.contains(" .\(lib)/libl10nd.so.0 -> libl10nd.so.\(version)\n"), "\(runtimeFiles)")
        #expect(!runtimeFiles.contains("libl10nd.so ->") && !runtimeFiles.contains(".h\n"), "\(runtimeFiles)")
        let devFiles = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--contents", dev]).stdout
        for path in [
            "./usr/include/l10nd.h", ".\(lib)/pkgconfig/l10nd.pc", ".\(lib)/libl10nd.a",
            ".\(lib)/libl10nd.so -> libl10nd.so.0", "./usr/share/doc/libl10nd-dev/copyright",
        ] {
            #expect(devFiles.contains(" \(path)\n"), "libl10nd-dev lacks \(path)")
        }
        #expect(
            !devFiles.contains("\(lib)/libl10nd.so.0 ") && !devFiles.contains("\(lib)/libl10nd.so.\(version)"),
            "the shared library belongs to libl10nd0: \(devFiles)")

        let root = try TemporaryDirectory(prefix: "libl10nd-root")
        let control = try TemporaryDirectory(prefix: "libl10nd-control")
        for deb in [runtime, dev] {
            let extract = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--extract", deb, root.path])
            #expect(extract.status == 0, "\(extract.stderr)")
        }
        _ = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--control", runtime, control.path])
        let shlibs = try String(contentsOfFile: control.path + "/shlibs", encoding: .utf8)
        #expect(shlibs == "libl10nd 0 libl10nd0 (>= \(version))\n")
        let symbols = try String(contentsOfFile: control.path + "/symbols", encoding: .utf8)
        #expect(symbols.hasPrefix("libl10nd.so.0 libl10nd0 #MINVER#\n"), "\(symbols)")
        let exported = try ProcessRunner.run(
            "/usr/bin/nm", ["-D", "--defined-only", root.path + lib + "/libl10nd.so.\(version)"]
        ).stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map { " \($0)@Base" } }
        #expect(!exported.isEmpty && exported.allSatisfy { symbols.contains($0 + " ") }, "\(exported) vs \(symbols)")
        let soname = try ProcessRunner.run("/usr/bin/readelf", ["-d", root.path + lib + "/libl10nd.so.0"]).stdout
        #expect(soname.contains("Library soname: [libl10nd.so.0]"), "\(soname)")

        // The installed l10nd.pc says /usr/include and /usr/lib/…: the sysroot points it at the root.
        let pkgConfig = try ProcessRunner.run(
            "/usr/bin/pkg-config", ["--cflags", "--libs", "l10nd"],
            environment: [
                "PATH": "/usr/bin:/bin", "PKG_CONFIG_SYSROOT_DIR": root.path,
                "PKG_CONFIG_PATH": root.path + lib + "/pkgconfig",
            ])
        #expect(pkgConfig.status == 0, "\(pkgConfig.stderr)")
        #expect(pkgConfig.stdout.contains("-I\(root.path)/usr/include"), "\(pkgConfig.stdout)")
        let readme = try String(contentsOfFile: PackagePaths.root + "/clients/c/README.md", encoding: .utf8)
        let source = try #require(CLibraryTests.block("c", in: readme), "clients/c/README.md has no ```c block")
        let printed = try #require(CLibraryTests.block("text", in: readme))
        let work = try TemporaryDirectory(prefix: "libl10nd-program")
        let file = try work.write(source, to: "hello.c")
        let program = work.path + "/hello"
        let gcc = try ProcessRunner.run(
            "/usr/bin/gcc",
            ["-Wall", "-Werror", file, "-o", program]
                + pkgConfig.stdout.split(whereSeparator: \.isWhitespace).map(String.init),
            environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
        #expect(gcc.status == 0, "\(gcc.stderr)")
        let needed = try ProcessRunner.run("/usr/bin/readelf", ["-d", program]).stdout
        #expect(needed.contains("Shared library: [libl10nd.so.0]"), "\(needed)")
        let daemon = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let output = try ProcessRunner.run(
            program, [],
            environment: [
                "PATH": "/usr/bin:/bin", "L10N_SOCKET": daemon.socketPath, "LD_LIBRARY_PATH": root.path + lib,
            ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == printed)
    }

    @Test(
        .enabled(
            if: builtPackage != nil, "no .build/debian/l10nd_*.deb: scripts/package makes it, scripts/test runs it"))
    func thePackageHoldsWhatItPromises() throws {
        let deb = try #require(Self.builtPackage)
        let info = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--field", deb])
        let version = try ProcessRunner.run(l10nd, ["--version"]).stdout.split(separator: " ").last ?? ""
        #expect(info.stdout.contains("Package: l10nd\n"))
        #expect(info.stdout.contains("Version: \(version)"), "\(info.stdout)")
        let depends = try #require(info.stdout.split(separator: "\n").first { $0.hasPrefix("Depends: ") })
        for library in ["libc6", "libinotifytools0", "libstdc++6", "libgcc-s1"] {
            #expect(depends.contains(library), "\(depends)")
        }
        #expect(!depends.contains("swift") && !depends.contains("libicu"), "\(depends)")
        let contents = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--contents", deb]).stdout
        for path in [
            "./usr/sbin/l10nd", "./usr/bin/l10nctl", "./lib/systemd/system/l10nd.service",
            "./lib/systemd/system/l10nd.socket", "./etc/l10nd/l10nd.conf", "./var/lib/l10nd/resources/",
            "./usr/share/man/man8/l10nd.8.gz", "./usr/share/man/man1/l10nctl.1.gz",
            "./usr/share/man/man5/l10nd.conf.5.gz", "./usr/share/bash-completion/completions/l10nctl",
            "./usr/share/zsh/vendor-completions/_l10nctl", "./usr/share/doc/l10nd/copyright",
            "./usr/share/doc/l10nd/DAEMON.md", "./usr/share/doc/l10nd/INSTALL.md",
        ] {
            #expect(contents.contains(" \(path)\n"), "the package lacks \(path)")
        }
        let unpacked = try TemporaryDirectory()
        let extract = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--raw-extract", deb, unpacked.path])
        #expect(extract.status == 0, "\(extract.stderr)")
        let conffiles = try String(contentsOfFile: unpacked.path + "/DEBIAN/conffiles", encoding: .utf8)
        #expect(conffiles == "/etc/l10nd/l10nd.conf\n")
        for binary in ["/usr/sbin/l10nd", "/usr/bin/l10nctl"] {
            let dynamic = try ProcessRunner.run("/usr/bin/readelf", ["-d", unpacked.path + binary]).stdout
            #expect(!dynamic.contains("/opt/swift") && !dynamic.contains("libswift"), "\(binary): \(dynamic)")
            #expect(!dynamic.contains("libFoundation") && !dynamic.contains("libdispatch"), "\(binary): \(dynamic)")
        }
        let service = try String(contentsOfFile: unpacked.path + "/lib/systemd/system/l10nd.service", encoding: .utf8)
        #expect(service.contains("Documentation=man:l10nd(8)"))
        #expect(service.contains("ExecStart=/usr/sbin/l10nd --config /etc/l10nd/l10nd.conf"))
    }

    /// INSTALL.md's by-hand `apt install` and its note on what the package pulls name
    /// exactly the packages of the built package's Depends (libxml2 was missing by hand).
    @Test(
        .enabled(
            if: builtPackage != nil, "no .build/debian/l10nd_*.deb: scripts/package makes it, scripts/test runs it"))
    func installByHandNamesThePackagesDepends() throws {
        let deb = try #require(Self.builtPackage)
        let info = try ProcessRunner.run("/usr/bin/dpkg-deb", ["--field", deb, "Depends"]).stdout
        // `libc6 (>= 2.35), libxml2 (>= 2.9.1)`: the names, without versions.
        let depends = Set(
            info.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(depends.contains("libinotifytools0") && depends.contains("libc6"), "\(info)")
        let install = try String(contentsOfFile: PackagePaths.root + "/docs/INSTALL.md", encoding: .utf8)
        let lines = install.split(separator: "\n")
        let byHand = try #require(lines.first { $0.hasPrefix("sudo apt install lib") })
        let named = byHand.split(separator: "#")[0].split(separator: " ").dropFirst(3).map(String.init)
        // By hand there are no maintainer scripts, so no deb-systemd-helper to depend on.
        #expect(
            Set(named) == depends.subtracting(["init-system-helpers"]),
            "INSTALL.md: \(byHand) — the package's Depends: \(info)")
        let pulled = try #require(lines.first { $0.contains("# pulls its Depends: ") })
        let listed = pulled.components(separatedBy: "# pulls its Depends: ")[1].split(separator: ", ").map(String.init)
        #expect(Set(listed) == depends, "INSTALL.md: \(pulled) — the package's Depends: \(info)")
    }
}
