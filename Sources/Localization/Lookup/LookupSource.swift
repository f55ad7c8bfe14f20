/// What answers a ``Localizer``'s lookups: per call (``Localizer/lookupWithSource(_:languages:table:count:)``),
/// or the state of the link to the daemon (``Localizer/source``).
///
/// In a daemon mode ``Localizer/source`` is ``daemon`` while a connection is up and the
/// daemon answers (it said something since the oldest request a lookup waited for in vain
/// was sent); otherwise the first of ``files``, ``lastKnown`` (a daemon once reached) and
/// ``keys`` that is possible. `docs/CLIENT.md` says where the two differ. A change of
/// connection is logged once, never per call.
public enum LookupSource: String, Sendable, Hashable {
    /// `l10nd`, over its socket.
    case daemon
    /// The resource files, read in the process (embedded mode, or the daemon's fallback).
    case files
    /// The tables (cached mode) or values (direct mode) the daemon gave before it went away.
    case lastKnown = "last_known"
    /// Nothing: the key itself comes back (nothing configured; a daemon never reached and no
    /// files; or a key the daemon never answered before it went away).
    case keys
}
