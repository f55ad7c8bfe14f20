import Foundation

/// The CPU time a running process has used, all its threads together, in nanoseconds, from
/// each thread's `/proc/PID/task/TID/schedstat` (time on a CPU, first field).
///
/// For the request-path rows: a server's CPU per request is what a busy machine changes
/// least, where its rate swings with how the threads land on the cores.
enum ProcessCPU {
    /// The CPU time `pid` has used so far; nil when it has ended or cannot be read.
    static func nanoseconds(of pid: Int32) -> UInt64? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        var total: UInt64 = 0
        for thread in threads {
            // A thread that ended since the listing took its time with it; the rest still count.
            guard let line = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
                let first = line.split(separator: " ").first, let onCPU = UInt64(first)
            else { continue }
            total += onCPU
        }
        return total
    }
}
