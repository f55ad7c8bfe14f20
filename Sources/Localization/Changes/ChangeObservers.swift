import Dispatch
import Synchronization

/// The callbacks registered on a ``Localizer``, called one change at a time, in order, on
/// a queue of their own: never on the process's connection thread, so a callback may look
/// strings up (which may need a round trip that thread must read).
final class ChangeObservers: Sendable {
    private let handlers = Mutex<[UInt64: @Sendable (LocalizationChange) -> Void]>([:])
    private let nextToken = Atomic<UInt64>(1)
    private let queue = DispatchQueue(label: "l10nd.change-observers")

    /// Adds `handler`; the observation removes it.
    func add(_ handler: @escaping @Sendable (LocalizationChange) -> Void) -> ChangeObservation {
        let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
        handlers.withLock { $0[token] = handler }
        return ChangeObservation { [weak self] in
            _ = self?.handlers.withLock { $0.removeValue(forKey: token) }
        }
    }

    /// Calls every handler with `change`, asynchronously, in order.
    func notify(_ change: LocalizationChange) {
        queue.async { [self] in
            for token in handlers.withLock({ $0.keys.sorted() }) {
                // Looked up again per call: a handler cancelled meanwhile is skipped.
                handlers.withLock { $0[token] }?(change)
            }
        }
    }
}
