import Testing

/// Bytes a reader must reject, with a fragment of the message it must give.
///
/// Named in test output by `name` alone: the bytes can be large.
struct BadInput: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var message: String

    var testDescription: String { name }

    init(_ name: String, _ bytes: [UInt8], _ message: String) {
        self.name = name
        self.bytes = bytes
        self.message = message
    }
}
