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
    /// process, and a `changed` event maps the new generation. The default with a daemon.
    ///
    /// Mapping happens in the background and never holds a lookup up longer than the time
    /// limit: until a generation is mapped (the daemon compiles it on the first `map`,
    /// seconds for a million strings), lookups are answered as in ``cached``, and when the
    /// daemon fails meanwhile, from the last generation mapped. With a daemon older than 1.5,
    /// or preferences naming several languages (or a language the daemon compiled no tables
    /// for), lookups are answered as in ``cached``.
    case mapped
    /// Asks `l10nd` for each (languages, table) once, keeps the resolved table, and drops
    /// exactly the tables a `changed` event names. Lookups run at dictionary speed; each
    /// process holds its own copy of the tables it reads.
    case cached
    /// Asks `l10nd` on every lookup: one round trip each, and the daemon counts every miss.
    case direct
}
