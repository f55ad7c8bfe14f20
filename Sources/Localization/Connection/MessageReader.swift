import Glibc
import LocalizationCore
import LocalizationSockets
import LocalizationWire

/// The reading half of one connection to `l10nd`: reads bytes, cuts them into frames and
/// decodes replies and events. The one place that turns read and decoding failures into
/// ``DaemonConnectionError``s.
///
/// `@unchecked Sendable` because it is confined, not locked: one thread reads it at a time —
/// the ``DaemonConnection`` caller holding its turn, or, for a ``LocalizationClient``'s
/// connection, the ``ConnectionLoop`` thread, which ``readAvailable(using:on:)`` asserts.
final class MessageReader: @unchecked Sendable {
    /// What one read brought: the messages it completed, in order, and the failure that
    /// ended the connection, if any, after them.
    struct ReadOutcome {
        var messages: [WireServerMessage] = []
        var failure: DaemonConnectionError?
    }

    /// The number naming this socket in the ``ConnectionLoop``, shared with its writer.
    let token: UInt64
    private let socket: UnixStreamSocket
    private var framer = MessageFramer(maxMessageBytes: 256 << 20)
    /// The descriptors of each read that brought some, not yet claimed by a `map` reply,
    /// oldest first (owned: closed when claimed or in `deinit`); `nil` for a read whose
    /// descriptors were dropped (none was free). A reply's descriptors arrive together, with
    /// the read that brings its first byte (a read never brings two `sendmsg`s'
    /// descriptors), so they wait here until that reply is complete.
    private var groups: [[Int32]?] = []

    /// The most unclaimed groups kept: a daemon that sends more breaks the protocol.
    private static let maxUnclaimedGroups = 4

    /// A memory file as `fstat` tells it apart: the same in every reply that sends it.
    private struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// A mapping some generation may still hold, not kept alive by this reader.
    private final class HeldMapping {
        weak var mapping: SealedMemoryMapping?
        init(_ mapping: SealedMemoryMapping) { self.mapping = mapping }
    }

    /// The slabs mapped from this connection's `map` replies that a generation still holds,
    /// by file. A reply after an edit names every slab again, most of them unchanged: those
    /// are not mapped (and their pages faulted in) again, so a new generation costs the
    /// client what changed, not the whole set. The file a live mapping holds cannot be freed,
    /// so its inode number names no other file meanwhile; its seals were checked when it
    /// was first mapped, and are for good.
    private var heldMappings: [FileIdentity: HeldMapping] = [:]

    /// Opens the socket's reading half; `token` names the connection in the loop.
    init(socket: UnixStreamSocket, token: UInt64) {
        self.socket = socket
        self.token = token
    }

    deinit {
        groups.forEach(Self.close)
    }

    /// The descriptor, to wait for input on; owned by the socket.
    var descriptor: Int32 { socket.descriptor }

    /// The next reply or event, waiting for it; a wait longer than the time limit is a
    /// `.timeout` error (the connection is still usable), a closed or broken connection is
    /// `.unreachable`.
    func receive() throws(DaemonConnectionError) -> WireServerMessage {
        while true {
            if let message = framer.nextMessage() { return try Self.decode(message) }
            let bytes: [UInt8]
            do { bytes = try socket.receive() } catch { throw DaemonConnectionError(socketFailure: error) }
            guard !bytes.isEmpty else { throw Self.closedByDaemon }
            framer.append(contentsOf: bytes)
        }
    }

    /// Reads what has arrived without waiting (into `buffer`, then the framer) and returns
    /// the messages now complete; the end of the connection is a failure.
    func readAvailable(using buffer: UnsafeMutableRawBufferPointer, on loop: ConnectionLoop) -> ReadOutcome {
        loop.assertOnLoopThread()
        let count: Int
        do {
            // recvmsg, not recv: a `map` reply's descriptor would be closed by a plain read.
            var received = try DescriptorPassing.receive(
                into: buffer, from: socket.descriptor, flags: Int32(MSG_DONTWAIT), keepingLostDescriptor: true,
                keepingAll: true)
            count = received.count
            if let first = received.descriptor.take() { keep([first.take()] + received.takeOthers()) }
            // Its place is kept, so the `map` reply that claims it fails, not the next one's.
            if received.lostDescriptor { keep(nil) }
        } catch {
            return error.wouldBlock ? ReadOutcome() : ReadOutcome(failure: DaemonConnectionError(socketFailure: error))
        }
        guard count > 0 else { return ReadOutcome(failure: Self.closedByDaemon) }
        framer.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        var outcome = ReadOutcome()
        while let message = framer.nextMessage() {
            do throws(DaemonConnectionError) {
                outcome.messages.append(claimDescriptors(for: try Self.decode(message)))
            } catch {
                outcome.failure = error
                break
            }
        }
        return outcome
    }

    /// Keeps one read's descriptors (`nil`: the kernel dropped them).
    private func keep(_ group: [Int32]?) {
        groups.append(group)
        if groups.count > Self.maxUnclaimedGroups { Self.close(groups.removeFirst()) }
    }

    private static func close(_ group: [Int32]?) {
        group?.forEach { FileDescriptor(adopting: $0).close() }
    }

    /// `message` with the slabs its `map` reply announces (`slabs`) claimed from the oldest
    /// group of descriptors, each checked and mapped (``SealedMemoryMapping``), and the
    /// segments opened over them as the manifest says (``LookupSegments``), held in
    /// ``ReceivedMappings`` under the number the reply's `mapping` field now gives. Missing
    /// or failing descriptors, or a manifest that does not match its slabs, turn the reply
    /// into an error. Other messages pass unchanged.
    private func claimDescriptors(for message: WireServerMessage) -> WireServerMessage {
        guard case .reply(let id, .fields(var fields)) = message, fields["slabs"] != nil, fields["segments"] != nil
        else { return message }
        func failure(_ text: String) -> WireServerMessage {
            .reply(id: id, .error(WireError(code: WireError.Code(rawValue: "unsealed_memory"), message: text)))
        }
        let manifest: SegmentManifest
        do { manifest = try SegmentManifest(fields: fields) } catch { return failure(error.message) }
        var numbers: [Int32] = []
        if !manifest.slabSizes.isEmpty {
            guard !groups.isEmpty else { return failure("the map reply came without its descriptors") }
            guard let group = groups.removeFirst() else {
                return failure("\(FrameSocket.noDescriptorFree) to receive the map reply's slabs")
            }
            numbers = group
        }
        guard numbers.count == manifest.slabSizes.count else {
            Self.close(numbers)
            return failure("the map reply names \(manifest.slabSizes.count) slabs and came with \(numbers.count)")
        }
        var mappings: [SealedMemoryMapping] = []
        var refusal: String?
        for (number, size) in zip(numbers, manifest.slabSizes) {
            // Closed at the end of each turn: the mapping keeps its file.
            let descriptor = FileDescriptor(adopting: number)
            guard refusal == nil else { continue }
            let identity = Self.identity(of: descriptor)
            if let identity, let held = heldMappings[identity]?.mapping, held.size == size {
                mappings.append(held)
                continue
            }
            do {
                let mapping = try SealedMemoryMapping(verifying: descriptor, size: size)
                mappings.append(mapping)
                if let identity { heldMappings[identity] = HeldMapping(mapping) }
            } catch {
                refusal = error.message
            }
        }
        heldMappings = heldMappings.filter { $0.value.mapping != nil }
        if let refusal { return failure(refusal) }
        do {
            fields["mapping"] = .integer(ReceivedMappings.hold(try LookupSegments(manifest, mappings: mappings)))
            return .reply(id: id, .fields(fields))
        } catch {
            return failure("the map reply's segments: \(error)")
        }
    }

    /// `descriptor`'s file as `fstat` names it; `nil` when it cannot be asked (the file is
    /// then checked and mapped as a new one, which fails the same way).
    private static func identity(of descriptor: borrowing FileDescriptor) -> FileIdentity? {
        var status = stat()
        guard fstat(descriptor.rawValue, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    private static var closedByDaemon: DaemonConnectionError {
        DaemonConnectionError(code: .unreachable, message: "the daemon closed the connection")
    }

    private static func decode(_ message: FramedMessage) throws(DaemonConnectionError) -> WireServerMessage {
        do { return try WireCodec.decodeServerMessage(message) } catch {
            throw DaemonConnectionError(
                code: .protocolError, message: "the daemon sent a message this client cannot read: \(error.message)")
        }
    }
}
