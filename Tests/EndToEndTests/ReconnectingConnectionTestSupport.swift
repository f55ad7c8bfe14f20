import TestSupport

@testable import Localization

extension DaemonProcess {
    /// A started client connection on this daemon: 10 s time limit, no subscription,
    /// reconnecting after 50 ms at first. The caller closes it.
    func startedClientConnection() -> ReconnectingConnection {
        let connection = ReconnectingConnection(
            socketPath: socketPath, timeout: 10, subscribe: false, reconnectDelay: 0.05...1, onEvent: { _ in })
        connection.start()
        return connection
    }
}
