public import Glibc

/// Writes files the way `cp` and slow editors do: through one descriptor, in two halves with
/// a pause between them, so a reader that looks too early sees half a file.
public enum SlowWriter {
    /// Writes `text` to `path` in two halves, `pause` microseconds apart, through a descriptor
    /// opened write-only with `flags` (`O_CREAT | O_EXCL` for a new file, `O_TRUNC` to rewrite
    /// one in place), then closes it.
    public static func write(_ text: String, to path: String, flags: Int32, pause: useconds_t = 150_000) {
        let bytes = Array(text.utf8)
        let descriptor = open(path, flags | O_WRONLY | O_CLOEXEC, 0o644)
        precondition(descriptor >= 0, "open \(path): errno \(errno)")
        let half = bytes.count / 2
        writeAll(bytes[..<half], to: descriptor)
        usleep(pause)
        writeAll(bytes[half...], to: descriptor)
        close(descriptor)
    }

    private static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) {
        var rest = bytes
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            precondition(written > 0, "write: errno \(errno)")
            rest = rest.dropFirst(written)
        }
    }
}
