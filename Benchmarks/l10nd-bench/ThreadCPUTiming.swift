import Glibc

/// Mean nanoseconds of this thread's CPU time per call of `body` over every key of `keys`,
/// its results summed so none is optimized away: the in-place and dictionary lookup rows
/// (`--only compiled`, `--only mapped`).
///
/// CPU time (`CLOCK_THREAD_CPUTIME_ID`), not the wall clock: on the shared 2-core machine
/// (load 6–15) a pass over 100,000 keys is descheduled for a varying share of its wall time,
/// which swung the same lookup 2–3× between runs; the time on the CPU swings far less. What
/// the other processes do to the caches still counts, for both sides alike.
func cpuNanosecondsPerCall(_ keys: [String], _ body: (String) -> Int) -> Double {
    var sum = 0
    let start = threadCPUNanoseconds()
    for key in keys { sum &+= body(key) }
    let elapsed = threadCPUNanoseconds() - start
    precondition(sum > 0, "every key was found")
    return Double(elapsed) / Double(keys.count)
}

/// The CPU time the calling thread has used, in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
