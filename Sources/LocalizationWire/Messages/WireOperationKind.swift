/// The operations of the protocol without their arguments, with their wire spellings:
/// the JSON `op` name and the binary op code byte.
package enum WireOperationKind: UInt8, Sendable, Hashable, CaseIterable {
    /// `hello`, op code `0x01`.
    case hello = 0x01
    /// `lookup`, op code `0x02`.
    case lookup = 0x02
    /// `batch`, op code `0x03`.
    case batch = 0x03
    /// `table`, op code `0x04`.
    case table = 0x04
    /// `subscribe`, op code `0x05`.
    case subscribe = 0x05
    /// `reload`, op code `0x06`.
    case reload = 0x06
    /// `status`, op code `0x07`.
    case status = 0x07
    /// `languages`, op code `0x08`.
    case languages = 0x08
    /// `missing`, op code `0x09`.
    case missing = 0x09
    /// `reset`, op code `0x0A`.
    case reset = 0x0A
    /// `metrics`, op code `0x0B` (protocol 1.4).
    case metrics = 0x0B
    /// `map`, op code `0x0C` (protocol 1.5).
    case map = 0x0C
    /// `chain`, op code `0x0D` (protocol 1.7).
    case chain = 0x0D

    /// The operation itself when it takes no arguments (`hello`, `status`…), so both
    /// decoders share one mapping; `nil` for `lookup`, `batch`, `table` and `chain`.
    package var argumentFreeOperation: WireOperation? {
        switch self {
        case .hello: .hello
        case .subscribe: .subscribe
        case .reload: .reload
        case .status: .status
        case .languages: .languages
        case .missing: .missing
        case .reset: .reset
        case .metrics: .metrics
        case .map: .map
        case .lookup, .batch, .table, .chain: nil
        }
    }

    /// The JSON `op` name.
    package var name: String {
        switch self {
        case .hello: "hello"
        case .lookup: "lookup"
        case .batch: "batch"
        case .table: "table"
        case .subscribe: "subscribe"
        case .reload: "reload"
        case .status: "status"
        case .languages: "languages"
        case .missing: "missing"
        case .reset: "reset"
        case .metrics: "metrics"
        case .map: "map"
        case .chain: "chain"
        }
    }

    /// The operation whose JSON `op` name is `name`, if any.
    package init?(name: String) {
        guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }
}
