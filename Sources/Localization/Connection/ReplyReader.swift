import LocalizationSockets
import Synchronization

/// The one thread that reads every ``LocalizationClient`` connection of the process.
///
/// A connection is attached once its handshake is done and detached when it ends. The
/// thread waits for input on all of them at once (one ``ReadinessLoop``), so replies that
/// arrive together, on one connection or many, cost one wake-up, not one per connection's
/// reader thread. Waiting for input only, it is also not woken when the daemon reads a
/// request, as a thread blocked in `recv` is (the kernel wakes a socket's sleepers when its
/// send buffer drains).
final class ReplyReader: Sendable {
    /// One attached connection: where its messages go, and whether they still may.
    final class Attachment: Sendable {
        fileprivate let token: UInt64
        fileprivate let socket: FrameSocket
        fileprivate let core: ClientCore
        /// Held while its input is handled; false once detached, so no handling starts after.
        fileprivate let attached = Mutex(true)
        private let reader: ReplyReader

        fileprivate init(token: UInt64, socket: FrameSocket, core: ClientCore, reader: ReplyReader) {
            self.token = token
            self.socket = socket
            self.core = core
            self.reader = reader
        }

        /// Stops reading the connection; returns once no message of it is being handled.
        func detach() {
            reader.loop.unwatch(socket.descriptor)
            _ = reader.attachments.withLock { $0.removeValue(forKey: token) }
            attached.withLock { $0 = false }
        }
    }

    /// The buffer every read goes through, used by the reader thread alone.
    private final class ReadBuffer: @unchecked Sendable {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
        deinit { bytes.deallocate() }
    }

    private static let shared = Mutex<ReplyReader?>(nil)

    private let loop: ReadinessLoop
    private let attachments = Mutex<[UInt64: Attachment]>([:])
    private let nextToken = Atomic<UInt64>(1)

    /// The process's reader, started on first use; it runs for the life of the process.
    static func started() throws(DaemonConnectionError) -> ReplyReader {
        try shared.withLock { (reader: inout ReplyReader?) throws(DaemonConnectionError) -> ReplyReader in
            if let reader { return reader }
            let loop: ReadinessLoop
            do throws(SocketError) { loop = try ReadinessLoop() } catch {
                throw DaemonConnectionError(code: .unreachable, message: "cannot wait for replies: \(error.message)")
            }
            let started = ReplyReader(loop: loop)
            loop.start(name: "l10nd-replies") { [buffer = ReadBuffer()] tokens in
                started.handle(tokens, buffer: buffer.bytes)
            }
            reader = started
            return started
        }
    }

    private init(loop: ReadinessLoop) {
        self.loop = loop
    }

    /// Reads `socket` from now on and hands what arrives to `core` (on the reader thread),
    /// until the returned attachment is detached.
    func attach(_ socket: FrameSocket, to core: ClientCore) throws(DaemonConnectionError) -> Attachment {
        let attachment = Attachment(
            token: nextToken.wrappingAdd(1, ordering: .relaxed).oldValue, socket: socket, core: core, reader: self)
        attachments.withLock { $0[attachment.token] = attachment }
        do { try loop.watch(socket.descriptor, token: attachment.token) } catch {
            _ = attachments.withLock { $0.removeValue(forKey: attachment.token) }
            throw DaemonConnectionError(code: .unreachable, message: "cannot wait for replies: \(error.message)")
        }
        return attachment
    }

    private func handle(_ tokens: [UInt64], buffer: UnsafeMutableRawBufferPointer) {
        for token in tokens {
            guard let attachment = attachments.withLock({ $0[token] }) else { continue }
            attachment.attached.withLock { attached in
                guard attached else { return }
                let outcome = attachment.socket.readAvailable(using: buffer)
                if outcome.failure != nil {
                    // The end of the stream stays readable: stop hearing about it at once.
                    loop.unwatch(attachment.socket.descriptor)
                }
                attachment.core.received(outcome, from: attachment.socket)
            }
        }
    }
}
