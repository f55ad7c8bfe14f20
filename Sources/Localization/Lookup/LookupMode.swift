/// Where a ``Localizer`` gets its strings.
///
/// ```swift
/// Localizer.shared.useDaemon(mode: .direct)
/// ```
public enum LookupMode: String, Sendable, Hashable, CaseIterable {
    /// Reads the resource files itself, in the process (no daemon).
    case embedded
    /// Asks `l10nd` for each (languages, table) once, keeps the resolved table, and drops
    /// exactly the tables a `changed` event names. Lookups run at dictionary speed.
    case cached
    /// Asks `l10nd` on every lookup: one round trip each, and the daemon counts every miss.
    case direct
}
