import Glibc

/// Reads a whole regular file into a byte array, straight from the descriptor.
///
/// `FileManager.contents(atPath:)` reads into a `Data` that the parsers then copy into an
/// array: two buffers per file and a third of the time a cold start spends reading.
enum FileBytes {
    /// The bytes of the regular file at `path`, or `nil` when it cannot be opened or read
    /// or is not a regular file (the caller finds out why).
    static func read(_ path: String) -> [UInt8]? {
        // Non-blocking, so a FIFO does not stall the load; it is refused below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        // One byte more than `fstat`'s size, so the read that finds the end of the file fits
        // in the same buffer; a file that grew meanwhile is read on to its end.
        var wanted = Int(info.st_size) + 1
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: wanted))
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + start, wanted) }
            bytes.removeLast(wanted - max(count, 0))
            if count == 0 { return bytes }
            if count < 0, errno != EINTR { return nil }
            wanted = bytes.capacity > bytes.count ? bytes.capacity - bytes.count : 65536
        }
    }
}
