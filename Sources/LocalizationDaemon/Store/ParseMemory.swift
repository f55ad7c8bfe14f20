import Foundation
import Glibc
import LocalizationCore
import Synchronization

/// Whether the daemon may still get the memory a file's parse takes, asked before the parse.
///
/// Swift ends the process when an allocation fails, so a parse that runs out of memory
/// cannot be caught: it must not start. A parse that will not fit under the process's limits
/// (`RLIMIT_AS`, `RLIMIT_DATA`, the cgroup's `memory.max`: systemd's `MemoryMax=`, a
/// container's limit) fails that one file with an "out of memory" error instead, and the
/// file keeps its last good table. Parses running at once each hold their estimate back.
enum ParseMemory {
    /// What parses under way have been allowed, not yet given back.
    private static let reserved = Atomic<Int>(0)

    /// About how much parsing `bytes` as `kind` takes at its peak, the bytes themselves not
    /// counted (they are read already): an upper bound, so that a parse that could fail is
    /// refused (a failed allocation ends the process). The model costs more for many small
    /// values than for few big ones, so it is counted both by bytes and by strings (a `"`
    /// pair each: heap storage, a table entry). Measured peak `VmData` growth (RELIABILITY.md),
    /// net of the bytes: 2.5 to 2.9 times the file for catalogs of many small values and of
    /// few big ones, 2.7 for a `.strings` file of small lines; sampled, so short peaks are
    /// missed (40,000 keys in 4 languages, 27 MB, ended the process with 90 MB of room in a
    /// release build, 116 in a debug one).
    /// A String Catalog: its tape, 16 bytes a JSON value (each counted by the `{ [ , :`
    /// before it, an upper bound), in an array reserved at one value per 12 bytes and doubled
    /// while short (the old one held during the copy), then its model and table: 3 times the
    /// file and 32 bytes a string. A `.strings` file: twice the file and 48 bytes a string; a
    /// `.stringsdict` file goes through a plist model, 3 times the file and 48 bytes a string.
    static func estimate(_ bytes: [UInt8], kind: ResourceFile.Kind) -> Int {
        let (values, quotes) = bytes.withUnsafeBufferPointer { bytes in
            var values = 0
            var quotes = 0
            for byte in bytes {
                switch byte {
                case 0x2C, 0x3A, 0x5B, 0x7B: values += 1
                case 0x22: quotes += 1
                default: break
                }
            }
            return (values, quotes)
        }
        let strings = quotes / 2 + 1
        switch kind {
        case .strings: return bytes.count * 2 + strings * 48
        case .stringsDict: return bytes.count * 3 + strings * 48
        case .stringCatalog:
            var capacity = bytes.count / 12 + 16
            var peak = capacity
            while capacity < values {
                peak = capacity * 3
                capacity *= 2
            }
            return peak * 16 + bytes.count * 3 + strings * 32
        }
    }

    /// The least ``estimate(_:kind:)`` can be for a file of `size` bytes, known before
    /// reading it: a String Catalog's tape array as first reserved, and its model.
    static func leastEstimate(ofFileOf size: Int, kind: ResourceFile.Kind) -> Int {
        switch kind {
        case .strings: size * 2
        case .stringsDict: size * 3
        case .stringCatalog: (size / 12 + 16) * 16 + size * 3
        }
    }

    /// Runs `read` (which reads a file of `size` bytes to parse it as `kind`) when the bytes
    /// and the least their parse takes fit in what the process may still get, holding that
    /// back from other reads and parses meanwhile; otherwise returns why not.
    ///
    /// The read's buffer is as large as the file: unchecked, a large file saved while the
    /// daemon is near its limit would end the process in the read, before the parse is asked.
    static func whenRoom<T>(toRead size: Int, as kind: ResourceFile.Kind, _ read: () -> T) -> Result<
        T, ParseOutOfMemory
    > {
        guard size >= 1 << 20 else { return .success(read()) }
        return whenRoom(for: size + leastEstimate(ofFileOf: size, kind: kind), doing: "reading and parsing", read)
    }

    /// Runs `parse` when parsing `bytes` as `kind` fits in what the process may still get,
    /// holding its estimate back from other parses meanwhile; otherwise returns why not.
    static func whenRoom<T>(toParse bytes: [UInt8], as kind: ResourceFile.Kind, _ parse: () -> T) -> Result<
        T, ParseOutOfMemory
    > {
        // Looking costs more than a small parse, which never comes near a limit.
        guard bytes.count >= 1 << 20 else { return .success(parse()) }
        return whenRoom(for: estimate(bytes, kind: kind), doing: "parsing", parse)
    }

    /// Runs `work`, which takes about `need` bytes at its peak, when that fits in what the
    /// process may still get less what other work under way holds, holding `need` back until
    /// `work` returns (whatever it returns); otherwise returns why not, naming `doing`.
    private static func whenRoom<T>(for need: Int, doing: String, _ work: () -> T) -> Result<T, ParseOutOfMemory> {
        let held = reserved.add(need, ordering: .relaxed).newValue
        defer { reserved.subtract(need, ordering: .relaxed) }
        if let (room, limit) = headroom(), held > room {
            return .failure(
                ParseOutOfMemory(need: need, room: max(room - (held - need), 0), limit: limit, doing: doing))
        }
        return .success(work())
    }

    /// The bytes the process may still get under its tightest limit, and that limit's name;
    /// `nil` when none is set. Read through ``KernelFile``: this is asked when memory is short.
    static func headroom() -> (bytes: Int, limit: String)? {
        var rooms: [(Int, String)] = []
        for (resource, name, field) in [(RLIMIT_AS, "RLIMIT_AS", "VmSize:"), (RLIMIT_DATA, "RLIMIT_DATA", "VmData:")] {
            var limit = rlimit()
            guard getrlimit(Int32(resource.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,
                let used = KernelFile.number(in: "/proc/self/status", after: field)
            else { continue }
            rooms.append((Int(clamping: limit.rlim_cur) - used * 1024, name))
        }
        if let group = cgroup(), let max = KernelFile.number(in: group + "/memory.max"),
            let used = KernelFile.number(in: group + "/memory.current")
        {
            rooms.append((max - used, "the cgroup's memory.max"))
        }
        return rooms.min { $0.0 < $1.0 }.map { (bytes: $0.0, limit: $0.1) }
    }

    /// The process's cgroup (v2) directory, from `/proc/self/cgroup`'s `0::/path` line.
    private static func cgroup() -> String? {
        var group: String?
        KernelFile.forEachLine(of: "/proc/self/cgroup") { line in
            guard line.starts(with: "0::".utf8) else { return }
            group = "/sys/fs/cgroup" + String(decoding: line.dropFirst(3), as: UTF8.self)
        }
        return group
    }
}

/// A parse not started because it would not fit in the memory the process may still get.
struct ParseOutOfMemory: Error {
    /// What the parse would take, and what the process may still get, in bytes.
    let need: Int
    let room: Int
    /// The limit that leaves that room (`RLIMIT_AS`, `RLIMIT_DATA`, the cgroup's `memory.max`).
    let limit: String
    /// What was not done: "parsing", or "reading and parsing" (refused before the read).
    var doing = "parsing"

    /// The file's error, as `status` and the log show it.
    var reason: String {
        "out of memory: \(doing) it takes about \(need >> 20) MB, and \(limit) leaves l10nd \(room >> 20) MB; not \(doing == "parsing" ? "parsed" : "read")"
    }
}
