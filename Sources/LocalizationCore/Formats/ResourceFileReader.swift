import Glibc

/// Reads a resource file's bytes for parsing, refusing files too large to parse safely.
///
/// Parsing costs several times a file's size in memory (a 100 MB `.strings` file peaks
/// near 900 MB), so one oversized file, by mistake or malice, could take the daemon's
/// memory with it. A file over the limit is reported like any unreadable file and keeps
/// its last good table.
public enum ResourceFileReader {
    /// The default limit on one resource file: 128 MiB, far above any real table (the
    /// largest file in the shared corpus of a real app is 31 KB) and low enough that
    /// parsing one stays near a gigabyte.
    public static let defaultMaximumBytes = 128 << 20

    /// What reading a file gave.
    public enum Outcome: Sendable, Equatable {
        /// The file's content.
        case bytes([UInt8])
        /// Nothing is at the path (the file was deleted or renamed away).
        case gone
        /// Something is there but cannot be used; `reason` says why, for a translator.
        case failed(reason: String)
    }

    /// Reads the file at `path`, at most `maximumBytes` of it.
    ///
    /// Opened non-blocking, so a FIFO or device that someone put among the resources
    /// cannot hang the reader; only regular files are read.
    public static func read(_ path: String, maximumBytes: Int = defaultMaximumBytes) -> Outcome {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            var info = stat()
            // ENOENT through a link that leads nowhere is a problem; with no entry at all, gone.
            if code == ENOENT, lstat(path, &info) != 0 { return .gone }
            return .failed(reason: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failed(reason: String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failed(reason: "it is a directory, not a file")
        default: return .failed(reason: "it is not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= maximumBytes else {
            return .failed(
                reason: "it is \(amount(size)), larger than the \(amount(maximumBytes)) limit for one resource file")
        }
        // One byte of room beyond the size shows a file that grew while being read.
        var bytes = [UInt8](repeating: 0, count: min(size, maximumBytes) + 1)
        var count = 0
        while true {
            let result = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if result < 0 {
                if errno == EINTR { continue }
                return .failed(reason: String(cString: strerror(errno)))
            }
            if result == 0 { break }
            count += result
            if count == bytes.count {
                guard count <= maximumBytes else {
                    return .failed(reason: "it grew past the \(amount(maximumBytes)) limit for one resource file")
                }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, maximumBytes + 1 - count)))
            }
        }
        bytes.removeSubrange(count...)
        return .bytes(bytes)
    }

    /// The file's bytes, or the ``ResourceParseError`` that reports why there are none
    /// (a missing file included).
    public static func bytes(
        of path: String, maximumBytes: Int = defaultMaximumBytes
    ) -> Result<[UInt8], ResourceParseError> {
        switch read(path, maximumBytes: maximumBytes) {
        case .bytes(let bytes): .success(bytes)
        case .gone: .failure(.unreadable(path, reason: "it is missing"))
        case .failed(let reason): .failure(.unreadable(path, reason: reason))
        }
    }

    /// `bytes` as a person reads it: whole MiB from 1 MiB up, else bytes.
    private static func amount(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
