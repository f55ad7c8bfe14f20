import Glibc

/// Which socket a client connects to when it is given none: the rule every l10nd client
/// follows (the Swift library, `l10nctl`, the Python client; docs/CLIENT.md, "Which socket").
///
/// 1. `L10N_SOCKET`, when set and not empty; a relative path is taken from the current
///    directory at the time of the call and made absolute (so messages name the file the
///    kernel was asked for), an `@name` is an abstract address and stays as it is;
/// 2. else the per-user socket (``DefaultSocketPath``, where `l10nd` run by the user listens)
///    when it exists;
/// 3. else the system service's socket, ``system`` (systemd's `l10nd.socket`).
package enum ClientSocketPath {
    /// The system service's socket (`systemd/l10nd.socket`).
    package static let system = "/run/l10nd/l10nd.sock"
    /// For tests only: an environment variable that replaces ``system``, so the last step of
    /// the rule can be tried without root.
    package static let systemVariable = "L10N_SYSTEM_SOCKET_FOR_TESTS"
    /// The paths the rule considers, in order: `L10N_SOCKET` alone when it is set, else the
    /// per-user socket and the system socket.
    package static func candidates(environment: [String: String], userID: UInt32) -> [String] {
        if let path = environment["L10N_SOCKET"], !path.isEmpty { return [absolute(path)] }
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

    /// Why a connection to `path` was refused permission, and what to do about it
    /// (``SocketPermissionAdvice``): the socket is there, so it never says to start l10nd.
    package static func permissionDenied(_ path: String) -> String {
        "permission denied connecting to \(path): " + SocketPermissionAdvice.advice(for: path)
    }

    /// `path` from the current directory when it is relative (`l10nd.sock`, `./run/s.sock`),
    /// as the kernel would take it; absolute paths and `@name` as they are. Not normalised:
    /// `..` means what the kernel makes of it.
    package static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), !path.hasPrefix("@"), let directory = currentDirectory() else { return path }
        return (directory == "/" ? "" : directory) + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }

    /// The process's current directory, nil when it cannot be told (removed, or too long).
    private static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether something (a socket) is at `path`.
    package static func fileExists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
