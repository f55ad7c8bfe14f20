import Foundation
import TestSupport
import Testing

/// deploy/kubernetes: valid for Kubernetes (its own schemas, offline), consistent with
/// itself (every ConfigMap key mapped to its path, every client's `L10N_SOCKET` the socket
/// its daemon listens on, through a shared volume), and a ConfigMap made by
/// scripts/configmap-from-resources, projected as the kubelet projects it, serves what the
/// directory it was made from serves.
@Suite struct DeployManifestTests {
    /// kubernetes-validate, where scripts/validate-manifests installed it.
    static let validator: String? = {
        guard
            let result = try? ProcessRunner.run(PackagePaths.root + "/scripts/validate-manifests", ["--path"]),
            result.status == 0
        else { return nil }
        let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    static let hasPyYAML =
        (try? ProcessRunner.run("/usr/bin/python3", ["-c", "import yaml"]))?.status == 0

    @Test(
        .enabled(
            if: validator != nil,
            "kubernetes-validate is not installed: run scripts/validate-manifests once (it installs it, 22 MB)"))
    func manifestsPassKubernetesSchemasStrictly() throws {
        let generated = try TemporaryDirectory(prefix: "l10nd-configmap-yaml")
        let configMap = try ProcessRunner.run(
            PackagePaths.root + "/scripts/configmap-from-resources", [PackagePaths.exampleResources])
        #expect(configMap.status == 0, "\(configMap.stderr)")
        let generatedPath = try generated.write(configMap.stdout, to: "configmap.yaml")
        let result = try ProcessRunner.run(
            PackagePaths.root + "/scripts/validate-manifests", try KubernetesManifests.files() + [generatedPath],
            timeout: 120)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test(.enabled(if: hasPyYAML, "python3-yaml is not installed (scripts/install-dependencies installs it)"))
    func everyConfigMapVolumeMapsEachKeyToItsPath() throws {
        let manifests = try KubernetesManifests.all()
        let configMap = try #require(manifests.first { $0.object["kind"] as? String == "ConfigMap" }?.object)
        let keys = Set((configMap["data"] as? [String: Any] ?? [:]).keys)
        #expect(keys.contains("ja.lproj_Localizable.strings"))
        var volumesChecked = 0
        for (file, object) in manifests {
            for volume in Self.podSpec(of: object)?["volumes"] as? [[String: Any]] ?? [] {
                guard let source = volume["configMap"] as? [String: Any] else { continue }
                let items = source["items"] as? [[String: String]] ?? []
                #expect(Set(items.compactMap { $0["key"] }) == keys, "\(file): items miss keys")
                for item in items {
                    #expect(item["path"]?.replacing("/", with: "_") == item["key"], "\(file): \(item)")
                }
                volumesChecked += 1
            }
        }
        #expect(volumesChecked == 2, "the DaemonSet and the sidecar Deployment mount the ConfigMap")
    }

    @Test(.enabled(if: hasPyYAML, "python3-yaml is not installed (scripts/install-dependencies installs it)"))
    func everyClientsSocketIsItsDaemonsSocketOnASharedVolume() throws {
        let manifests = try KubernetesManifests.all()
        let daemonSet = try #require(manifests.first { $0.object["kind"] as? String == "DaemonSet" }?.object)
        let daemonSetPod = try #require(Self.podSpec(of: daemonSet))
        let nodeDaemon = try #require(Self.l10ndContainer(in: daemonSetPod))
        var clientsChecked = 0
        for (file, object) in manifests {
            guard let pod = Self.podSpec(of: object), object["kind"] as? String != "DaemonSet" else { continue }
            let sidecar = Self.l10ndContainer(in: pod)
            for container in pod["containers"] as? [[String: Any]] ?? [] {
                let environment = container["env"] as? [[String: Any]] ?? []
                guard
                    let socket = environment.first(where: { $0["name"] as? String == "L10N_SOCKET" })?["value"]
                        as? String
                else { continue }
                let daemon = sidecar ?? nodeDaemon
                #expect(Self.argument("--socket", of: daemon.container) == socket, "\(file): L10N_SOCKET \(socket)")
                let directory = (socket as NSString).deletingLastPathComponent
                let clientVolume = Self.volume(mountedAt: directory, in: container, pod: pod)
                let daemonVolume = Self.volume(mountedAt: directory, in: daemon.container, pod: daemon.pod)
                #expect(clientVolume != nil && daemonVolume != nil, "\(file): \(directory) is not mounted in both")
                if let clientVolume, let daemonVolume {
                    if sidecar != nil {
                        #expect(clientVolume["name"] as? String == daemonVolume["name"] as? String, "\(file)")
                        #expect(
                            clientVolume["emptyDir"] != nil, "\(file): a pod's socket is shared through an emptyDir")
                    } else {
                        let clientPath = (clientVolume["hostPath"] as? [String: Any])?["path"] as? String
                        let daemonPath = (daemonVolume["hostPath"] as? [String: Any])?["path"] as? String
                        #expect(clientPath != nil && clientPath == daemonPath, "\(file): the node's socket directory")
                        // The socket is 0660: the client must be in the daemon's group.
                        let daemonGroup = (daemon.container["securityContext"] as? [String: Any])?["runAsGroup"] as? Int
                        let groups = (pod["securityContext"] as? [String: Any])?["supplementalGroups"] as? [Int] ?? []
                        #expect(
                            daemonGroup != nil && groups.contains(daemonGroup ?? -1),
                            "\(file): not in the socket's group")
                    }
                }
                clientsChecked += 1
            }
        }
        #expect(clientsChecked == 3, "app-on-node, sidecar and git-sync-sidecar each have a client")
    }

    /// The ConfigMap made from Examples/Resources, projected by the kubelet's atomic writer
    /// through the `items` the script prints, is served exactly as the directory is.
    @Test func aGeneratedConfigMapServesWhatItsDirectoryServes() throws {
        let made = try ProcessRunner.run(
            PackagePaths.root + "/scripts/configmap-from-resources", [PackagePaths.exampleResources, "--json"])
        try #require(made.status == 0, "\(made.stderr)")
        let output = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let configMap = try #require(output["configMap"] as? [String: Any])
        let data = configMap["data"] as? [String: String] ?? [:]
        let binary = configMap["binaryData"] as? [String: String] ?? [:]
        var payload: [String: Data] = [:]
        for item in try #require(output["items"] as? [[String: String]]) {
            let key = try #require(item["key"])
            let bytes = try #require(data[key].map { Data($0.utf8) } ?? binary[key].flatMap { Data(base64Encoded: $0) })
            payload[try #require(item["path"])] = bytes
        }
        let volume = try TemporaryDirectory(prefix: "l10nd-configmap")
        try KubeletAtomicWriter(targetDirectory: volume.path).write(payload)
        let fromConfigMap = try DaemonProcess(resources: [volume.path])
        let fromDirectory = try DaemonProcess(resources: [PackagePaths.exampleResources])
        let languages = try fromDirectory.request(["op": "languages"])["languages"] as? [[String: Any]] ?? []
        #expect(languages.count >= 5)
        #expect(
            NSArray(array: try fromConfigMap.request(["op": "languages"])["languages"] as? [Any] ?? [])
                == NSArray(array: languages))
        for language in languages {
            for table in language["tables"] as? [String] ?? [] {
                let request: [String: Any] = ["op": "table", "lang": language["lang"] ?? "", "table": table]
                var expected = try fromDirectory.request(request)
                var served = try fromConfigMap.request(request)
                expected["generation"] = nil
                served["generation"] = nil
                #expect(NSDictionary(dictionary: served) == NSDictionary(dictionary: expected), "\(request)")
            }
        }
        let errors = try fromConfigMap.request(["op": "status"])["errors"] as? [Any] ?? []
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func aConfigMapOverOneMebibyteIsRefusedWithTheWayOut() throws {
        let resources = try TemporaryDirectory(prefix: "l10nd-large")
        let entries = (0..<12_000).map { "\"key \($0)\" = \"\(String(repeating: "x", count: 80))\";\n" }.joined()
        try resources.write(entries, to: "ja.lproj/Localizable.strings")
        let result = try ProcessRunner.run(PackagePaths.root + "/scripts/configmap-from-resources", [resources.path])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("more than a ConfigMap holds (1 MiB)"), "\(result.stderr)")
        #expect(result.stderr.contains("projected volume"))
    }

    // MARK: - Reading pod specs

    /// The pod template's spec of a workload, or nil for other kinds.
    static func podSpec(of object: [String: Any]) -> [String: Any]? {
        ((object["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any]
    }

    /// The l10nd container of `pod` (a container or a native sidecar), with its pod.
    static func l10ndContainer(in pod: [String: Any]) -> (container: [String: Any], pod: [String: Any])? {
        let all = (pod["initContainers"] as? [[String: Any]] ?? []) + (pod["containers"] as? [[String: Any]] ?? [])
        return all.first { ($0["command"] as? [String])?.first == "l10nd" }.map { ($0, pod) }
    }

    /// The value after `flag` in a container's args.
    static func argument(_ flag: String, of container: [String: Any]) -> String? {
        let arguments = container["args"] as? [String] ?? []
        return arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }

    /// The pod volume `container` mounts at `path`.
    static func volume(mountedAt path: String, in container: [String: Any], pod: [String: Any]) -> [String: Any]? {
        let mounts = container["volumeMounts"] as? [[String: Any]] ?? []
        guard let name = mounts.first(where: { $0["mountPath"] as? String == path })?["name"] as? String else {
            return nil
        }
        return (pod["volumes"] as? [[String: Any]] ?? []).first { $0["name"] as? String == name }
    }
}
