import CInotifyTools
package import Dispatch
import Foundation
import LocalizationSockets
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Directory events from the kernel's inotify, through libinotifytools.
///
/// libinotifytools keeps one global state per process, exposes no descriptor and is not
/// thread-safe, so every source in the process shares one dedicated owner thread that alone
/// calls into the library. The thread waits in `inotifytools_next_event(1)` (one event at a
/// time: asking for more makes the library busy-spin), copies each event into a
/// `FileSystemEvent` at once (the library's buffer is static) and hands it to the subscribing
/// source's serial delivery queue. Requests to add or remove watches are queued under a lock
/// and the owner thread is woken to run them: it watches a private, already unlinked file
/// and touching that file's timestamps produces an event, so a request waits microseconds,
/// not the one-second timeout.
///
/// This is the only file that calls libinotifytools (`CInotifyTools`).
///
/// ```swift
/// try InotifyEventSource.prepare()          // early, before the process opens many files
/// let source = InotifyEventSource()
/// try source.start { events in print(events) }
/// _ = source.addWatches(["/srv/l10n/Resources"])
/// ```
package final class InotifyEventSource: FileSystemEventSource {
    /// Events waiting for delivery per source before the rest are dropped and an overflow reported.
    ///
    /// Keeps memory bounded when the consumer stalls; the kernel's own queue is bounded too.
    package static let maximumPendingEvents = 65_536

    private let subscriberID: Int
    private let deliveryQueue: DispatchQueue
    private let started = Mutex(false)
    private let watchLimitFile: String?

    /// Creates a source whose handler runs on its own serial queue, targeting `target` if given.
    ///
    /// - Parameter watchLimitFile: For tests only: a file holding a number that stands in
    ///   for `/proc/sys/fs/inotify/max_user_watches`, read at each `addWatches`. Once this
    ///   source holds that many watches, a new one fails as the kernel fails it, with
    ///   `ENOSPC`. The real limit is one value for every user of the machine, so a test
    ///   lowering it would break every other inotify user there; this is the one thing the
    ///   tests cannot do for real.
    package init(target: DispatchQueue? = nil, watchLimitFile: String? = nil) {
        subscriberID = InotifyOwnerThread.shared.makeSubscriberID()
        deliveryQueue = DispatchQueue(label: "l10nd.inotify.delivery", target: target)
        self.watchLimitFile = watchLimitFile
    }

    deinit {
        stop()
    }

    /// Starts the shared owner thread and initialises libinotifytools, if not done yet.
    ///
    /// Call it early in `main`: the library waits with `select()`, which cannot handle a
    /// descriptor numbered 1024 or above, so its inotify descriptor must be opened while
    /// descriptor numbers are still low.
    package static func prepare() throws {
        try InotifyOwnerThread.shared.ensureRunning()
    }

    /// Begins delivering events to `handler` on this source's serial delivery queue.
    package func start(handler: @escaping @Sendable ([FileSystemEvent]) -> Void) throws {
        try InotifyOwnerThread.shared.ensureRunning()
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        InotifyOwnerThread.shared.subscribe(subscriberID, queue: deliveryQueue, handler: handler)
    }

    /// Watches each directory for `interest`; blocks until the owner thread has added the watches.
    package func addWatches(
        _ directories: [String], interest: WatchInterest
    ) -> [Result<WatchDescriptor, FileSystemWatchError>] {
        guard started.withLock({ $0 }) else {
            return directories.map { path in
                .failure(
                    FileSystemWatchError(
                        code: .notRunning, path: path,
                        message: "cannot watch \(path): the inotify source is not started"))
            }
        }
        if directories.isEmpty { return [] }
        let limit = watchLimitFile.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return InotifyOwnerThread.shared.addWatches(
            directories, interest: interest, for: subscriberID, testLimit: limit)
    }

    /// Stops watching the directory behind `watch`, unless another source still watches it.
    package func removeWatch(_ watch: WatchDescriptor) {
        guard started.withLock({ $0 }) else { return }
        InotifyOwnerThread.shared.removeWatch(watch.rawValue, for: subscriberID)
    }

    /// Stops delivery and drops this source's watches; the shared owner thread keeps running.
    package func stop() {
        let wasStarted = started.withLock { started in
            defer { started = false }
            return started
        }
        if wasStarted {
            InotifyOwnerThread.shared.unsubscribe(subscriberID)
        }
    }
}

/// A value one thread hands to another that waits for it.
private final class Handoff<Value: Sendable>: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let slot = Mutex<Value?>(nil)

    func fulfil(_ value: Value) {
        slot.withLock { $0 = value }
        semaphore.signal()
    }

    func wait() -> Value {
        semaphore.wait()
        return slot.withLock { $0! }
    }
}

/// The process's single owner of libinotifytools' global state.
private final class InotifyOwnerThread: Sendable {
    static let shared = InotifyOwnerThread()

    /// The events a watch for files asks for. `IN_ONLYDIR`: directories only, by design.
    /// `IN_MODIFY` tells the watcher a file is being written, so it is not read until closed.
    static let watchMask = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB | IN_MODIFY
            | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR
    )
    /// The events a watch for names alone asks for (a root's parent): names coming and going,
    /// nothing of what is written beside them.
    static let namesMask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ONLYDIR)
    /// Events that are never dropped for their name: they are about the watch itself.
    static let aboutTheWatch = UInt32(IN_IGNORED | IN_Q_OVERFLOW | IN_UNMOUNT | IN_DELETE_SELF | IN_MOVE_SELF)

    private enum Request: Sendable {
        case add(
            [String], interest: WatchInterest, subscriber: Int, testLimit: Int?,
            reply: Handoff<[Result<WatchDescriptor, FileSystemWatchError>]>)
        case remove(Int32, subscriber: Int)
        case unsubscribe(Int, reply: Handoff<Bool>)
    }

    private struct Subscriber {
        var queue: DispatchQueue
        var handler: @Sendable ([FileSystemEvent]) -> Void
        var pending: [FileSystemEvent] = []
        var droppedEvents = 0
        var drainScheduled = false
    }

    /// State any thread may touch, always briefly, never while calling into the library.
    private struct Shared {
        var requests: [Request] = []
        var wakePending = false
        var wakeDescriptor: Int32 = -1
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriberID = 0
    }

    /// Tables only the owner thread touches; in a mutex only so the compiler can check that.
    private struct OwnerTables {
        var inotifyDescriptor: Int32 = -1
        var wakeWatch: Int32 = -1
        var subscribersByWatch: [Int32: Set<Int>] = [:]
        /// What each subscriber watches each directory for (``WatchInterest``).
        var interests: [Int32: [Int: WatchInterest]] = [:]
        /// Entries of a watched directory that are links to watched directories: an event for
        /// one without `IN_ISDIR` (it is gone, or re-pointed) must still pass.
        var linkNames: [Int32: Set<String>] = [:]
        var pathByWatch: [Int32: String] = [:]
        /// Subscribers that removed a watch and wait for its IN_IGNORED.
        var releasing: [Int32: Set<Int>] = [:]
    }

    private enum Phase {
        case idle
        case running
        case failed(FileSystemWatchError)
    }

    private let shared = Mutex(Shared())
    /// Where the owner thread puts the path of an entry together to `lstat` it, allocated once.
    private nonisolated(unsafe) let pathBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(PATH_MAX))
    private let tables = Mutex(OwnerTables())
    private let phase = Mutex(Phase.idle)

    func makeSubscriberID() -> Int {
        shared.withLock { state in
            state.nextSubscriberID += 1
            return state.nextSubscriberID
        }
    }

    func ensureRunning() throws {
        // Holding `phase` while the thread starts makes concurrent callers wait for the one start.
        try phase.withLock { phase in
            switch phase {
            case .running: return
            case .failed(let error): throw error
            case .idle:
                let startup = Handoff<FileSystemWatchError?>()
                let thread = Thread { [self] in run(startup: startup) }
                thread.name = "l10nd-inotify"
                thread.start()
                if let error = startup.wait() {
                    phase = .failed(error)
                    throw error
                }
                phase = .running
            }
        }
    }

    func subscribe(_ id: Int, queue: DispatchQueue, handler: @escaping @Sendable ([FileSystemEvent]) -> Void) {
        shared.withLock { $0.subscribers[id] = Subscriber(queue: queue, handler: handler) }
    }

    func addWatches(
        _ paths: [String], interest: WatchInterest, for subscriber: Int, testLimit: Int?
    ) -> [Result<WatchDescriptor, FileSystemWatchError>] {
        let reply = Handoff<[Result<WatchDescriptor, FileSystemWatchError>]>()
        submit(.add(paths, interest: interest, subscriber: subscriber, testLimit: testLimit, reply: reply))
        return reply.wait()
    }

    func removeWatch(_ watch: Int32, for subscriber: Int) {
        submit(.remove(watch, subscriber: subscriber))
    }

    func unsubscribe(_ subscriber: Int) {
        let reply = Handoff<Bool>()
        submit(.unsubscribe(subscriber, reply: reply))
        _ = reply.wait()
    }

    // MARK: - Any thread → owner thread

    private func submit(_ request: Request) {
        let wake: Int32? = shared.withLock { state in
            state.requests.append(request)
            guard !state.wakePending else { return nil }
            state.wakePending = true
            return state.wakeDescriptor
        }
        // Touching the unlinked wake file raises IN_ATTRIB on its watch and ends the wait.
        if let wake, wake >= 0 {
            _ = futimens(wake, nil)
        }
    }

    // MARK: - Owner thread

    private func run(startup: Handoff<FileSystemWatchError?>) {
        func fail(_ message: String) {
            startup.fulfil(FileSystemWatchError(code: .unavailable, path: nil, message: message))
        }
        let before = Self.inotifyDescriptors()
        guard inotifytools_initialize() != 0 else {
            let code = inotifytools_error()
            let hint = code == EMFILE ? " (raise fs.inotify.max_user_instances)" : ""
            return fail("cannot initialise inotify: \(String(cString: strerror(code)))\(hint)")
        }
        let created = Self.inotifyDescriptors().subtracting(before)
        guard created.count == 1, let descriptor = created.first else {
            return fail("cannot find libinotifytools' inotify descriptor in /proc/self/fd")
        }
        guard descriptor < 1024 else {
            return fail(
                "libinotifytools' inotify descriptor is \(descriptor); select() cannot wait on descriptors above 1023, so prepare the watcher earlier"
            )
        }
        guard let (wakeFile, wakeWatch) = Self.makeWakeFile(inotify: descriptor) else {
            return fail("cannot create the watcher's wake file: \(String(cString: strerror(errno)))")
        }
        tables.withLock { tables in
            tables.inotifyDescriptor = descriptor
            tables.wakeWatch = wakeWatch
        }
        shared.withLock { $0.wakeDescriptor = wakeFile }
        startup.fulfil(nil)
        loop()
    }

    private func loop() {
        while true {
            runRequests()
            guard let raw = inotifytools_next_event(1) else {
                let code = inotifytools_error()
                if code != 0 && code != EINTR {
                    // A persistent error must not turn this loop into a busy spin.
                    usleep(100_000)
                }
                continue
            }
            let watch = raw.pointee.wd
            let mask = raw.pointee.mask
            let cookie = raw.pointee.cookie
            // Dropped here, before any allocation, when no subscriber watches for it: a busy
            // neighbour writes a thousand files a second (chaos 3).
            guard wanted(watch: watch, mask: mask, name: l10nd_inotify_event_name(raw)) else { continue }
            let name = String(cString: l10nd_inotify_event_name(raw))
            route(watch: watch, mask: mask, cookie: cookie, name: name)
        }
    }

    private func runRequests() {
        let requests = shared.withLock { state in
            state.wakePending = false
            defer { state.requests.removeAll() }
            return state.requests
        }
        for request in requests {
            switch request {
            case .add(let paths, let interest, let subscriber, let testLimit, let reply):
                guard let testLimit else {
                    reply.fulfil(paths.map { add($0, interest: interest, for: subscriber) })
                    break
                }
                // As in the kernel, watching a directory again takes no new watch.
                var (held, watched) = tables.withLock { tables in
                    let mine = tables.subscribersByWatch.filter { $0.value.contains(subscriber) }.map(\.key)
                    return (mine.count, Set(mine.compactMap { tables.pathByWatch[$0] }))
                }
                reply.fulfil(
                    paths.map { path in
                        guard held < testLimit || watched.contains(path) else {
                            return .failure(watchFailure(code: ENOSPC, path: path, limit: Int32(testLimit)))
                        }
                        let result = add(path, interest: interest, for: subscriber)
                        if case .success = result, watched.insert(path).inserted { held += 1 }
                        return result
                    })
            case .remove(let watch, let subscriber):
                release(watch, from: subscriber)
            case .unsubscribe(let subscriber, let reply):
                let watches = tables.withLock { tables in
                    tables.subscribersByWatch.filter { $0.value.contains(subscriber) }.map(\.key)
                }
                for watch in watches { release(watch, from: subscriber) }
                shared.withLock { _ = $0.subscribers.removeValue(forKey: subscriber) }
                reply.fulfil(true)
            }
        }
    }

    private func add(
        _ path: String, interest: WatchInterest, for subscriber: Int
    ) -> Result<WatchDescriptor, FileSystemWatchError> {
        // IN_MASK_ADD: a directory watched for several reasons gets every event each needs.
        let mask = (interest.needsFileEvents ? Self.watchMask : Self.namesMask) | UInt32(IN_MASK_ADD)
        // The library records the name (for inotifytools_filename_from_wd) but returns only
        // 1 or 0, and maps a re-created directory's name to its old, dead descriptor. Adding
        // the same watch on its descriptor again is idempotent and returns the kernel's
        // descriptor for whatever is at `path` now, which is the one to trust.
        if inotifytools_watch_file(path, Int32(bitPattern: mask)) == 0 {
            return .failure(watchFailure(code: inotifytools_error(), path: path))
        }
        let descriptor = tables.withLock { $0.inotifyDescriptor }
        let watch = inotify_add_watch(descriptor, path, mask)
        guard watch >= 0 else { return .failure(watchFailure(code: errno, path: path)) }
        var info = stat()
        let isLink = lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        tables.withLock { tables in
            tables.subscribersByWatch[watch, default: []].insert(subscriber)
            tables.interests[watch, default: [:]][subscriber, default: WatchInterest()].formUnion(interest)
            tables.pathByWatch[watch] = path
            let parent = (path as NSString).deletingLastPathComponent
            if isLink, let parentWatch = tables.pathByWatch.first(where: { $0.value == parent })?.key {
                tables.linkNames[parentWatch, default: []].insert((path as NSString).lastPathComponent)
            }
        }
        return .success(WatchDescriptor(rawValue: watch))
    }

    /// The error for a failed `inotify_add_watch`. It is only returned: the watcher keeps
    /// the directory on its list of unwatched ones, retries and polls it. (Asking for a full
    /// rescan here made every failure repeat itself, without end.)
    private func watchFailure(code: Int32, path: String, limit: Int32? = nil) -> FileSystemWatchError {
        switch code {
        case ENOENT:
            return .init(code: .notFound, path: path, message: "cannot watch \(path): it does not exist")
        case ENOTDIR:
            return .init(code: .notDirectory, path: path, message: "cannot watch \(path): not a directory")
        case EACCES:
            return .init(code: .permissionDenied, path: path, message: "cannot watch \(path): permission denied")
        case ENOSPC:
            let limit = limit ?? inotifytools_get_max_user_watches()
            return .init(
                code: .watchLimitReached, path: path,
                message:
                    "cannot watch \(path): this user's inotify watch limit is reached (fs.inotify.max_user_watches = \(limit)); raise it, e.g. `sysctl -w fs.inotify.max_user_watches=\(max(Int(limit) * 2, 524_288))`"
            )
        case EMFILE, ENFILE:
            return .init(
                code: .descriptorsExhausted, path: path,
                message: "cannot watch \(path): \(String(cString: strerror(code))) (raise LimitNOFILE or ulimit -n)")
        default:
            return .init(code: .other, path: path, message: "cannot watch \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Drops `subscriber`'s interest in `watch`; the kernel watch goes when nobody is left.
    ///
    /// The subscriber gets its `.watchRemoved` either at once (others still watch the
    /// directory) or when the kernel confirms with IN_IGNORED.
    private func release(_ watch: Int32, from subscriber: Int) {
        enum Outcome { case notWatched, stillShared, lastOne(Int32) }
        let outcome = tables.withLock { tables -> Outcome in
            guard var subscribers = tables.subscribersByWatch[watch],
                subscribers.remove(subscriber) != nil
            else { return .notWatched }
            tables.subscribersByWatch[watch] = subscribers
            tables.interests[watch]?[subscriber] = nil
            guard subscribers.isEmpty else { return .stillShared }
            // Keep the (now empty) entry until IN_IGNORED: events queued before the removal
            // still arrive and must not look like an unknown descriptor.
            tables.releasing[watch, default: []].insert(subscriber)
            return .lastOne(tables.inotifyDescriptor)
        }
        switch outcome {
        case .notWatched:
            break
        case .stillShared:
            deliver(FileSystemEvent(watch: WatchDescriptor(rawValue: watch), mask: .watchRemoved), to: [subscriber])
        case .lastOne(let descriptor):
            // Removed on the descriptor directly, not through inotifytools_remove_watch_by_wd:
            // when the directory is already gone the library prints to stderr and keeps its
            // entry anyway. Its stale name entries are never consulted: `pathByWatch` is.
            _ = inotify_rm_watch(descriptor, watch)
        }
    }

    private func route(watch: Int32, mask: UInt32, cookie: UInt32, name: String) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            let limit = inotifytools_get_max_queued_events()
            broadcast(
                .queueOverflow(
                    "the kernel's inotify queue overflowed (fs.inotify.max_queued_events = \(limit)); events were lost")
            )
            return
        }
        let ignored = mask & UInt32(IN_IGNORED) != 0
        let lookup = tables.withLock { tables -> (wake: Bool, subscribers: Set<Int>?, path: String?) in
            if watch == tables.wakeWatch { return (true, nil, nil) }
            var subscribers = tables.subscribersByWatch[watch]
            let path = tables.pathByWatch[watch]
            if ignored {
                subscribers = subscribers.map { $0.union(tables.releasing[watch] ?? []) }
                tables.subscribersByWatch[watch] = nil
                tables.pathByWatch[watch] = nil
                tables.releasing[watch] = nil
                tables.interests[watch] = nil
                tables.linkNames[watch] = nil
            } else if mask & Self.aboutTheWatch == 0, let interests = tables.interests[watch] {
                // A subscriber hears only what it watches for (the name passed for another).
                let isDirectory = mask & UInt32(bitPattern: IN_ISDIR) != 0
                subscribers = subscribers?.filter { subscriber in
                    interests[subscriber].map { $0.accepts(name: name, isDirectory: isDirectory) { true } } ?? true
                }
            }
            return (false, subscribers, path)
        }
        if lookup.wake { return }
        guard let subscribers = lookup.subscribers else {
            if !ignored {
                broadcast(
                    .needsRescan("event for unknown watch descriptor \(watch)", watch: WatchDescriptor(rawValue: watch))
                )
            }
            return
        }
        if subscribers.isEmpty { return }
        let directory =
            lookup.path ?? inotifytools_filename_from_wd(watch).map { Self.trimmingSlash(String(cString: $0)) }
        let event = FileSystemEvent(
            watch: WatchDescriptor(rawValue: watch), mask: Self.translate(mask), cookie: cookie,
            name: name, directory: directory)
        deliver(event, to: subscribers)
    }

    /// Whether any subscriber watches `watch` for this event; an unknown watch's events pass
    /// (``route(watch:mask:cookie:name:)`` reports them). Allocates nothing.
    private func wanted(watch: Int32, mask: UInt32, name: UnsafePointer<CChar>) -> Bool {
        if mask & Self.aboutTheWatch != 0 { return true }
        // Copies of the entries (no allocation: they share their storage).
        let (interests, directory, links) = tables.withLock { tables in
            (tables.interests[watch], tables.pathByWatch[watch], tables.linkNames[watch])
        }
        guard let interests else { return true }
        let length = strlen(name)
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self), count: length)
        let isDirectory = mask & UInt32(bitPattern: IN_ISDIR) != 0
        return interests.values.contains { interest in
            interest.accepts(name: bytes, isDirectory: isDirectory) {
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    return Self.isLink(name, length: length, in: directory, buffer: pathBuffer)
                }
                return links?.contains { $0.utf8.elementsEqual(bytes) } ?? false
            }
        }
    }

    /// Whether `directory`/`name` is a symbolic link; put together in `buffer`, not allocated.
    /// True when the path cannot be put together (too long): passing an event is safe,
    /// dropping one is not.
    private static func isLink(
        _ name: UnsafePointer<CChar>, length: Int, in directory: String?, buffer: UnsafeMutablePointer<CChar>
    ) -> Bool {
        guard var directory else { return true }
        let fits = directory.withUTF8 { path -> Bool in
            guard path.count + 1 + length < Int(PATH_MAX), let base = path.baseAddress else { return false }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: path.count)
            buffer[path.count] = CChar(UInt8(ascii: "/"))
            (buffer + path.count + 1).update(from: name, count: length + 1)
            return true
        }
        guard fits else { return true }
        // Gone already: nothing to follow, and the watcher would find nothing there either.
        var info = stat()
        return lstat(buffer, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    private func broadcast(_ event: FileSystemEvent) {
        let everyone = shared.withLock { Set($0.subscribers.keys) }
        deliver(event, to: everyone)
    }

    private func deliver(_ event: FileSystemEvent, to subscribers: Set<Int>) {
        let drains: [(Int, DispatchQueue)] = shared.withLock { state in
            var drains: [(Int, DispatchQueue)] = []
            for id in subscribers {
                guard var subscriber = state.subscribers[id] else { continue }
                if subscriber.pending.count < InotifyEventSource.maximumPendingEvents {
                    subscriber.pending.append(event)
                } else {
                    subscriber.droppedEvents += 1
                }
                if !subscriber.drainScheduled {
                    subscriber.drainScheduled = true
                    drains.append((id, subscriber.queue))
                }
                state.subscribers[id] = subscriber
            }
            return drains
        }
        for (id, queue) in drains {
            queue.async { [self] in drain(id) }
        }
    }

    private func drain(_ id: Int) {
        let batch = shared.withLock {
            state -> (events: [FileSystemEvent], dropped: Int, handler: (@Sendable ([FileSystemEvent]) -> Void))? in
            guard var subscriber = state.subscribers[id] else { return nil }
            let taken = (subscriber.pending, subscriber.droppedEvents, subscriber.handler)
            subscriber.pending = []
            subscriber.droppedEvents = 0
            subscriber.drainScheduled = false
            state.subscribers[id] = subscriber
            return taken
        }
        guard let batch else { return }
        var events = batch.events
        if batch.dropped > 0 {
            events.append(.queueOverflow("\(batch.dropped) events were dropped because the consumer fell behind"))
        }
        if !events.isEmpty { batch.handler(events) }
    }

    // MARK: - Helpers

    private static func translate(_ mask: UInt32) -> FileSystemEvent.Mask {
        let pairs: [(Int32, FileSystemEvent.Mask)] = [
            (IN_CREATE, .created), (IN_DELETE, .deleted), (IN_MOVED_FROM, .movedFrom),
            (IN_MOVED_TO, .movedTo), (IN_CLOSE_WRITE, .closedAfterWrite), (IN_ATTRIB, .attributesChanged),
            (IN_MODIFY, .modified), (IN_DELETE_SELF, .deletedSelf), (IN_MOVE_SELF, .movedSelf),
            (IN_UNMOUNT, .unmounted), (IN_IGNORED, .watchRemoved), (IN_Q_OVERFLOW, .queueOverflow),
        ]
        var result: FileSystemEvent.Mask = []
        for (bit, flag) in pairs where mask & UInt32(bit) != 0 { result.insert(flag) }
        if mask & UInt32(bitPattern: IN_ISDIR) != 0 { result.insert(.isDirectory) }
        return result
    }

    private static func trimmingSlash(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Descriptors in this process that are inotify instances.
    private static func inotifyDescriptors() -> Set<Int32> {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(
            entries.compactMap { entry in
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")
                return target == "anon_inode:inotify" ? Int32(entry) : nil
            })
    }

    /// Creates a temporary file, watches it for IN_ATTRIB, unlinks it and keeps it open.
    ///
    /// The open descriptor keeps the inode (and so the watch) alive, and nothing is left
    /// behind in the file system when the process ends.
    private static func makeWakeFile(inotify: Int32) -> (file: Int32, watch: Int32)? {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/l10nd-inotify-wake-XXXXXX".utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else { return nil }
        let owned = FileDescriptor(adopting: file)
        _ = fcntl(file, F_SETFD, FD_CLOEXEC)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let watch = inotify_add_watch(inotify, path, UInt32(IN_ATTRIB))
        unlink(path)
        guard watch >= 0 else { return nil }
        // Open for the rest of the process, as the owner thread that touches it runs.
        return (owned.take(), watch)
    }
}
