import CommandLineHelp

/// The daemon's own version, reported by `hello` and `l10nd --version`.
package enum DaemonVersion {
    /// The release this build belongs to: one number for the daemon, l10nctl and the package.
    package static let string = ProductVersion.string
}
