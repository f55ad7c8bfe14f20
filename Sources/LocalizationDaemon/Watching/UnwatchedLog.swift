/// What the log says when directories start going unwatched: the first of a burst at once,
/// the rest of it held and said together when ``window`` has passed, one line per reason.
///
/// A deployment that unpacks 40 folders named like `qaa-x-26.lproj` creates them one by one,
/// each seen in a pass of its own: said per pass, that was 40 warnings in a second. Held, it
/// is the first warning, then "39 more directories are not watched: …" a second later; a
/// steady trickle logs at most a line per reason a second. `status` lists each directory.
///
/// ```swift
/// var log = UnwatchedLog()
/// log.started([odd1], now: t)            // [(.warning, "…/qaa-x-1.lproj: qaa-x-1 is not a language tag …")]
/// log.started([odd2, odd3], now: t + .milliseconds(50))   // []: held
/// log.windowEnded(now: t + .seconds(1))  // [(.warning, "2 more directories are not watched: …")]
/// ```
struct UnwatchedLog: Sendable {
    /// How long a burst's later directories are held before they are said together.
    static let window: Duration = .seconds(1)
    /// How many directories of one reason are named one a line; more make one line.
    static let listedOneALine = 3

    /// When the window open now ends; nil when no burst is on.
    private(set) var windowEnd: ContinuousClock.Instant?
    /// The directories found while the window was open, not said yet.
    private var held: [UnwatchedDirectory] = []

    /// The lines to log now for `directories`, found unwatched at `now`: all of them when no
    /// burst is on (and one starts), none while one is (they are held).
    mutating func started(_ directories: [UnwatchedDirectory], now: ContinuousClock.Instant) -> [(
        level: LogLevel, message: String
    )] {
        guard !directories.isEmpty else { return [] }
        if let end = windowEnd, now < end {
            held += directories
            return []
        }
        windowEnd = now + Self.window
        return Self.lines(for: directories, more: false)
    }

    /// The lines for what was held when the window ended at `now`; a new window opens when
    /// there were any (the burst goes on), else the burst is over.
    mutating func windowEnded(now: ContinuousClock.Instant) -> [(level: LogLevel, message: String)] {
        let said = held
        held = []
        windowEnd = said.isEmpty ? nil : now + Self.window
        return Self.lines(for: said, more: true)
    }

    /// Whatever is held, said now (the watcher stops): nothing found is left unsaid.
    mutating func flush() -> [(level: LogLevel, message: String)] {
        defer {
            held = []
            windowEnd = nil
        }
        return Self.lines(for: held, more: true)
    }

    /// One line a directory, or one line per reason when more than a few share it. `more`:
    /// they follow a line already logged in the same burst.
    static func lines(for directories: [UnwatchedDirectory], more: Bool) -> [(level: LogLevel, message: String)] {
        let pollNote =
            "; polled every \(Int(UnwatchedDirectories.pollInterval.components.seconds)) s and retried with backoff"
        var lines: [(level: LogLevel, message: String)] = []
        for (reason, group) in Dictionary(grouping: directories, by: \.reason).sorted(by: {
            $0.key.rawValue < $1.key.rawValue
        }) {
            let level: LogLevel = reason == .tooDeep || group[0].isSkippedByName ? .warning : .error
            let note = group[0].polled ? pollNote : ""
            if group.count <= listedOneALine {
                lines += group.map { (level, $0.message + note) }
            } else {
                let count = "\(group.count)\(more ? " more" : "")"
                lines.append(
                    (
                        level,
                        "\(count) \(group.contains(where: \.isFile) ? "entries" : "directories") are not watched "
                            + "(\(reason.rawValue)): \(group[0].message) "
                            + "(and \(group.count - 1) more; l10nctl status lists each)\(note)"
                    ))
            }
        }
        return lines
    }
}
