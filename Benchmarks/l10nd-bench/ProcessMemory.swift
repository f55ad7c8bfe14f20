import Foundation

/// The memory of running processes as the kernel accounts it in `/proc/PID/smaps_rollup`,
/// for the row that sets twenty clients in mapped mode and the daemon against the daemon
/// alone (issue 14).
///
/// PSS, the proportional set size, divides each page among the processes that map it, so
/// the PSS of a set of processes adds up to the memory they use together: tables in sealed
/// memory that twenty clients map count once, not twenty times. RSS counts every page a
/// process maps in full, and is the daemon-alone baseline.
///
/// ```swift
/// let together = ProcessMemory.proportionalBytes(ofAll: [daemon] + clients)
/// let alone = ProcessMemory.usage(of: daemon)?.residentBytes
/// ```
enum ProcessMemory {
    /// One process's resident and proportional set sizes, in bytes.
    struct Usage: Equatable {
        /// `Rss`: every page the process maps and that is in memory, shared or not.
        var residentBytes: Int
        /// `Pss`: each of those pages divided by the number of processes that map it.
        var proportionalBytes: Int
    }

    /// The usage of process `pid`; nil when it has ended or cannot be read (another user's).
    static func usage(of pid: Int32) -> Usage? {
        guard let rollup = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else {
            return nil
        }
        return usage(inRollup: rollup)
    }

    /// The sum of PSS over `pids`, the memory they use together; nil when any of them cannot
    /// be read, since leaving one out would understate it.
    static func proportionalBytes(ofAll pids: [Int32]) -> Int? {
        var total = 0
        for pid in pids {
            guard let usage = usage(of: pid) else { return nil }
            total += usage.proportionalBytes
        }
        return total
    }

    /// The `Rss:` and `Pss:` lines of `smaps_rollup` text (in kB there), in bytes.
    static func usage(inRollup rollup: String) -> Usage? {
        var kilobytes: [Substring: Int] = [:]
        for line in rollup.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 3, fields[2] == "kB", let value = Int(fields[1]) else { continue }
            kilobytes[fields[0]] = value
        }
        guard let resident = kilobytes["Rss:"], let proportional = kilobytes["Pss:"] else { return nil }
        return Usage(residentBytes: resident * 1024, proportionalBytes: proportional * 1024)
    }
}
