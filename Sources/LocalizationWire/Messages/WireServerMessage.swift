/// Everything the daemon writes to a connection: replies, in request order, and events.
package enum WireServerMessage: Sendable, Hashable {
    /// The reply to the request that carried `id`.
    case reply(id: WireRequestID?, WireReply)
    /// An unsolicited event, sent only to subscribers.
    case event(WireEvent)
}
