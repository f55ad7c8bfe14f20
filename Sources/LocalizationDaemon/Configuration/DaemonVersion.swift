import CommandLineHelp

/// The daemon's own version, reported by `hello` and `l10nd --version`.
public enum DaemonVersion {
    /// The release this build belongs to: one number for the daemon, l10nctl and the package.
    public static let string = ProductVersion.string
}
