import Glibc
import LocalizationSockets
import Synchronization

/// A file the kernel writes as it is read (`/proc/self/mountinfo`, `/proc/self/status`, a
/// cgroup's `memory.current`), read line by line through one buffer taken once.
///
/// Such a file says it is empty (`st_size` 0), so a general reader guesses its size and
/// grows a buffer, and the daemon reads these files exactly when memory is short: to ask
/// whether a parse fits, or when a mount changes. With 10 MB of room a Foundation read of
/// `/proc/self/mountinfo` ended the daemon on a 1 MB allocation (Swift aborts when one fails).
/// Here the buffer is ``capacity`` bytes, allocated by the first read and kept for the life
/// of the process; the lines handed out are views into it.
///
/// ```swift
/// KernelFile.forEachLine(of: "/proc/self/status") { line in print(String(decoding: line, as: UTF8.self)) }
/// ```
enum KernelFile {
    /// The longest line read, and the buffer's size: a mount point is at most 4,096 bytes
    /// (16,384 escaped), a line of `/proc/self/status` under 200.
    static let capacity = 64 << 10

    /// The one buffer, shared by every reader in turn (they are short and rare).
    private static let buffer = Mutex<UnsafeMutableRawBufferPointer?>(nil)

    /// Calls `body` with each line of `path`, its newline left out, in order; returns false
    /// (after the lines before it) when the file cannot be opened or read, or holds a line
    /// longer than ``capacity``.
    ///
    /// - Parameter chunk: How much one `read` asks for, at most ``capacity``; smaller only in
    ///   tests, to put line ends across reads.
    @discardableResult
    static func forEachLine(
        of path: String, chunk: Int = capacity, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Bool {
        guard let file = try? FileDescriptor(systemCall: "open", { open(path, O_RDONLY | O_CLOEXEC) }) else {
            return false
        }
        return buffer.withLock { buffer in
            let storage =
                buffer ?? UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
            buffer = storage
            let bytes = storage.bindMemory(to: UInt8.self)
            var filled = 0
            while true {
                let room = min(chunk, capacity - filled)
                guard room > 0 else { return false }  // a line longer than the buffer
                guard
                    let count = try? SystemCall.run("read", { read(file.rawValue, bytes.baseAddress! + filled, room) })
                else { return false }
                if count == 0 {
                    if filled > 0 { body(UnsafeBufferPointer(rebasing: bytes[..<filled])) }
                    return true
                }
                filled += count
                var start = 0
                while let end = bytes[start..<filled].firstIndex(of: UInt8(ascii: "\n")) {
                    body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    start = end + 1
                }
                if start > 0 {
                    // The unfinished line moves to the front; the next read completes it.
                    (storage.baseAddress! + 0).copyMemory(from: storage.baseAddress! + start, byteCount: filled - start)
                    filled -= start
                }
            }
        }
    }

    /// The first number on the line of `path` that starts with `label` (`VmData:`), or on
    /// its only line when `label` is empty (a cgroup's `memory.max`); `nil` when there is
    /// none (`max`, no such line, no file).
    static func number(in path: String, after label: String = "") -> Int? {
        var found: Int?
        forEachLine(of: path) { line in
            guard found == nil, line.starts(with: label.utf8) else { return }
            let digits = line.dropFirst(label.utf8.count).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                .prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !digits.isEmpty else { return }
            found = digits.reduce(0) { $0 &* 10 &+ Int($1 - UInt8(ascii: "0")) }
        }
        return found
    }
}
