/// Where a ``Localizer`` gets its strings.
///
/// ```swift
/// Localizer.shared.useDaemon(mode: .direct)
/// ```
public enum LookupMode: String, Sendable, Hashable, CaseIterable {
    /// Reads the resource files itself, in the process (no daemon).
    case embedded
    /// Maps the daemon's compiled tables, shared read-only by every process on the host
    /// (a sealed memory file, protocol 1.5's `map`), and looks up in place: no copy per
    /// process, and a `changed` event maps the new generation. Asked for by name: not yet
    /// the default (docs/CLIENT.md says what it still lacks).
    /// With a daemon older than 1.5, or preferences naming several languages (or a language
    /// the daemon compiled no tables for), lookups are answered as in ``cached``.
    case mapped
    /// Asks `l10nd` for each (languages, table) once, keeps the resolved table, and drops
    /// exactly the tables a `changed` event names. Lookups run at dictionary speed. The
    /// default with a daemon.
    case cached
    /// Asks `l10nd` on every lookup: one round trip each, and the daemon counts every miss.
    case direct
}
