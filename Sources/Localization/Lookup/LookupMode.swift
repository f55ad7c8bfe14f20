/// Where a ``Localizer`` gets its strings.
///
/// ```swift
/// Localizer.shared.useDaemon(mode: .direct)
/// ```
public enum LookupMode: String, Sendable, Hashable, CaseIterable {
    /// Reads the resource files itself, in the process (no daemon).
    case embedded
    /// Maps the daemon's compiled segments, shared read-only by every process on the host
    /// (sealed slabs, protocol 1.6's `map`, asked on the one connection), and looks up in
    /// place, along the fallback chain, through the same lookup the daemon uses: no copy per
    /// process. The default with a daemon.
    ///
    /// A `changed` event maps the new generation at once (one round trip); until it is
    /// mapped, and with a daemon older than 1.6, lookups are asked of the daemon as in
    /// ``direct``. When the daemon fails, the last generation mapped answers.
    case mapped
    /// Asks `l10nd` on every lookup: one round trip each, and the daemon counts every miss.
    case direct
}
