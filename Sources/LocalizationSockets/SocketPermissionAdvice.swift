import CSharedMemory  // declares `stat` too: a clean build takes it from there (MemberImportVisibility)
import Glibc

/// What to tell a user whom l10nd's socket refused (`EACCES` on `connect`): the socket is
/// there, so the daemon is not to be started, and the fix is a group.
///
/// It names the group that owns the socket as `stat` finds it now (else its directory's),
/// and the `socket_group` the system configuration sets, when it can be read: joining the
/// socket's group is the fix, except when that group is `root` (a daemon started as root
/// with no `socket_group`), which nobody should join for this; and a `socket_group` the
/// socket does not have yet is waiting for l10nd's restart (it is applied when l10nd
/// creates its socket).
package enum SocketPermissionAdvice {
    /// The system service's configuration file, whose `socket_group` is named.
    package static let systemConfiguration = "/etc/l10nd/l10nd.conf"
    /// For tests only: an environment variable that replaces ``systemConfiguration``.
    package static let configurationVariable = "L10N_SYSTEM_CONFIG_FOR_TESTS"

    /// "join the group 'l10n', which owns the socket (sudo adduser $USER l10n, then log in
    /// again)", or what else applies.
    package static func advice(for path: String) -> String {
        var status = stat()
        var owner = "the socket"
        var listing = "ls -l \(path)"
        if stat(path, &status) != 0 {
            let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            let directory = parent.isEmpty ? "/" : parent
            guard stat(directory, &status) == 0 else {
                return "ask the administrator which group may use it (ls -ld \(directory))"
            }
            owner = "its directory \(directory)"
            listing = "ls -ld \(directory)"
        }
        let gid = status.st_gid
        let name = groupName(gid)
        let configured = configuredSocketGroup()
        var groups = [gid_t](repeating: 0, count: Int(max(getgroups(0, nil), 0)))
        groups = Array(groups.prefix(Int(max(getgroups(Int32(groups.count), &groups), 0))))
        if getegid() == gid || groups.contains(gid) {
            return "you are in the group '\(name)', which owns \(owner), yet may not connect: "
                + "the mode (\(listing)) gives the group no access; l10nd makes its socket 0660"
        }
        // A configured group the socket does not have is applied at l10nd's next start.
        let pending = configured.flatMap { configured in
            configured.group == name || configured.group == String(gid) ? nil : configured
        }
        let restart = pending.map {
            "\($0.file) sets socket_group = \($0.group), which l10nd gives the socket it creates when it starts: "
                + "restart l10nd (systemctl restart l10nd)"
        }
        if gid == 0 {
            let target = pending?.group ?? "l10n"
            let fix =
                restart.map { "\($0), then " }
                ?? "set socket_group = l10n in \(configured?.file ?? "l10nd.conf") (the package's group) and restart "
                + "l10nd, then "
            return "\(owner) belongs to the group 'root' (l10nd runs as root with no socket_group), which is not a "
                + "group to join for this: \(fix)join '\(target)' (sudo adduser $USER \(target), then log in again)"
        }
        let source = configured.map { pending == nil ? ", \($0.file)'s socket_group" : "" } ?? ""
        let join =
            "join the group '\(name)', which owns \(owner)\(source) (sudo adduser $USER \(name), then log in again)"
        return restart.map { "\(join); \($0)" } ?? join
    }

    /// A group's name, or its number when it has none.
    static func groupName(_ gid: gid_t) -> String {
        getgrgid(gid).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } ?? "\(gid)"
    }

    /// The `socket_group = GROUP` line of the system configuration, if it can be read and
    /// has one (the last, as l10nd reads a key once; comments and other keys are skipped).
    static func configuredSocketGroup() -> (file: String, group: String)? {
        let file =
            getenv(configurationVariable).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? systemConfiguration
        guard let stream = fopen(file, "r") else { return nil }
        defer { fclose(stream) }
        var group: String?
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        // A real configuration is a few KB: the first 1,000 lines are all of it.
        for _ in 0..<1000 {
            guard getline(&line, &capacity, stream) > 0, let line else { break }
            let text = String(cString: line)
            guard let equals = text.firstIndex(of: "=") else { continue }
            let key = text[..<equals].trimmingBlanks()
            guard key == "socket_group" else { continue }
            var value = text[text.index(after: equals)...].trimmingBlanks()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            group = value.isEmpty ? nil : value
        }
        return group.map { (file, $0) }
    }
}

extension StringProtocol {
    /// The text without blanks and line ends at either end (Glibc only, no Foundation).
    fileprivate func trimmingBlanks() -> String {
        // `\r\n` is one Character: each line end is named as Swift sees it.
        let blanks: Set<Character> = [" ", "\t", "\n", "\r", "\r\n"]
        guard let first = firstIndex(where: { !blanks.contains($0) }),
            let last = lastIndex(where: { !blanks.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
