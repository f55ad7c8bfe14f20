/// Where `l10nd` listens and clients look when nothing else is said.
package enum DefaultSocketPath {
    /// `$XDG_RUNTIME_DIR/l10nd/l10nd.sock` when that variable is an absolute path, else
    /// `/tmp/l10nd-$UID/l10nd.sock`.
    ///
    /// The per-user runtime directory is private to its user; the `/tmp` fallback names the
    /// user so two users never share a socket. The systemd `.socket` unit passes its own
    /// listener and `L10N_SOCKET` tells clients where it is.
    package static func path(environment: [String: String], userID: UInt32) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            let trimmed = runtime.count > 1 && runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime
            return trimmed + "/l10nd/l10nd.sock"
        }
        return "/tmp/l10nd-\(userID)/l10nd.sock"
    }
}
