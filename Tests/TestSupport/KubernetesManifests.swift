public import Foundation

/// The Kubernetes kit under `deploy/kubernetes` (a kustomize base and overlays), rendered by
/// `kubectl kustomize` as an operator renders it, and read as the API server would read it:
/// YAML parsed by PyYAML (Debian's python3-yaml), each document as a JSON object.
public enum KubernetesManifests {
    /// Where the kit is.
    public static var directory: String { PackagePaths.root + "/deploy/kubernetes" }

    /// The overlays, each a complete deployment: `deploy/kubernetes/overlays/NAME`.
    public static let overlays = ["sidecar", "daemonset", "git-sync"]

    /// `kubectl`, when installed (`kubectl kustomize` renders offline).
    public static let kubectl: String? = ["/usr/bin/kubectl", "/usr/local/bin/kubectl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// `overlay` rendered by `kubectl kustomize`, as YAML.
    public static func render(_ overlay: String) throws -> String {
        guard let kubectl else { throw Unreadable(description: "kubectl is not installed") }
        let result = try ProcessRunner.run(kubectl, ["kustomize", directory + "/overlays/" + overlay], timeout: 60)
        guard result.status == 0 else { throw Unreadable(description: "\(overlay): \(result.stderr)") }
        return result.stdout
    }

    /// Every document of the YAML file at `path`.
    public static func documents(in path: String) throws -> [[String: Any]] {
        let script = "import json, sys, yaml; json.dump(list(yaml.safe_load_all(open(sys.argv[1]))), sys.stdout)"
        let result = try ProcessRunner.run("/usr/bin/python3", ["-c", script, path])
        guard result.status == 0,
            let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any]
        else { throw Unreadable(description: "\(path): \(result.stderr)") }
        return parsed.compactMap { $0 as? [String: Any] }
    }

    /// Every document of `overlay` rendered.
    public static func rendered(_ overlay: String) throws -> [[String: Any]] {
        let directory = try TemporaryDirectory(prefix: "l10nd-kustomize")
        return try documents(in: try directory.write(try render(overlay), to: overlay + ".yaml"))
    }

    /// A manifest that could not be rendered or read.
    public struct Unreadable: Error, CustomStringConvertible {
        /// The overlay or file, and the tool's message.
        public let description: String
    }
}
