import LocalizationCore
import Synchronization

extension Daemon {
    /// What makes the daemon degraded, one sentence each for `status`'s `problems`, the
    /// `STATUS=` line and the log: a resource root that is not there, or no language served.
    /// Empty when healthy.
    func problems() -> [String] {
        let missingRoots =
            startedParts.withLock { $0.watcher }?.statistics.missingRoots
            ?? ResourceRootProblem.missing(in: store.roots).map(\.path)
        var problems = missingRoots.map { root in
            switch ResourceRootProblem.missing(in: [root]).first {
            case .notADirectory?: "resource root \(root) is not a directory (fix resources=)"
            case .permissionDenied?:
                "resource root \(root) cannot be reached: permission denied (\(ResourceRootProblem.permissionHint))"
            default: "resource root \(root) does not exist (create it, or fix resources=)"
            }
        }
        if store.snapshot.catalog.languages.isEmpty {
            problems.append(
                "no language is served: no xx.lproj folder or .xcstrings file under \(store.roots.joined(separator: ", "))"
            )
        }
        return problems
    }
}
