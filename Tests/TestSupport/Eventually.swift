public import Foundation

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass; whether it held.
///
/// For states a test cannot be told about by an event (a value served, an error listed in
/// `status`): it waits as long as needed and no longer, where a fixed sleep would be too
/// short on a loaded machine and too long on an idle one.
public func eventually(_ timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
