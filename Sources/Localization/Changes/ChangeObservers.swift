import Dispatch
import Foundation
import Synchronization

/// The callbacks registered on a ``Localizer``, called one change at a time, in order, on a
/// thread of their own (`l10nd-changes`), started when a change first finds a callback
/// registered: never on the process's connection thread, so a callback may look strings up
/// (which may need a round trip that thread must read). Not a Dispatch queue: a child made by
/// `fork()` may not use the parent's queues (libdispatch stops it), so a child starts a thread
/// of its own for the changes it hears. The thread ends with the localizer.
final class ChangeObservers: Sendable {
    /// What the thread shares with the callers: it holds this, not the observers, so it ends
    /// when they go.
    private final class Queue: Sendable {
        struct State {
            var handlers: [UInt64: @Sendable (LocalizationChange) -> Void] = [:]
            var nextToken: UInt64 = 1
            var queued: [LocalizationChange] = []
            /// The fork generation the thread was started in; `nil` before it is.
            var thread: UInt64?
            var stopped = false
        }

        let state = ForkSafeMutex(State())
        /// Signalled once per change queued, and at the end.
        let ready = DispatchSemaphore(value: 0)

        /// The thread's loop: each change queued, to every handler registered when it is called.
        func run() {
            while true {
                ready.wait()
                let (change, stopped) = state.withLock { state in
                    (state.queued.isEmpty ? nil : state.queued.removeFirst(), state.stopped)
                }
                if stopped { return }
                guard let change else { continue }
                for token in state.withLock({ $0.handlers.keys.sorted() }) {
                    // Looked up again per call: a handler cancelled meanwhile is skipped.
                    state.withLock { $0.handlers[token] }?(change)
                }
            }
        }
    }

    private let queue = Queue()

    deinit {
        queue.state.withLock { $0.stopped = true }
        queue.ready.signal()
    }

    /// Adds `handler`; the observation removes it.
    func add(_ handler: @escaping @Sendable (LocalizationChange) -> Void) -> ChangeObservation {
        let token = queue.state.withLock { state in
            defer { state.nextToken += 1 }
            state.handlers[state.nextToken] = handler
            return state.nextToken
        }
        return ChangeObservation { [weak self] in
            _ = self?.queue.state.withLock { $0.handlers.removeValue(forKey: token) }
        }
    }

    /// Calls every handler with `change`, asynchronously, in order. Nothing is kept while no
    /// handler is registered.
    func notify(_ change: LocalizationChange) {
        let start = queue.state.withLock { state -> Bool in
            guard !state.handlers.isEmpty else { return false }
            state.queued.append(change)
            if let generation = state.thread, !ProcessFork.isInherited(generation) { return false }
            state.thread = ProcessFork.generation
            return true
        }
        if start {
            Thread { [queue] in
                // Named from inside: Foundation names the system thread only for the current one.
                Thread.current.name = "l10nd-changes"
                queue.run()
            }.start()
        }
        queue.ready.signal()
    }
}
