import Foundation

/// Where the daemon's configuration comes from, kept to read it again on `reload` and
/// SIGHUP: the command line it was started with (its `--config` file, and its flags, which
/// still override the file) and the directory relative paths were taken from.
///
/// ```swift
/// let source = ConfigurationSource(arguments: Array(CommandLine.arguments.dropFirst()))
/// let configuration = try source.load()   // again at each reload
/// ```
package struct ConfigurationSource: Sendable, Hashable {
    /// The arguments after the program name.
    package var arguments: [String]
    /// For the default socket path; the process environment when nil.
    package var environment: [String: String]?
    /// The directory relative `--config` and flag paths are taken from: the one at start,
    /// so a reload reads the same file whatever the process's directory is by then.
    package var currentDirectory: String

    /// A source for `arguments`, relative paths taken from `currentDirectory` (the
    /// process's now when nil).
    package init(arguments: [String], environment: [String: String]? = nil, currentDirectory: String? = nil) {
        self.arguments = arguments
        self.environment = environment
        self.currentDirectory = currentDirectory ?? FileManager.default.currentDirectoryPath
    }

    /// The configuration file, as an absolute path; nil when started without `--config`.
    package var file: String? {
        guard let file = try? DaemonArguments.parse(arguments).configFile else { return nil }
        return DaemonConfiguration.absolutePath(file, from: currentDirectory)
    }

    /// Reads the configuration: the file if any, the flags on top.
    ///
    /// - Throws: ``ConfigurationError`` naming the file and line of a mistake.
    package func load() throws(ConfigurationError) -> DaemonConfiguration {
        let invocation = try DaemonConfiguration.load(
            arguments: arguments, environment: environment, currentDirectory: currentDirectory)
        guard case .run(let configuration) = invocation else {
            // The daemon was started with these arguments: they asked for a run.
            throw ConfigurationError(code: .usage, message: "the command line does not start the daemon")
        }
        return configuration
    }
}
