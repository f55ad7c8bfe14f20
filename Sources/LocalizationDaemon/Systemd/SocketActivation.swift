import Glibc

/// systemd socket activation (`sd_listen_fds(3)`), without libsystemd: the listening
/// descriptors systemd passed, starting at fd 3, if `LISTEN_PID` names this process.
package enum SocketActivation {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    package static let firstDescriptor: Int32 = 3

    /// The descriptors passed to `processID` according to `environment`; empty when the
    /// variables are absent, malformed, or meant for another process (a parent that
    /// forgot to unset them).
    package static func descriptors(environment: [String: String], processID: Int32) -> [Int32] {
        guard let pidText = environment["LISTEN_PID"], let pid = Int32(pidText), pid == processID,
            let countText = environment["LISTEN_FDS"], let count = Int32(countText), count > 0,
            count <= 1024
        else { return [] }
        return Array(firstDescriptor..<(firstDescriptor + count))
    }

    /// The descriptors passed to this process (see ``descriptors(environment:processID:)``).
    package static func descriptorsForThisProcess() -> [Int32] {
        var environment: [String: String] = [:]
        for name in ["LISTEN_PID", "LISTEN_FDS"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return descriptors(environment: environment, processID: getpid())
    }

    /// Removes the activation variables so child processes do not think the sockets are
    /// theirs (what `sd_listen_fds(1)` does).
    package static func unsetEnvironment() {
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
    }
}
