import Foundation
import TestSupport
import Testing

@testable import LocalizationDaemon

/// `l10nd.conf`, the command line, and the errors both give.
@Suite struct DaemonConfigurationTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func parse(_ text: String, file: String = "/etc/l10nd/l10nd.conf") throws(ConfigurationError) -> DaemonConfiguration
    {
        try ConfigurationParser.parse(text: text, file: file, defaults: DaemonConfiguration(environment: [:]))
    }

    func error(_ text: String) -> String? {
        do {
            _ = try parse(text, file: "l10nd.conf")
            return nil
        } catch {
            #expect(error.exitCode == 2)
            #expect(error.code == .invalidConfiguration)
            return error.description
        }
    }

    @Test func shippedConfigurationParses() throws {
        let configuration = try ConfigurationParser.parse(contentsOf: Self.packageRoot + "/config/l10nd.conf")
        // The installed file: the package's resource directory, not a path inside a checkout.
        #expect(configuration.resources == ["/var/lib/l10nd/resources"])
        #expect(configuration.developmentLanguage == "en")
        #expect(configuration.logLevel == .info)
        #expect(configuration.settleMilliseconds == 20)
        #expect(configuration.allowSymlinksOutsideRoots == false)
    }

    @Test func shippedConfigurationDocumentsEveryKey() throws {
        let text = try String(contentsOfFile: Self.packageRoot + "/config/l10nd.conf", encoding: .utf8)
        for key in ConfigurationKey.allCases.map(\.rawValue) {
            #expect(text.contains("# \(key):"), "\(key) undocumented")
        }
    }

    /// A file saved on Windows (or by an editor set to CRLF) reads the same, line numbers too.
    @Test func crlfLineEndingsReadAsLines() throws {
        let configuration = try parse("# l10nd\r\nsettle_ms = 5\r\nlog_level = debug\r\n")
        #expect(configuration.settleMilliseconds == 5)
        #expect(configuration.logLevel == .debug)
        #expect(throws: ConfigurationError.self) { try parse("settle_ms = 5\r\nbogus = 1\r\n") }
        do {
            _ = try parse("settle_ms = 5\r\nbogus = 1\r\n")
        } catch {
            #expect(error.description.contains(":2:"), "\(error)")
        }
    }

    @Test func defaults() {
        let configuration = DaemonConfiguration(environment: [:])
        #expect(configuration.resources.isEmpty)
        #expect(configuration.socketPath == "/tmp/l10nd-\(getuid())/l10nd.sock")
        #expect(configuration.developmentLanguage == "en")
        #expect(configuration.logLevel == .info)
        #expect(configuration.settleMilliseconds == 20)
        #expect(configuration.maxMessageBytes == 1_048_576)
        #expect(configuration.maxConnections == 1024)
        #expect(configuration.idleTimeoutSeconds == 300)
        #expect(configuration.maxOutputBufferBytes == 4_194_304)
        #expect(configuration.maxFileBytes == 134_217_728)
        #expect(configuration.socketGroup == nil)
        #expect(!configuration.allowSymlinksOutsideRoots)
        #expect(
            DaemonConfiguration.defaultSocketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000)
                == "/run/user/1000/l10nd/l10nd.sock")
        #expect(
            DaemonConfiguration.defaultSocketPath(environment: ["XDG_RUNTIME_DIR": "relative"], userID: 7)
                == "/tmp/l10nd-7/l10nd.sock")
    }

    @Test func everyKey() throws {
        let configuration = try parse(
            """
            # comment
              # indented comment

            resources = Resources
            resources = /srv/l10n/#shared
            socket = "run/l10nd.sock"
            development_language = pt-BR
            log_level = Warning
            settle_ms = 0
            max_message_bytes = 2048
            max_connections = 10
            idle_timeout_seconds = 0
            max_output_buffer_bytes = 65536
            max_file_bytes = 1048576
            socket_group = l10n
            allow_symlinks_outside_roots = yes
            """)
        #expect(configuration.resources == ["/etc/l10nd/Resources", "/srv/l10n/#shared"])
        #expect(configuration.socketPath == "/etc/l10nd/run/l10nd.sock")
        #expect(configuration.developmentLanguage == "pt-BR")
        #expect(configuration.logLevel == .warning)
        #expect(configuration.settleMilliseconds == 0)
        #expect(configuration.maxMessageBytes == 2048)
        #expect(configuration.maxConnections == 10)
        #expect(configuration.idleTimeoutSeconds == 0)
        #expect(configuration.maxOutputBufferBytes == 65536)
        #expect(configuration.maxFileBytes == 1_048_576)
        #expect(configuration.socketGroup == "l10n")
        #expect(configuration.allowSymlinksOutsideRoots)
    }

    @Test(arguments: [
        ("setle_ms = 5", "l10nd.conf:1: unknown key 'setle_ms' (did you mean 'settle_ms'?)"),
        ("\n\nresource = x", "l10nd.conf:3: unknown key 'resource' (did you mean 'resources'?)"),
        ("colour = blue", "l10nd.conf:1: unknown key 'colour'"),
        ("just words", "l10nd.conf:1: expected 'key = value', got 'just words'"),
        ("= 3", "l10nd.conf:1: expected a key before '='"),
        ("settle_ms = fast", "l10nd.conf:1: settle_ms: expected a whole number from 0 to 10000, got 'fast'"),
        ("settle_ms = 10001", "l10nd.conf:1: settle_ms: expected a whole number from 0 to 10000, got '10001'"),
        (
            "max_message_bytes = 10",
            "l10nd.conf:1: max_message_bytes: expected a whole number from 1024 to 67108864, got '10'"
        ),
        ("max_connections = 0", "l10nd.conf:1: max_connections: expected a whole number from 1 to 65536, got '0'"),
        (
            "idle_timeout_seconds = -1",
            "l10nd.conf:1: idle_timeout_seconds: expected a whole number from 0 to 86400, got '-1'"
        ),
        (
            "max_output_buffer_bytes = 1k",
            "l10nd.conf:1: max_output_buffer_bytes: expected a whole number from 4096 to 1073741824, got '1k'"
        ),
        (
            "log_level = loud",
            "l10nd.conf:1: log_level: expected one of debug, info, notice, warning, error, got 'loud'"
        ),
        (
            "allow_symlinks_outside_roots = maybe",
            "l10nd.conf:1: allow_symlinks_outside_roots: expected true or false, got 'maybe'"
        ),
        (
            "development_language = ../x",
            "l10nd.conf:1: development_language: expected a language tag such as en or pt-BR, got '../x'"
        ),
        ("socket_group = a b", "l10nd.conf:1: socket_group: expected a group name or number, got 'a b'"),
        ("resources =", "l10nd.conf:1: resources: expected a directory path, got nothing"),
        (
            "socket = /" + String(repeating: "s", count: 120),
            "l10nd.conf:1: socket: expected a socket path of at most 107 bytes, got one of 121"
        ),
        ("log_level = info\n# again\nlog_level = debug", "l10nd.conf:3: 'log_level' is already set on line 1"),
    ])
    func errorsNameTheLine(text: String, expected: String) {
        #expect(error(text) == expected)
    }

    @Test func unreadableFile() {
        #expect {
            try ConfigurationParser.parse(contentsOf: "/nonexistent/l10nd.conf")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.code == .unreadableConfiguration
                && error.description.hasPrefix("/nonexistent/l10nd.conf: cannot read the configuration file")
        }
    }

    @Test func flagsOverrideTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("l10nd.conf", "resources = FromFile\nsettle_ms = 40\nlog_level = error\n")
        let invocation = try DaemonConfiguration.load(
            arguments: [
                "--config", "l10nd.conf", "--resources", "A", "--resources=/abs/B", "--settle-ms=5",
                "--socket", "s.sock", "--development-language", "ja", "--log-level", "debug",
            ],
            environment: [:], currentDirectory: directory.path)
        guard case .run(let configuration) = invocation else {
            Issue.record("expected run, got \(invocation)")
            return
        }
        #expect(configuration.resources == [directory.path + "/A", "/abs/B"])
        #expect(configuration.settleMilliseconds == 5)
        #expect(configuration.logLevel == .debug)
        #expect(configuration.socketPath == directory.path + "/s.sock")
        #expect(configuration.developmentLanguage == "ja")
    }

    @Test func withoutFlagsTheFileStands() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("l10nd.conf", "resources = FromFile\n")
        let invocation = try DaemonConfiguration.load(
            arguments: ["--config", directory.path + "/l10nd.conf"], environment: [:])
        #expect(invocation == .run(try parse("resources = FromFile", file: directory.path + "/l10nd.conf")))
    }

    @Test func helpAndVersion() throws {
        #expect(try DaemonConfiguration.load(arguments: ["--help"]) == .help(DaemonArguments.usage))
        #expect(try DaemonConfiguration.load(arguments: ["-h"]) == .help(DaemonArguments.usage))
        #expect(try DaemonConfiguration.load(arguments: ["--version"]) == .version("l10nd \(DaemonVersion.string)"))
    }

    @Test(arguments: [
        (["--setle-ms", "3"], "unknown option '--setle-ms' (did you mean '--settle-ms'?)"),
        (["--socket"], "option '--socket' needs a value"),
        (["--config="], "option '--config' needs a value"),
        (["serve"], "unexpected argument 'serve'"),
        (["--", "serve"], "unexpected argument '--'"),
        (["--help=1"], "option '--help' takes no value"),
        (["--settle-ms", "soon"], "--settle-ms: expected a whole number from 0 to 10000, got 'soon'"),
        (["--log-level=loud"], "--log-level: expected one of debug, info, notice, warning, error, got 'loud'"),
        (
            ["--development-language", "../x"],
            "--development-language: expected a language tag such as en or pt-BR, got '../x'"
        ),
    ])
    func badFlagsAreUsageErrors(arguments: [String], expected: String) {
        do {
            _ = try DaemonArguments.parse(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(error.code == .usage)
            #expect(error.exitCode == 2)
            #expect(error.description == expected)
        }
    }

    @Test func badFileThroughLoadIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("l10nd.conf", "settle_ms = 5\nsettle = 3\n")
        #expect {
            try DaemonConfiguration.load(arguments: ["--config", file], environment: [:])
        } throws: { error in
            (error as? ConfigurationError)?.description == "\(file):2: unknown key 'settle' (did you mean 'settle_ms'?)"
        }
    }
}
