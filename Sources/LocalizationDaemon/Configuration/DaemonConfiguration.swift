import CommandLineHelp
import Foundation
import LocalizationCore
import LocalizationSockets

#if canImport(Glibc)
    import Glibc
#endif

/// Everything the daemon is told: defaults, overridden by `l10nd.conf`, overridden by flags.
///
/// Each property is one key of `config/l10nd.conf` (named in its doc comment), where every
/// key is documented for operators.
///
/// ```swift
/// switch try DaemonConfiguration.load(arguments: Array(CommandLine.arguments.dropFirst())) {
/// case .run(let configuration): startDaemon(configuration)
/// case .help(let text), .version(let text): print(text)
/// }
/// ```
package struct DaemonConfiguration: Sendable, Hashable {
    /// `resources`: directories holding `*.lproj` and `.xcstrings` (absolute paths).
    package var resources: [String] = []
    /// Each of `resources` as the operator spelled it (`masto/`), for messages naming it;
    /// empty when `resources` is the default.
    package var resourceSpellings: [String] = []
    /// `socket`: where the daemon listens when not socket-activated.
    package var socketPath: String
    /// `development_language`: the last language of every fallback chain.
    package var developmentLanguage = "en"
    /// `log_level`: the least severe message logged.
    package var logLevel = LogLevel.info
    /// `settle_ms`: how long the resource directories must be quiet before a reload.
    package var settleMilliseconds = 20
    /// `max_message_bytes`: the largest request line or frame accepted.
    package var maxMessageBytes = ServerLimits().maxMessageBytes
    /// `max_connections`: concurrent clients; more are refused.
    package var maxConnections = ServerLimits().maxConnections
    /// `idle_timeout_seconds`: idle clients are closed after this long; 0 never.
    package var idleTimeoutSeconds = Int(ServerLimits().idleTimeout)
    /// `max_output_buffer_bytes`: unsent replies past which a client's next requests wait
    /// until it reads (and unread events past which a subscriber is disconnected).
    package var maxOutputBufferBytes = ServerLimits().maxOutputBufferBytes
    /// `request_timeout_seconds`: how long a request may take to arrive, from its first byte
    /// to its last, before its connection is closed.
    package var requestTimeoutSeconds = Int(ServerLimits().requestTimeout)
    /// `max_file_bytes`: the largest resource file parsed; a larger one is an error in
    /// `status` and keeps its last good table.
    package var maxFileBytes = ResourceFileReader.defaultMaximumBytes
    /// `socket_group`: the group the socket is given; nil keeps the daemon's group. Mode is always 0660.
    package var socketGroup: String?
    /// `allow_symlinks_outside_roots`: whether symlinks under a resource root may lead outside every root.
    package var allowSymlinksOutsideRoots = false
    /// `metrics_listen`: where `/metrics`, `/healthz` and `/readyz` are served over HTTP; nil: off.
    package var metricsListen: MetricsAddress?
    /// The line of the configuration file that set each key, by the key's name (`socket_group`):
    /// for messages about a value the parser could not judge alone (a group that does not
    /// exist). A key a flag sets has none.
    package var settingLines: [String: Int] = [:]
    /// `--strict` (a flag, not a key): a doubtful setting stops the daemon from starting, and a
    /// reload keeps the running configuration rather than take one with it.
    package var strict = false

    /// The defaults, with the socket path chosen by `defaultSocketPath(environment:userID:)`.
    package init(environment: [String: String]? = nil) {
        socketPath = Self.defaultSocketPath(
            environment: environment ?? ProcessInfo.processInfo.environment, userID: getuid())
    }

    /// The default socket path: see `DefaultSocketPath` (shared with the client).
    package static func defaultSocketPath(environment: [String: String], userID: UInt32) -> String {
        DefaultSocketPath.path(environment: environment, userID: userID)
    }

    /// This configuration with the command line's values on top.
    ///
    /// `--resources` given at least once replaces the file's `resources`; relative flag paths
    /// are taken from `currentDirectory`.
    package func applying(_ arguments: DaemonArguments, currentDirectory: String) -> DaemonConfiguration {
        var result = self
        if arguments.settings.contains(where: { $0.key == .resources }) {
            result.resources = []
            result.resourceSpellings = []
        }
        for setting in arguments.settings {
            // Values were checked when the arguments were parsed; applying again cannot fail.
            try? setting.key.apply(setting.value, to: &result, base: currentDirectory)
            result.settingLines[setting.key.rawValue] = nil
        }
        result.strict = result.strict || arguments.strict
        return result
    }

    /// Parses the command line, reads `--config` if given, and applies the flags on top.
    ///
    /// Without `--config` no file is read: defaults and flags only (the systemd unit passes
    /// `--config /etc/l10nd/l10nd.conf`).
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - environment: For the default socket path; the process environment when nil.
    ///   - currentDirectory: For relative `--config` and flag paths; the process's when nil.
    /// - Throws: `ConfigurationError` (exit status 2) for a bad flag or a bad file.
    package static func load(arguments: [String], environment: [String: String]? = nil, currentDirectory: String? = nil)
        throws(ConfigurationError) -> DaemonInvocation
    {
        let parsed = try DaemonArguments.parse(arguments)
        if parsed.showHelp { return .help(DaemonArguments.usage) }
        if parsed.showVersion { return .version("l10nd \(DaemonVersion.string)") }
        if let name = parsed.manualPage, let page = DaemonHelp.manualPages[name] {
            return .manual(page.roff(version: "l10nd \(DaemonVersion.string)"))
        }
        let directory = currentDirectory ?? FileManager.default.currentDirectoryPath
        var configuration = DaemonConfiguration(environment: environment)
        if let file = parsed.configFile {
            configuration = try ConfigurationParser.parse(
                contentsOf: absolutePath(file, from: directory), defaults: configuration)
        }
        configuration = configuration.applying(parsed, currentDirectory: directory)
        return parsed.checkConfiguration ? .check(configuration) : .run(configuration)
    }

    /// `path` made absolute from `directory` (for `--config`).
    static func absolutePath(_ path: String, from directory: String) -> String {
        path.hasPrefix("/")
            ? path
            : URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory, isDirectory: true))
                .standardizedFileURL.path
    }
}
