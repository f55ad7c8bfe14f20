import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One line of `/proc/self/mountinfo`: a mount's id and where it is mounted.
struct MountEntry: Sendable, Hashable {
    /// The mount's id (its first field): a file system mounted again at the same place is
    /// another entry.
    var id: Int
    /// The mount point, its octal escapes (`\040` for a space) decoded.
    var path: String
}

/// The process's mount table, and a thread that tells when it changes.
///
/// inotify reports no mounts: a file system mounted over a watched directory hides it, the
/// watches stay on the covered directory, and edits on the mounted one go unheard. The
/// kernel signals every change of the mount table to `poll` on `/proc/self/mountinfo`
/// (`POLLPRI`, since Linux 2.6.15), in the reader's own mount namespace; one thread waits
/// for that, for every watcher of the process.
final class MountTable: Sendable {
    /// The process's one monitor thread, started by the first subscriber.
    static let shared = MountTable()

    private struct Subscribers {
        var next = 1
        var handlers: [Int: @Sendable () -> Void] = [:]
        var started = false
    }
    private let subscribers = Mutex(Subscribers())

    /// The mounts now; `nil` when the table cannot be read. Read through ``KernelFile``'s
    /// buffer: a mount may change when memory is short, and the table may be long.
    static func entries() -> Set<MountEntry>? {
        var entries: Set<MountEntry> = []
        let read = KernelFile.forEachLine(of: "/proc/self/mountinfo") { line in
            // id, parent id, major:minor, root, mount point, …
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: false)
            guard fields.count >= 5, let id = Int(String(decoding: fields[0], as: UTF8.self)) else { return }
            entries.insert(MountEntry(id: id, path: decoded(fields[4])))
        }
        return read ? entries : nil
    }

    /// `field` with the kernel's octal escapes (`\040`, `\011`, `\012`, `\134`) decoded.
    static func decoded(_ field: some Collection<UInt8>) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(field)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "\\"), utf8.count >= 3,
                let value = UInt8(String(decoding: utf8.prefix(3), as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `handler` (on the monitor thread) after each change of the mount table; returns
    /// the subscription for ``unsubscribe(_:)``.
    func subscribe(_ handler: @escaping @Sendable () -> Void) -> Int {
        let (id, start) = subscribers.withLock { state in
            defer {
                state.next += 1
                state.started = true
            }
            state.handlers[state.next] = handler
            return (state.next, !state.started)
        }
        if start {
            // Opened here, not on the thread: the daemon's descriptors are all open once it
            // is ready (a descriptor count taken then does not catch this one arriving).
            let descriptor = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return id }
            let thread = Thread { [self] in run(descriptor) }
            thread.name = "l10nd-mounts"
            thread.start()
        }
        return id
    }

    /// Stops calling the handler of `subscription`.
    func unsubscribe(_ subscription: Int) {
        _ = subscribers.withLock { $0.handlers.removeValue(forKey: subscription) }
    }

    /// Waits for changes for the life of the process (a thread and a descriptor, whatever
    /// the number of watchers).
    private func run(_ descriptor: Int32) {
        var waiter = pollfd(fd: descriptor, events: Int16(POLLPRI), revents: 0)
        while true {
            waiter.revents = 0
            let ready = poll(&waiter, 1, -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            // The kernel re-arms the signal as it reports it: no read is needed.
            if waiter.revents & Int16(POLLPRI | POLLERR) != 0 {
                for handler in subscribers.withLock({ Array($0.handlers.values) }) { handler() }
            }
        }
    }
}
