import Foundation

/// How often a running process's threads have gone to sleep, all threads together: the sum
/// of each thread's `voluntary_ctxt_switches` in `/proc/PID/task/TID/status`.
///
/// For the request-path rows: a server that sleeps once per request pays a wake-up per
/// request, which on a virtual machine whose idle cores halt costs more than the request.
enum ProcessSleeps {
    /// The sleeps of `pid` so far; nil when it has ended or cannot be read.
    static func count(of pid: Int32) -> Int? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        var total = 0
        for thread in threads {
            // A thread that ended since the listing took its count with it; the rest still count.
            guard let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
                let count = Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "")
            else { continue }
            total += count
        }
        return total
    }
}
