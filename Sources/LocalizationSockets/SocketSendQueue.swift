import Glibc

/// What a connected socket has sent that its peer has not read yet.
///
/// A Unix stream socket takes more bytes only once its peer has read about three quarters
/// of what waits (the kernel wakes a writer when the queued bytes fall to a quarter of the
/// send buffer), so a peer reading slowly can go many seconds without the socket taking a
/// byte while it reads all the time; the queue shrinking is how its reading shows.
package enum SocketSendQueue {
    /// The bytes sent on `descriptor` and not yet read by the peer (`SIOCOUTQ`; on a Unix
    /// socket, with the kernel's bookkeeping per buffer), or nil if the kernel will not say.
    package static func unreadByteCount(_ descriptor: Int32) -> Int? {
        var count: Int32 = 0
        // SIOCOUTQ is TIOCOUTQ (linux/sockios.h).
        return ioctl(descriptor, UInt(TIOCOUTQ), &count) == 0 ? Int(count) : nil
    }
}
