package import LocalizationCore
package import LocalizationSockets
package import LocalizationWire

/// What the socket server asks to answer each request: the lookup engine implements it,
/// tests implement small fakes.
///
/// The server calls ``handle(_:from:reply:)`` on its loop thread, one request at a time,
/// and expects `reply` to be called exactly once, from any thread, now or later (`reload`
/// answers after a rescan). Replies reach the client in request order whatever order they
/// are completed in; extra calls to `reply` are ignored. `subscribe` never reaches the
/// handler: the server answers it and keeps the subscriber list itself.
///
/// ```swift
/// struct Echo: WireRequestHandler {
///     func handle(_ request: WireRequest, from peer: PeerInfo, reply: @escaping @Sendable (WireReply) -> Void) {
///         reply(.fields(["op": .string(request.operation.name)]))
///     }
/// }
/// ```
package protocol WireRequestHandler: Sendable {
    /// Answers `request`, sent by `peer`, by calling `reply` once.
    ///
    /// Must not block: it runs on the thread that serves every connection.
    func handle(_ request: WireRequest, from peer: PeerInfo, reply: @escaping @Sendable (WireReply) -> Void)

    /// The reply to `request` when it can be given at once, without blocking (a lookup: an
    /// in-memory read), else `nil` and the server calls ``handle(_:from:reply:)``.
    ///
    /// The socket server's fast path: a reply returned here is encoded straight into the
    /// connection's output, with no reply closure and no place kept in the reply order for
    /// it. Runs on the server's loop thread, like `handle`.
    func answerAtOnce(_ request: WireRequest, from peer: PeerInfo) -> WireReply?

    /// Answers the binary frames at the head of `framer` it can straight from their bytes
    /// in the connection's read buffer (``MessageFramer/answerFrames(_:)``), appending each
    /// whole reply frame to `output`, while `output` holds fewer than `outputLimit` bytes;
    /// returns how many it answered. The first frame it declines, and everything after, is
    /// decoded and answered the general way.
    ///
    /// The socket server's fastest path, tried whenever no earlier reply is owed: no
    /// ``WireRequest``, no ``WireReply``, no `String` per request, and what is shared by a
    /// burst of requests (the snapshot, the counters) taken once for all. An answer here must
    /// be the bytes the general way would send. Runs on the server's loop thread.
    func answerFrames(from framer: inout MessageFramer, appendingTo output: inout [UInt8], outputLimit: Int) -> Int

    /// Answers a `map` request from `peer` by calling `reply` once, with the slabs whose
    /// descriptors go with the reply's bytes (none with an error reply). The server sends
    /// them, in order, with the first byte of that reply, in request order like any reply.
    ///
    /// Must not block. The default refuses: a handler without compiled segments.
    func handleMap(from peer: PeerInfo, reply: @escaping @Sendable (WireReply, [SegmentSlab]) -> Void)
}

extension WireRequestHandler {
    /// No request is answered at once: each goes to ``handle(_:from:reply:)``.
    package func answerAtOnce(_ request: WireRequest, from peer: PeerInfo) -> WireReply? { nil }

    /// No frame is answered in place: each is decoded.
    package func answerFrames(
        from framer: inout MessageFramer, appendingTo output: inout [UInt8], outputLimit: Int
    ) -> Int { 0 }

    package func handleMap(from peer: PeerInfo, reply: @escaping @Sendable (WireReply, [SegmentSlab]) -> Void) {
        reply(.error(WireError(code: .unknownOp, message: "this server shares no compiled segments")), [])
    }
}
