import LocalizationCore
import Synchronization

extension Daemon {
    /// What makes the daemon degraded, one sentence each for `status`'s `problems`, the
    /// `STATUS=` line and the log: a resource root that is not there or may not be read, no
    /// root configured, or no language served.
    /// Empty when healthy.
    func problems() -> [String] {
        let roots = store.roots
        // The watcher knows what is gone; a root that is there but may not be listed it
        // watches as it can, and only a look says why it gives nothing.
        let looked = ResourceRootProblem.missing(in: roots)
        let watched = startedParts.withLock { $0.watcher }?.statistics.rootProblems ?? looked
        let unreadable = looked.filter { $0 == .permissionDenied($0.path) && !watched.map(\.path).contains($0.path) }
        var problems = (watched + unreadable).map { problem in
            switch problem {
            case .notADirectory(let root): "resource root \(root) is not a directory (fix resources=)"
            case .permissionDenied(let root):
                "resource root \(root) cannot be reached: permission denied (\(ResourceRootProblem.permissionHint))"
            default: "resource root \(problem.path) does not exist (create it, or fix resources=)"
            }
        }
        if roots.isEmpty {
            problems.append(
                "no resource directory is configured (give resources = DIR in l10nd.conf, or --resources DIR)")
        } else if store.snapshot.segments.languages.isEmpty {
            // Not "no xx.lproj folder" of a root that could not be looked into.
            problems.append(
                problems.isEmpty
                    ? "no language is served: no xx.lproj folder or .xcstrings file under \(roots.joined(separator: ", "))"
                    : "no language is served: the resource roots above give none")
        }
        // Clients connecting to the configured path reach someone else, or no one.
        if let socketError = socketFileState.lastError { problems.append(socketError) }
        return problems
    }
}
