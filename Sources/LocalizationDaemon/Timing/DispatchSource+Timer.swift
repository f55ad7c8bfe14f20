import Dispatch

extension DispatchTimeInterval {
    /// `duration` to the nanosecond; a negative one is zero.
    init(_ duration: Duration) {
        self = .nanoseconds(Int(min(max(0, duration / .nanoseconds(1)), 1e18)))
    }
}

extension DispatchSource {
    /// A timer already resumed on `queue` that calls `handler` every `interval`, the first
    /// time one `interval` from now: the daemon's periodic checks.
    static func repeatingTimer(
        every interval: Duration, leeway: DispatchTimeInterval = .milliseconds(100), queue: DispatchQueue,
        handler: @escaping () -> Void
    ) -> any DispatchSourceTimer {
        let timer = unscheduledTimer(queue: queue, handler: handler)
        let period = DispatchTimeInterval(interval)
        timer.schedule(deadline: .now() + period, repeating: period, leeway: leeway)
        return timer
    }

    /// A timer already resumed on `queue` that calls `handler` once it is scheduled
    /// (`schedule(deadline:)`, again after each firing it is to follow).
    static func unscheduledTimer(queue: DispatchQueue, handler: @escaping () -> Void) -> any DispatchSourceTimer {
        let timer = makeTimerSource(queue: queue)
        timer.setEventHandler(handler: handler)
        timer.resume()
        return timer
    }
}
