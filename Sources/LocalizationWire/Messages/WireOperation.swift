public import LocalizationCore

/// What a request asks for: one case per `op` of the socket protocol.
///
/// `languages` is the list of preferred tags as the client sent them (`"lang"` may be one
/// string or a list); an empty list means "the daemon's default". A `nil` or empty `table`
/// means `Localizable`. Tags are not validated here: that is the lookup engine's job.
public enum WireOperation: Sendable, Hashable {
    /// `hello`: the daemon's and the protocol's versions.
    case hello
    /// `lookup`: one key; `plural` selects a plural form when the entry has them. Its
    /// ``PluralCounts/count(_:)`` is the wire's `count` (an integer or a decimal such as
    /// `1.50`), the same for every variable.
    ///
    /// Its ``PluralCounts/counts(_:)`` is the wire's `counts` (protocol 1.3), what
    /// `String.localizedStringWithFormat` does instead: one count per format argument,
    /// `counts[n - 1]` for argument `n`, `nil` for an argument that is not a number; each
    /// `%#@variable@` takes its form from its own argument's count (a missing or `nil`
    /// count takes `other`). At most ``maximumCounts`` entries. A request gives `count` or
    /// `counts`, not both: the decoders refuse both.
    ///
    /// `arguments` (protocol 1.4, `"args"`) asks for the finished string: the value
    /// formatted with them as the Swift library formats it, plural forms selected by the
    /// numbers among them unless `plural` says otherwise (the reply's `formatted`). At
    /// most ``maximumArguments``.
    case lookup(
        key: String, languages: [String], table: String?, plural: PluralCounts = .none,
        arguments: [FormatValue]? = nil)
    /// `batch`: several keys in one round trip, answered in the same order.
    ///
    /// `arguments` (protocol 1.4, `"args"`): one entry per key, the arguments to finish that
    /// key's string with (its plural forms selected by their numbers), or `nil` for a key
    /// wanted as it is.
    case batch(keys: [String], languages: [String], table: String?, arguments: [[FormatValue]?]? = nil)
    /// `table`: every key of a table, resolved through the fallback chain.
    case table(languages: [String], table: String?)
    /// `subscribe`: answer `ok`, then push a `changed` event after every reload.
    case subscribe
    /// `reload`: rescan everything; answered once the rescan finished.
    case reload
    /// `status`: counters and errors.
    case status
    /// `languages`: the languages and tables the daemon serves.
    case languages
    /// `missing`: the keys looked up but found nowhere.
    case missing
    /// `reset`: empties the missing-key report, answering with what it held (root and the
    /// daemon's own user only). The counters are never reset (protocol 1.4): they are totals
    /// since start, so a scraper's rates stay right.
    case reset
    /// `metrics` (protocol 1.4): the daemon's counters, gauges and latency histograms as
    /// Prometheus text, in the reply's `metrics` member.
    case metrics
    /// `map` (protocol 1.6): the current generation's compiled segments (docs/FORMAT.md) in
    /// sealed slabs. The reply's fields are the manifest (`generation`, `development_language`,
    /// `source_languages`, `slabs`, `segments`); the slabs' descriptors travel with the reply's
    /// bytes (`SCM_RIGHTS`), so only a client that reads with `recvmsg` may ask.
    case map
    /// `chain` (protocol 1.7): the languages a lookup of `table` for `languages` probes, in
    /// order, as the daemon's generation builds them (its ``FallbackChain``, with the table's
    /// catalog source language before the development language). A client that maps the
    /// segments asks it once per preference list and table, and answers those lookups in
    /// place along it: the chain's CLDR data lives in the daemon alone.
    case chain(languages: [String], table: String?)

    /// The most entries a lookup's `counts` may have: more is `bad_request`. A format with
    /// more arguments than this is not worth a longer list; its later variables take `other`.
    public static let maximumCounts = 64

    /// The most format arguments a lookup (or one key of a batch) may give: more is
    /// `bad_request`.
    public static let maximumArguments = 64

    /// The `op` spelling on the wire.
    public var name: String { kind.name }

    /// The operation without its arguments.
    package var kind: WireOperationKind {
        switch self {
        case .hello: .hello
        case .lookup: .lookup
        case .batch: .batch
        case .table: .table
        case .subscribe: .subscribe
        case .reload: .reload
        case .status: .status
        case .languages: .languages
        case .missing: .missing
        case .reset: .reset
        case .metrics: .metrics
        case .map: .map
        case .chain: .chain
        }
    }
}
