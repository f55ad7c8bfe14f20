/// What answers a ``Localizer``'s lookups right now.
///
/// In a daemon mode it is ``daemon`` while the daemon is reachable and answers lookups (one
/// whose connection is up but which failed the last request a lookup needed is not what
/// answers); otherwise the first of ``files``, ``lastKnown`` and ``keys`` that is possible.
/// A change of connection is logged once, never per call.
public enum LookupSource: String, Sendable, Hashable {
    /// `l10nd`, over its socket.
    case daemon
    /// The resource files, read in the process (embedded mode, or the daemon's fallback).
    case files
    /// The tables (cached mode) or values (direct mode) the daemon gave before it went away.
    case lastKnown = "last_known"
    /// Nothing: every lookup returns its key.
    case keys
}
