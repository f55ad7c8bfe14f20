import Glibc

/// The daemon's limit on open descriptors (`RLIMIT_NOFILE`, systemd's `LimitNOFILE=`).
///
/// Every client costs the daemon one descriptor, and systemd's default soft limit (1024) is
/// what `max_connections` defaults to. As `systemd.exec(5)` recommends for programs that do
/// not pass arbitrary descriptors to `select()`, the daemon raises its soft limit to the hard
/// one at start. (libinotifytools does use `select()`, on the inotify descriptor alone, which
/// `InotifyEventSource.prepare()` opens first so its number stays below 1024.)
package enum DescriptorLimit {
    /// Fewer descriptors than this and the daemon refuses to start: its own take about a
    /// dozen (standard streams, inotify, libdispatch's epoll, eventfd, timerfd and signalfds,
    /// the listener), and a reload needs a few more to list directories and read files.
    package static let minimum = 32

    /// Raises the soft limit to the hard limit and returns the limit now in force.
    ///
    /// - Throws: ``ConfigurationError`` when even the hard limit is below ``minimum``.
    @discardableResult
    package static func raise() throws(ConfigurationError) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return minimum }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let inForce = limit.rlim_cur == rlim_t.max ? Int.max : Int(clamping: limit.rlim_cur)
        guard inForce >= minimum else {
            throw ConfigurationError(
                code: .invalidConfiguration,
                message:
                    "l10nd needs at least \(minimum) open files, but its limit (LimitNOFILE=, ulimit -n) is \(inForce)"
            )
        }
        return inForce
    }
}
