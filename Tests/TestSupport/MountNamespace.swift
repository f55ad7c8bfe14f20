import Glibc

/// A mount namespace of the daemon's own (`unshare --mount`), where a test may mount without
/// touching the machine's mounts.
public enum MountNamespace {
    /// The launcher that starts the daemon in a private mount namespace of its own
    /// (``DaemonProcess``'s `launcher`).
    public static let launcher = ["/usr/bin/unshare", "--mount", "--propagation", "private"]

    /// Why mount tests cannot run here, or nil when they can: they need root and a
    /// permitted `unshare --mount` (a container may forbid it).
    public static func unavailableReason() throws -> String? {
        let probe = try ProcessRunner.run(launcher[0], Array(launcher.dropFirst()) + ["/bin/true"])
        guard getuid() == 0, probe.status == 0 else { return "needs root and unshare --mount (\(probe.stderr))" }
        return nil
    }

    /// Runs `command` through `/bin/sh` in the mount namespace of process `pid`.
    public static func run(in pid: Int32, _ command: String) throws -> ProcessOutput {
        try ProcessRunner.run("/usr/bin/nsenter", ["-t", "\(pid)", "-m", "/bin/sh", "-c", command])
    }
}
