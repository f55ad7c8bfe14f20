import Glibc

/// Which socket a client connects to when it is given none: the rule every l10nd client
/// follows (the Swift library, `l10nctl`, the Python client; docs/CLIENT.md, "Which socket").
///
/// 1. `L10N_SOCKET`, when set and not empty;
/// 2. else the per-user socket (``DefaultSocketPath``, where `l10nd` run by the user listens)
///    when it exists;
/// 3. else the system service's socket, ``system`` (systemd's `l10nd.socket`).
package enum ClientSocketPath {
    /// The system service's socket (`systemd/l10nd.socket`).
    package static let system = "/run/l10nd/l10nd.sock"
    /// For tests only: an environment variable that replaces ``system``, so the last step of
    /// the rule can be tried without root.
    package static let systemVariable = "L10N_SYSTEM_SOCKET_FOR_TESTS"
    /// The group whose members may connect to the system socket (`SocketGroup=` of the unit).
    package static let group = "l10n"

    /// The paths the rule considers, in order: `L10N_SOCKET` alone when it is set, else the
    /// per-user socket and the system socket.
    package static func candidates(environment: [String: String], userID: UInt32) -> [String] {
        if let path = environment["L10N_SOCKET"], !path.isEmpty { return [path] }
        let system = environment[systemVariable].flatMap { $0.isEmpty ? nil : $0 } ?? system
        return [DefaultSocketPath.path(environment: environment, userID: userID), system]
    }

    /// The socket the rule picks.
    package static func path(
        environment: [String: String], userID: UInt32, exists: (String) -> Bool = fileExists
    ) -> String {
        let candidates = candidates(environment: environment, userID: userID)
        return candidates.count == 1 || exists(candidates[0]) ? candidates[0] : candidates[1]
    }

    /// What a message about a failed connection to `path` adds: the per-user socket the rule
    /// looked for first when it chose the system one. Empty when nothing else was considered.
    package static func passedOver(connectingTo path: String, environment: [String: String], userID: UInt32) -> String {
        let candidates = candidates(environment: environment, userID: userID)
        guard candidates.count == 2, path == candidates[1] else { return "" }
        return "tried \(candidates[0]): no such socket, then \(path)"
    }

    /// Why a connection was refused permission, and what to do about it.
    package static func permissionDenied(_ path: String) -> String {
        "permission denied connecting to \(path): join the group '\(group)' (sudo adduser $USER \(group), then log in again)"
    }

    /// Whether something (a socket) is at `path`.
    package static func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
