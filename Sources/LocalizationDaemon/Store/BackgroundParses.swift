import Dispatch
import LocalizationCore
import Synchronization

/// Parses of large files, run off the reload queue: a small edit saved while a big String
/// Catalog is parsed is served at once, not after the catalog.
///
/// Per path, at most one parse runs and at most one waits behind it, holding the newest bytes
/// read (a newer save replaces the waiting one: its content is gone from the disk anyway). A
/// finished parse is kept until the store has applied it or read something newer; each
/// carries the number of the read that got its bytes (``ResourceStore/LoadedFile/read``), so
/// the store never applies one over a table read after it. `whenParsed` is told the path
/// when a parse finishes, to refresh it (``ResourceStore/refreshParsed(_:)``).
final class BackgroundParses: Sendable {
    /// Bytes read from a file, to be parsed.
    struct Job: Sendable {
        let file: ResourceFile
        let fingerprint: Int
        let read: UInt64
        let bytes: [UInt8]
        /// The file as `stat` found it just before the read, when that stamp is settled.
        var stamp: FileStamp? = nil
    }

    private struct Parses {
        var running: Job?
        var waiting: Job?
        var finished: ResourceStore.LoadedFile?
    }

    /// Files this large or larger are parsed here; smaller ones by the refresh itself.
    let minimumBytes: Int
    private let parses = Mutex<[String: Parses]>([:])
    private let queue = DispatchQueue(label: "l10nd.parses", attributes: .concurrent)
    private let parse: @Sendable (Job) -> ResourceStore.LoadedFile
    private let whenParsed: @Sendable (String) -> Void

    init(
        minimumBytes: Int, parse: @escaping @Sendable (Job) -> ResourceStore.LoadedFile,
        whenParsed: @escaping @Sendable (String) -> Void
    ) {
        self.minimumBytes = minimumBytes
        self.parse = parse
        self.whenParsed = whenParsed
    }

    /// The newest finished parse of `job`'s file (of any bytes), having seen to it that
    /// `job`'s bytes are parsed or being parsed, unless that parse is the one returned.
    func finished(after job: Job) -> ResourceStore.LoadedFile? {
        let (finished, start) = parses.withLock { parses -> (ResourceStore.LoadedFile?, Job?) in
            var path = parses[job.file.path, default: Parses()]
            defer { parses[job.file.path] = path }
            if path.finished?.fingerprint == job.fingerprint { return (path.finished, nil) }
            if path.running?.fingerprint == job.fingerprint {
                path.waiting = nil  // the file went back to what is being parsed
            } else if path.running != nil {
                path.waiting = job
            } else {
                path.running = job
                return (path.finished, job)
            }
            return (path.finished, nil)
        }
        if let start { queue.async { self.run(start) } }
        return finished
    }

    /// The read number of the finished parse of `path` the store has yet to take, if any.
    func finishedRead(of path: String) -> UInt64? {
        parses.withLock { $0[path]?.finished?.read }
    }

    /// The finished parse of `path` the store has yet to take, if any.
    func finishedParse(of path: String) -> ResourceStore.LoadedFile? {
        parses.withLock { $0[path]?.finished }
    }

    /// Forgets the finished parse of `path` if it was read at `read` or before: the store
    /// has applied it, or holds (or found) something read after it.
    func settle(_ path: String, upTo read: UInt64) {
        parses.withLock { parses in
            guard var entry = parses[path], let finished = entry.finished, finished.read <= read else { return }
            entry.finished = nil
            parses[path] = entry.running == nil ? nil : entry
        }
    }

    /// Parses `job`, then whatever waits behind it, telling `whenParsed` after each.
    private func run(_ job: Job) {
        var next: Job? = job
        while let job = next {
            let loaded = parse(job)
            next = parses.withLock { parses -> Job? in
                var path = parses[job.file.path, default: Parses()]
                if (path.finished?.read ?? 0) < loaded.read { path.finished = loaded }
                path.running = path.waiting
                path.waiting = nil
                parses[job.file.path] = path
                return path.running
            }
            whenParsed(job.file.path)
        }
    }
}
