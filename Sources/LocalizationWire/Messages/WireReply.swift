/// The body of a reply to one request (the id is added by ``WireServerMessage``).
///
/// `lookup`, `batch` and `table` have their own fixed shapes because they are the hot
/// path; everything else (`hello`, `reload`, `status`, `languages`, `missing`,
/// `subscribe`) answers with ``fields(_:)``: free-form members added to `"ok":true`.
///
/// ```swift
/// reply(.fields(["generation": 5]))   // {"ok":true,"generation":5}
/// reply(.ok)                          // {"ok":true}
/// ```
public enum WireReply: Sendable, Hashable {
    /// A successful `lookup`.
    case lookup(WireLookupResult)
    /// A successful `batch`.
    case batch(WireBatchResult)
    /// A successful `table`.
    case table(WireTableResult)
    /// A success with free-form members.
    ///
    /// The member names `id`, `ok`, `error` and `event` are the envelope's and are dropped;
    /// `value`, `values` and `entries` are reserved for the shapes above (a JSON reader
    /// tells replies apart by them) and are dropped too.
    case fields([String: WireValue])
    /// A failure.
    case error(WireError)

    /// `{"ok":true}` with no other member.
    public static var ok: WireReply { .fields([:]) }

    /// The member names a ``fields(_:)`` payload may not use.
    package static let reservedFieldNames: Set<String> = [
        "id", "ok", "error", "event", "value", "values", "entries",
    ]
}
