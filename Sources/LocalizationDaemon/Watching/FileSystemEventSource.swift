/// Where directory change events come from: the inotify backend in the daemon, a fake in tests.
///
/// The contract the `ResourceWatcher` relies on:
/// - `addWatches` returns only once each watch is in place, so a scan started afterwards
///   cannot miss a file (watch first, then scan).
/// - Events for a descriptor returned by `addWatches` are delivered after that call returns,
///   in order, to the handler given to `start`, on the source's delivery queue.
/// - A descriptor stays meaningful until an event with `.watchRemoved` arrives for it.
/// - Lost events are reported, never silently dropped: `.queueOverflow` or `.needsRescan`.
///
/// ```swift
/// let source = InotifyEventSource()
/// try source.start { events in for event in events { print(event) } }
/// let results = source.addWatches(["/srv/l10n/ja.lproj"])
/// ```
package protocol FileSystemEventSource: AnyObject, Sendable {
    /// Begins delivering events to `handler`, in batches, in the order they happened.
    func start(handler: @escaping @Sendable ([FileSystemEvent]) -> Void) throws

    /// Watches each directory (never a single file) for `interest` and returns, in order, its
    /// descriptor or why not.
    ///
    /// Blocks until the watches are in place. Watching a directory that is already watched
    /// returns its existing descriptor, which then serves both interests. Events no interest
    /// needs may be dropped by the source.
    func addWatches(_ directories: [String], interest: WatchInterest) -> [Result<WatchDescriptor, FileSystemWatchError>]

    /// Stops watching; a `.watchRemoved` event for the descriptor follows.
    func removeWatch(_ watch: WatchDescriptor)

    /// Stops delivering events and drops every watch this source added. Idempotent.
    func stop()
}

extension FileSystemEventSource {
    /// Watches each directory for every event (``WatchInterest/everything``).
    package func addWatches(_ directories: [String]) -> [Result<WatchDescriptor, FileSystemWatchError>] {
        addWatches(directories, interest: .everything)
    }
}
