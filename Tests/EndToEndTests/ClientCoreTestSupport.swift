import TestSupport

@testable import Localization

extension DaemonProcess {
    /// A started client core on this daemon: 10 s time limit, no subscription, reconnecting
    /// after 50 ms at first. The caller closes it.
    func startedClientCore() -> ClientCore {
        let core = ClientCore(
            socketPath: socketPath, timeout: 10, subscribe: false, reconnectDelay: 0.05...1, onEvent: { _ in })
        core.start()
        return core
    }
}
