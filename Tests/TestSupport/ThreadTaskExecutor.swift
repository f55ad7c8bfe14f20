import Foundation

/// A task executor with a thread of its own: tasks that prefer it
/// (`withTaskExecutorPreference`) run there, not on Swift's cooperative pool, so a test can
/// await while blocking work holds every thread of the pool (``CooperativePoolBlocker``).
/// Its thread ends with ``stop()``.
public final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    /// Starts the thread, named `name` (what `top -H` shows).
    public init(name: String = "test-executor") {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Runs `job` on the thread, after the jobs enqueued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread once the jobs enqueued so far have run.
    public func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
