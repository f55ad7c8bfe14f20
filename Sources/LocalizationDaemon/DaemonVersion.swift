/// The daemon's own version, reported by `hello` and `l10nd --version`.
public enum DaemonVersion {
    /// The release this build belongs to.
    public static let string = "0.1.0"
}
