/// One request from a client: an operation and the optional id echoed in its reply.
///
/// ```swift
/// let request = WireRequest(id: .number(1), operation: .lookup(
///     key: "多言語化", languages: ["ja"], table: nil))
/// let line = JSONLineCodec.encode(request)
/// ```
package struct WireRequest: Sendable, Hashable {
    /// The client's id for this request, echoed in the reply.
    package var id: WireRequestID?
    /// What the client asks for.
    package var operation: WireOperation

    /// Creates a request.
    package init(id: WireRequestID? = nil, operation: WireOperation) {
        self.id = id
        self.operation = operation
    }
}
