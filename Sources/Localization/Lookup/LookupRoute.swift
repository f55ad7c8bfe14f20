import LocalizationCore

/// How a ``Localizer`` answers in its current epoch: the mode and, in a daemon mode,
/// whether the daemon is reachable or which fallback serves instead.
enum LookupRoute: Sendable {
    /// Mapped mode, daemon reachable and able to `map`.
    case mapped(DaemonLookups)
    /// Direct mode (or mapped mode with a daemon older than `map`), daemon reachable.
    case direct(DaemonLookups)
    /// The files, read and compiled into private segments in the process.
    case files(LookupSegments)
    /// Daemon unreachable, no files: what it said before.
    case lastKnown(DaemonLookups)
    /// Nothing to ask: keys come back unchanged.
    case keys
}
