import Dispatch
import Foundation

/// Work run on a thread of its own, its result collected with ``value(timeout:)``: a thread
/// that is surely another one, and outside Swift's cooperative pool, which a test blocked in
/// `poll` or `recvmsg` could otherwise leave with no thread to run the work on.
final class OtherThread<Value: Sendable>: @unchecked Sendable {
    // `result` is written once before `done` is signalled and read only after waiting for it.
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Value, any Error>?

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            result = Result { try body() }
            done.signal()
        }
    }

    /// What `body` returned or threw, waiting at most `timeout` seconds for it.
    func value(timeout: Double = 30) throws -> Value {
        guard done.wait(timeout: .now() + timeout) == .success else {
            throw CocoaError(.executableLoad, userInfo: [NSDebugDescriptionErrorKey: "no result within \(timeout) s"])
        }
        return try result!.get()
    }
}
