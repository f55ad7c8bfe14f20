import CSharedMemory
import Glibc

/// Bytes sent with descriptors attached over a Unix stream socket (`SCM_RIGHTS`), and
/// received with the descriptors owned: how the daemon hands a ``SealedMemoryFile`` to a client.
///
/// On a stream socket a descriptor travels with the bytes of the `sendmsg` that carried it:
/// it arrives with the `recvmsg` that reads the first of them, which may also hold bytes sent
/// before, and which Linux ends with the bytes of that `sendmsg` at the latest. So the protocol
/// must say which message a descriptor belongs to (say, the next one that announces one); the
/// socket keeps descriptors in order. A descriptor reaching a plain `recv` or `read` is
/// closed by the kernel.
///
/// ```swift
/// let sent = try DescriptorPassing.send(header, attaching: file.descriptor, over: socket)
/// // the other side:
/// var received = try DescriptorPassing.receive(into: buffer, from: socket)
/// if let descriptor = received.descriptor.take() { … }
/// ```
package enum DescriptorPassing {
    /// How many descriptors one receive accepts in its control buffer: one is expected, and
    /// room for more lets a confused or hostile sender's extras arrive and be closed instead of
    /// truncating the control data.
    package static let receiveCapacity = 16
    /// The most descriptors one message carries (Linux's `SCM_MAX_FD`): what a receive that
    /// keeps them all (`keepingAll`) has room for.
    package static let maxDescriptors = 253

    /// Sends a prefix of `bytes` (at least one byte; empty `bytes` are refused) with
    /// `descriptor` attached, and returns how many bytes went; the caller sends the rest
    /// without descriptors. The receiver gets a descriptor of its own for the same open file,
    /// so the sender keeps and closes `descriptor` as before.
    ///
    /// Throws `EAGAIN` (``SocketError/wouldBlock``) when a non-blocking socket is full.
    package static func send(
        _ bytes: UnsafeRawBufferPointer, attaching descriptor: borrowing FileDescriptor, over socket: Int32
    ) throws(SocketError) -> Int {
        try send(bytes, attachingNumbers: [descriptor.rawValue], over: socket)
    }

    /// Sends a prefix of `bytes` with every descriptor number in `numbers` attached, which stay
    /// owned by the caller; ``send(_:attaching:over:)`` is the usual form.
    package static func send(
        _ bytes: UnsafeRawBufferPointer, attachingNumbers numbers: [Int32], over socket: Int32
    ) throws(SocketError) -> Int {
        // Linux drops descriptors sent with no data on a stream socket.
        precondition(!bytes.isEmpty, "descriptors travel with at least one byte")
        precondition(!numbers.isEmpty, "bytes alone go with an ordinary send")
        let space = l10nd_rights_space(numbers.count)
        return try withUnsafeTemporaryAllocation(byteCount: space, alignment: MemoryLayout<cmsghdr>.alignment) {
            control throws(SocketError) in
            let length = numbers.withUnsafeBufferPointer {
                l10nd_rights_encode(control.baseAddress, $0.baseAddress, $0.count)
            }
            var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
            return try withUnsafeMutablePointer(to: &vector) { vectorPointer throws(SocketError) in
                var message = msghdr()
                message.msg_iov = vectorPointer
                message.msg_iovlen = 1
                message.msg_control = control.baseAddress
                message.msg_controllen = length
                return try SystemCall.run("sendmsg") { sendmsg(socket, &message, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    /// Receives what is there, up to `buffer.count` bytes, and the descriptor sent with them if
    /// any (close-on-exec); a count of 0 means the peer closed the connection. `flags` are
    /// added to `recvmsg`'s (`MSG_DONTWAIT` for a reader woken by readiness).
    ///
    /// A descriptor beyond the first is closed and counted in ``ReceivedBytes/extraDescriptors``,
    /// unless `keepingAll`: then up to ``maxDescriptors`` are received, those after the first
    /// owned by the value (``ReceivedBytes/takeOthers()``).
    /// Throws ``SocketError/Code/truncatedControl`` (after closing whatever arrived) when the
    /// kernel dropped descriptors that did not fit: the bytes were consumed, so the caller
    /// must close the connection — unless `keepingLostDescriptor`, when descriptors were
    /// dropped because none was free to receive them (`EMFILE`): the bytes come back with
    /// ``ReceivedBytes/lostDescriptor`` set (and whatever descriptors did arrive closed), for
    /// the caller to fail the one reply that claims them. Throws `EAGAIN` when a
    /// non-blocking socket has nothing.
    package static func receive(
        into buffer: UnsafeMutableRawBufferPointer, from socket: Int32, flags: Int32 = 0,
        keepingLostDescriptor: Bool = false, keepingAll: Bool = false
    ) throws(SocketError) -> ReceivedBytes {
        let space = l10nd_rights_space(keepingAll ? maxDescriptors : receiveCapacity)
        return try withUnsafeTemporaryAllocation(byteCount: space, alignment: MemoryLayout<cmsghdr>.alignment) {
            control throws(SocketError) in
            var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
            var message = msghdr()
            let count = try withUnsafeMutablePointer(to: &vector) { vectorPointer throws(SocketError) in
                message.msg_iov = vectorPointer
                message.msg_iovlen = 1
                message.msg_control = control.baseAddress
                message.msg_controllen = space
                return try SystemCall.run("recvmsg") { recvmsg(socket, &message, Int32(MSG_CMSG_CLOEXEC) | flags) }
            }
            var numbers = [Int32](
                repeating: -1, count: l10nd_rights_received(control.baseAddress, message.msg_controllen, nil))
            numbers.withUnsafeMutableBufferPointer {
                _ = l10nd_rights_received(control.baseAddress, message.msg_controllen, $0.baseAddress)
            }
            if message.msg_flags & Int32(MSG_CTRUNC) != 0, keepingLostDescriptor, numbers.isEmpty || keepingAll {
                numbers.forEach { FileDescriptor(adopting: $0).close() }
                return ReceivedBytes(count: count, descriptor: nil, extraDescriptors: 0, lostDescriptor: true)
            }
            if message.msg_flags & Int32(MSG_CTRUNC) != 0 {
                numbers.forEach { FileDescriptor(adopting: $0).close() }
                throw SocketError(
                    code: .truncatedControl,
                    message: "recvmsg dropped descriptors that did not fit (MSG_CTRUNC) after \(count) bytes")
            }
            if keepingAll {
                return ReceivedBytes(
                    count: count, descriptor: numbers.first.map { FileDescriptor(adopting: $0) },
                    extraDescriptors: 0, others: Array(numbers.dropFirst()))
            }
            numbers.dropFirst().forEach { FileDescriptor(adopting: $0).close() }
            return ReceivedBytes(
                count: count, descriptor: numbers.first.map { FileDescriptor(adopting: $0) },
                extraDescriptors: max(0, numbers.count - 1))
        }
    }
}
