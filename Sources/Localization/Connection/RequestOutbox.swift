/// The frames of requests not yet written on one connection, in order, with their ids.
///
/// Concurrent callers append here and one of them, the writer, sends everything queued with
/// one `send`: requests made while a write is in progress go out together in the next one,
/// so a burst of pipelined requests costs the client and the daemon a few system calls
/// and wake-ups instead of one each. Kept inside ``ReconnectingConnection``'s locked state, one per socket.
struct RequestOutbox {
    /// Queued bytes past which a caller waits for the writer before returning: the queue
    /// stays about one socket buffer long however many callers pile up.
    static let byteLimit = 256 * 1024

    private var bytes: [UInt8] = []
    private var ids: [UInt32] = []
    /// Whether a caller or the ``ConnectionLoop`` writes for this connection now; the others
    /// only append.
    var isWriting = false
    /// Whether the writer is the loop (`isWriting` too): it writes at its next wake-up what
    /// the socket takes without waiting, and the rest once the socket has room.
    var loopWrites = false
    /// Whether the loop's write waits for room in the socket (its send buffer is full).
    var awaitingRoom = false
    /// The frames of the loop's last write that the socket did not take whole, and how many
    /// of their bytes it took (it may stop inside a frame): the rest goes out first, before
    /// anything queued since. Kept whole, not copied, as the loop may try again often.
    var unsent: (frames: Frames, written: Int)?

    var isEmpty: Bool { ids.isEmpty }
    var isFull: Bool { bytes.count >= Self.byteLimit }

    mutating func append(_ frame: [UInt8], id: UInt32) {
        bytes.append(contentsOf: frame)
        ids.append(id)
    }

    /// Frames taken for one `send`, and the ids of the requests they carry.
    typealias Frames = (bytes: [UInt8], ids: [UInt32])

    /// Everything queued, in order, leaving the outbox empty.
    mutating func takeAll() -> Frames {
        defer {
            bytes = []
            ids = []
        }
        return (bytes, ids)
    }
}
