/// A request that could not be decoded: the error to send back, and the request's id
/// when it could still be read, so the client can tell which request failed.
package struct WireRequestFailure: Error, Sendable, Hashable {
    /// The request's id, if the message got far enough to carry a readable one.
    package var id: WireRequestID?
    /// The error to reply with.
    package var error: WireError

    /// Creates a failure.
    package init(id: WireRequestID? = nil, error: WireError) {
        self.id = id
        self.error = error
    }

    /// The error reply to send for this failure.
    package var reply: WireServerMessage { .reply(id: id, .error(error)) }
}
