import Foundation
import LocalizationDaemon
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A fake `FileSystemEventSource` for `ResourceWatcher` tests: it never touches inotify.
///
/// It hands out increasing watch descriptors per inode-less path, remembers what is watched,
/// and the test injects events with `emit`, so debouncing and bookkeeping are tested
/// deterministically, without the kernel.
final class FakeFileSystemEventSource: FileSystemEventSource {
    private struct State {
        var handler: (@Sendable ([FileSystemEvent]) -> Void)?
        var watches: [String: WatchDescriptor] = [:]
        var next: Int32 = 0
        var removed: [WatchDescriptor] = []
        var failing: [String: FileSystemWatchError.Code] = [:]
        var attempts: [String: Int] = [:]
    }
    private let state = Mutex(State())

    func start(handler: @escaping @Sendable ([FileSystemEvent]) -> Void) throws {
        state.withLock { $0.handler = handler }
    }

    func addWatches(
        _ directories: [String], interest: WatchInterest
    ) -> [Result<WatchDescriptor, FileSystemWatchError>] {
        state.withLock { state in
            directories.map { path in
                state.attempts[path, default: 0] += 1
                if let code = state.failing[path] {
                    return .failure(
                        FileSystemWatchError(code: code, path: path, message: "cannot watch \(path): \(code)"))
                }
                if let existing = state.watches[path] { return .success(existing) }
                state.next += 1
                let watch = WatchDescriptor(rawValue: state.next)
                state.watches[path] = watch
                return .success(watch)
            }
        }
    }

    func removeWatch(_ watch: WatchDescriptor) {
        state.withLock { state in
            state.removed.append(watch)
            state.watches = state.watches.filter { $0.value != watch }
        }
    }

    func stop() {
        state.withLock { $0.handler = nil }
    }

    /// Delivers `events` as if the kernel had reported them.
    func emit(_ events: [FileSystemEvent]) {
        let handler = state.withLock { $0.handler }
        handler?(events)
    }

    /// The descriptor handed out for `path`.
    func watch(for path: String) -> WatchDescriptor? {
        state.withLock { $0.watches[path] }
    }

    /// Makes watching `path` fail with `code` from now on (`nil`: succeed again), as the
    /// kernel would for a `chmod 000` (`EACCES`) or the watch limit (`ENOSPC`).
    func fail(_ path: String, with code: FileSystemWatchError.Code?) {
        state.withLock { $0.failing[path] = code }
    }

    /// How many times the watcher asked to watch `path`.
    func attempts(for path: String) -> Int {
        state.withLock { $0.attempts[path] ?? 0 }
    }

    /// Descriptors the watcher asked to remove.
    var removed: [WatchDescriptor] { state.withLock { $0.removed } }
}

/// Collects batches from a watcher's `onChange` and waits, boundedly, for conditions on them.
final class BatchCollector: Sendable {
    private let batches = Mutex<[ChangeBatch]>([])

    func record(_ batch: ChangeBatch) {
        batches.withLock { $0.append(batch) }
    }

    var all: [ChangeBatch] { batches.withLock { $0 } }

    /// Every file reported so far.
    var files: Set<String> { Set(all.flatMap(\.files)) }

    /// Polls `condition` until it holds or `timeout` passes; returns whether it held.
    @discardableResult
    func wait(timeout: Duration = .seconds(10), until condition: ([ChangeBatch]) -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if condition(all) { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition(all)
    }
}
