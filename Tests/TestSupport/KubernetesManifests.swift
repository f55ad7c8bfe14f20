public import Foundation

/// The Kubernetes manifests under `deploy/kubernetes`, read as the API server would read
/// them: YAML parsed by PyYAML (Debian's python3-yaml), each document as a JSON object.
public enum KubernetesManifests {
    /// Where the manifests are.
    public static var directory: String { PackagePaths.root + "/deploy/kubernetes" }

    /// The `.yaml` files, sorted.
    public static func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }.sorted()
            .map { directory + "/" + $0 }
    }

    /// Every document of `path`.
    public static func documents(in path: String) throws -> [[String: Any]] {
        let script = "import json, sys, yaml; json.dump(list(yaml.safe_load_all(open(sys.argv[1]))), sys.stdout)"
        let result = try ProcessRunner.run("/usr/bin/python3", ["-c", script, path])
        guard result.status == 0,
            let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any]
        else { throw Unreadable(description: "\(path): \(result.stderr)") }
        return parsed.compactMap { $0 as? [String: Any] }
    }

    /// Every document of every manifest, with the file it came from.
    public static func all() throws -> [(file: String, object: [String: Any])] {
        try files().flatMap { file in try documents(in: file).map { (file, $0) } }
    }

    /// A manifest PyYAML could not read.
    public struct Unreadable: Error, CustomStringConvertible {
        /// The file and PyYAML's message.
        public let description: String
    }
}
