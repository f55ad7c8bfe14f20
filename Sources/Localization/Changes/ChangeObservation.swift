import Synchronization

/// A registered change callback; ``cancel()`` (or letting the value go) unregisters it.
///
/// ```swift
/// let observation = Localizer.shared.onChange { change in print(change.tables) }
/// defer { observation.cancel() }
/// ```
public final class ChangeObservation: Sendable {
    private let onCancel: ForkSafeMutex<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = ForkSafeMutex(onCancel)
    }

    deinit { cancel() }

    /// Stops the callback; it is not called after this returns, except a call in progress.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }
}
