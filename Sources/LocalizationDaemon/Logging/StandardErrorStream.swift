import Glibc

/// Writes text to the process's stderr with `write(2)`, reporting failure instead of
/// trapping.
///
/// Foundation's `FileHandle.write(_:)` traps when the write fails: stderr is often a pipe to
/// journald, whose reader goes away when journald restarts (`EPIPE`), or a file on a disk
/// that fills (`ENOSPC`), and a log line must never end the daemon. With `SIGPIPE` ignored
/// (the daemon does so first thing), a vanished reader is just a failed write.
///
/// ```swift
/// if !StandardErrorStream.write("l10nd: error: cannot start\n") { /* nowhere left to say it */ }
/// ```
package enum StandardErrorStream {
    /// Writes all of `text` to `descriptor` (stderr unless told), retrying after signals and
    /// short writes; false when the descriptor refused it (the rest of the text is dropped).
    /// The default descriptor, 2, is `STDERR_FILENO`.
    @discardableResult
    package static func write(_ text: String, to descriptor: Int32 = 2) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                // A write of zero bytes makes no progress: give up rather than spin.
                if written == 0 { return false }
                offset += written
            }
            return true
        }
    }
}
