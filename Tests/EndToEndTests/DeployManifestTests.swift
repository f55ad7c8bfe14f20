import Foundation
import TestSupport
import Testing

/// deploy/kubernetes as a kustomize kit: every overlay renders with `kubectl kustomize`, is
/// valid for Kubernetes (its own schemas, offline, strictly), lands in one namespace, and
/// fits together (the translations' ConfigMaps projected without `items:`, every client's
/// `L10N_SOCKET` the socket its daemon listens on, requests and limits on every l10nd and
/// git-sync, tolerations and a priority class for the DaemonSet); and the ConfigMaps
/// scripts/configmap-from-resources packs, projected as the kubelet projects them, serve
/// what the directory they were packed from serves.
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
    static let canRender = hasPyYAML && KubernetesManifests.kubectl != nil
    static let noKubectl =
        "kubectl or python3-yaml is not installed (scripts/install-dependencies installs both: kubernetes-client)"
    static let packer = PackagePaths.root + "/scripts/configmap-from-resources"
    /// The ConfigMaps the pod templates project: always these, the unused ones empty.
    static let shards = (0..<8).map { "l10nd-translations-\($0)" }

    @Test(
        .enabled(if: canRender, Comment(rawValue: noKubectl)),
        .enabled(
            if: validator != nil,
            "kubernetes-validate is not installed: run scripts/validate-manifests once (it installs it, 22 MB)"))
    func everyOverlayRendersAndPassesKubernetesSchemasStrictly() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-rendered")
        let files = try KubernetesManifests.overlays.map {
            try directory.write(try KubernetesManifests.render($0), to: "\($0).yaml")
        }
        let result = try ProcessRunner.run(PackagePaths.root + "/scripts/validate-manifests", files, timeout: 300)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// One Namespace per overlay, and every namespaced object in it.
    @Test(.enabled(if: canRender, Comment(rawValue: noKubectl)), arguments: KubernetesManifests.overlays)
    func everyOverlayIsOneNamespace(overlay: String) throws {
        let objects = try KubernetesManifests.rendered(overlay)
        let namespaces = objects.filter { $0["kind"] as? String == "Namespace" }
        try #require(namespaces.count == 1, "\(overlay): \(namespaces)")
        let name = try #require((namespaces[0]["metadata"] as? [String: Any])?["name"] as? String)
        for object in objects where !["Namespace", "PriorityClass"].contains(object["kind"] as? String ?? "") {
            let metadata = object["metadata"] as? [String: Any] ?? [:]
            #expect(metadata["namespace"] as? String == name, "\(overlay): \(object["kind"] ?? "") \(metadata)")
        }
        let workloads = objects.filter { ["Deployment", "DaemonSet"].contains($0["kind"] as? String ?? "") }
        #expect(!workloads.isEmpty)
    }

    /// The translations are the packer's 8 ConfigMaps, projected whole into one directory.
    @Test(.enabled(if: canRender, Comment(rawValue: noKubectl)), arguments: ["sidecar", "daemonset"])
    func theTranslationsAreProjectedWithoutItems(overlay: String) throws {
        let objects = try KubernetesManifests.rendered(overlay)
        let configMaps = objects.filter { $0["kind"] as? String == "ConfigMap" }.compactMap {
            ($0["metadata"] as? [String: Any])?["name"] as? String
        }
        #expect(configMaps == Self.shards)
        var checked = 0
        for object in objects {
            for volume in Self.podSpec(of: object)?["volumes"] as? [[String: Any]] ?? [] {
                #expect(volume["configMap"] == nil, "\(overlay): a configMap volume would need items: \(volume)")
                guard let projected = volume["projected"] as? [String: Any] else { continue }
                let sources = projected["sources"] as? [[String: Any]] ?? []
                let projectedMaps = sources.compactMap { $0["configMap"] as? [String: Any] }
                #expect(projectedMaps.compactMap { $0["name"] as? String } == Self.shards, "\(overlay)")
                for source in projectedMaps {
                    #expect(source["items"] == nil && source["optional"] as? Bool == true, "\(overlay): \(source)")
                }
                checked += 1
            }
        }
        #expect(checked == 1, "\(overlay): one translations volume")
    }

    /// Requests and limits on every l10nd and git-sync; the DaemonSet tolerates taints and
    /// has a priority class the overlay defines.
    @Test(.enabled(if: canRender, Comment(rawValue: noKubectl)), arguments: KubernetesManifests.overlays)
    func everyDaemonHasRequestsAndLimits(overlay: String) throws {
        let objects = try KubernetesManifests.rendered(overlay)
        var daemons = 0
        for object in objects {
            guard let pod = Self.podSpec(of: object) else { continue }
            let all = (pod["initContainers"] as? [[String: Any]] ?? []) + (pod["containers"] as? [[String: Any]] ?? [])
            for container in all where ["l10nd", "git-sync"].contains(container["name"] as? String ?? "") {
                let resources = container["resources"] as? [String: Any] ?? [:]
                let requests = resources["requests"] as? [String: Any] ?? [:]
                let limits = resources["limits"] as? [String: Any] ?? [:]
                #expect(requests["memory"] != nil && requests["cpu"] != nil, "\(overlay): \(container["name"] ?? "")")
                #expect(limits["memory"] != nil, "\(overlay): \(container["name"] ?? "")")
                daemons += 1
            }
            guard object["kind"] as? String == "DaemonSet" else { continue }
            let tolerations = pod["tolerations"] as? [[String: Any]] ?? []
            #expect(Set(tolerations.compactMap { $0["effect"] as? String }) == ["NoSchedule", "NoExecute"])
            let priority = try #require(pod["priorityClassName"] as? String)
            #expect(
                objects.contains {
                    $0["kind"] as? String == "PriorityClass"
                        && ($0["metadata"] as? [String: Any])?["name"] as? String == priority
                })
        }
        #expect(daemons == (overlay == "git-sync" ? 2 : 1), "\(overlay)")
    }

    /// Every l10nd is probed over HTTP on its own `--metrics-listen` port, named in its
    /// `ports:` (no `l10nctl` run in the container per probe): started and ready on
    /// `/readyz`, alive on `/healthz`, at an address the kubelet reaches (not loopback).
    @Test(.enabled(if: canRender, Comment(rawValue: noKubectl)), arguments: KubernetesManifests.overlays)
    func everyDaemonIsProbedOverItsOwnHTTPEndpoint(overlay: String) throws {
        let objects = try KubernetesManifests.rendered(overlay)
        var checked = 0
        for object in objects {
            guard let pod = Self.podSpec(of: object), let daemon = Self.l10ndContainer(in: pod)?.container else {
                continue
            }
            let address = try #require(Self.argument("--metrics-listen", of: daemon), "\(overlay): no --metrics-listen")
            #expect(address.hasPrefix("0.0.0.0:"), "\(overlay): \(address) is not reached by the kubelet")
            let port = Int(address.split(separator: ":").last ?? "")
            let ports = daemon["ports"] as? [[String: Any]] ?? []
            let named = ports.first { $0["name"] as? String == "http-metrics" }
            #expect(named?["containerPort"] as? Int == port, "\(overlay): \(ports)")
            for (probe, path) in [
                ("startupProbe", "/readyz"), ("readinessProbe", "/readyz"), ("livenessProbe", "/healthz"),
            ] {
                let get = (daemon[probe] as? [String: Any])?["httpGet"] as? [String: Any]
                #expect(get?["path"] as? String == path, "\(overlay): \(probe) \(daemon[probe] ?? "none")")
                #expect(get?["port"] as? String == "http-metrics", "\(overlay): \(probe)")
            }
            checked += 1
        }
        #expect(checked == 1, "\(overlay): one l10nd")
    }

    @Test(.enabled(if: canRender, Comment(rawValue: noKubectl)), arguments: KubernetesManifests.overlays)
    func everyClientsSocketIsItsDaemonsSocketOnASharedVolume(overlay: String) throws {
        let objects = try KubernetesManifests.rendered(overlay)
        let nodeDaemon = objects.first { $0["kind"] as? String == "DaemonSet" }.flatMap(Self.podSpec).flatMap(
            Self.l10ndContainer)
        var clientsChecked = 0
        for object in objects {
            guard let pod = Self.podSpec(of: object), object["kind"] as? String != "DaemonSet" else { continue }
            let sidecar = Self.l10ndContainer(in: pod)
            for container in pod["containers"] as? [[String: Any]] ?? [] {
                let environment = container["env"] as? [[String: Any]] ?? []
                guard
                    let socket = environment.first(where: { $0["name"] as? String == "L10N_SOCKET" })?["value"]
                        as? String
                else { continue }
                let daemon = try #require(sidecar ?? nodeDaemon, "\(overlay): no l10nd for \(socket)")
                #expect(Self.argument("--socket", of: daemon.container) == socket, "\(overlay): L10N_SOCKET \(socket)")
                let directory = (socket as NSString).deletingLastPathComponent
                let clientVolume = Self.volume(mountedAt: directory, in: container, pod: pod)
                let daemonVolume = Self.volume(mountedAt: directory, in: daemon.container, pod: daemon.pod)
                #expect(clientVolume != nil && daemonVolume != nil, "\(overlay): \(directory) is not mounted in both")
                if let clientVolume, let daemonVolume {
                    if sidecar != nil {
                        #expect(clientVolume["name"] as? String == daemonVolume["name"] as? String, "\(overlay)")
                        #expect(clientVolume["emptyDir"] != nil, "\(overlay): a pod's socket is shared in an emptyDir")
                    } else {
                        let clientPath = (clientVolume["hostPath"] as? [String: Any])?["path"] as? String
                        let daemonPath = (daemonVolume["hostPath"] as? [String: Any])?["path"] as? String
                        #expect(
                            clientPath != nil && clientPath == daemonPath, "\(overlay): the node's socket directory")
                        // The socket is 0660: the client must be in the daemon's group.
                        let daemonGroup = (daemon.container["securityContext"] as? [String: Any])?["runAsGroup"] as? Int
                        let groups = (pod["securityContext"] as? [String: Any])?["supplementalGroups"] as? [Int] ?? []
                        #expect(
                            daemonGroup != nil && groups.contains(daemonGroup ?? -1), "\(overlay): not in its group")
                    }
                }
                clientsChecked += 1
            }
        }
        #expect(clientsChecked == 1, "\(overlay): one client")
    }

    /// The kit's translations are what the packer makes of Examples/Resources (it cannot
    /// drift), and a new language changes ConfigMaps only: every other object renders the same.
    @Test(.enabled(if: canRender, Comment(rawValue: noKubectl)))
    func aNewLanguageChangesOnlyConfigMaps() throws {
        let committed = try String(
            contentsOfFile: KubernetesManifests.directory + "/translations/translations.yaml", encoding: .utf8)
        let packed = try ProcessRunner.run(Self.packer, [PackagePaths.exampleResources])
        #expect(packed.status == 0 && packed.stdout == committed, "regenerate translations.yaml: \(packed.stderr)")

        let resources = try TemporaryDirectory(prefix: "l10nd-new-language")
        try FileManager.default.removeItem(atPath: resources.path)
        try FileManager.default.copyItem(atPath: PackagePaths.exampleResources, toPath: resources.path)
        _ = try resources.write("\"greeting\" = \"Hej\";\n", to: "sv.lproj/Localizable.strings")
        let kit = try TemporaryDirectory(prefix: "l10nd-kit")
        try FileManager.default.removeItem(atPath: kit.path)
        try FileManager.default.copyItem(atPath: KubernetesManifests.directory, toPath: kit.path)
        let withSwedish = try ProcessRunner.run(Self.packer, [resources.path])
        try withSwedish.stdout.write(
            toFile: kit.path + "/translations/translations.yaml", atomically: true, encoding: .utf8)
        let kubectl = try #require(KubernetesManifests.kubectl)
        for overlay in ["sidecar", "daemonset"] {
            let before = try KubernetesManifests.rendered(overlay)
            let after = try KubernetesManifests.documents(
                in: try kit.write(
                    try ProcessRunner.run(kubectl, ["kustomize", kit.path + "/overlays/" + overlay]).stdout,
                    to: overlay + ".yaml"))
            // As sorted JSON: NSDictionary's equality tells a JSON `false` from itself on Linux.
            func json(_ object: [String: Any]) throws -> Data {
                try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)
            }
            let changed = try zip(before, after).filter { try json($0) != json($1) }
            #expect(before.count == after.count && !changed.isEmpty, "\(overlay)")
            #expect(
                changed.allSatisfy { $0.0["kind"] as? String == "ConfigMap" },
                "\(overlay): \(changed.map { ($0.0["kind"] ?? "", ($0.0["metadata"] as? [String: Any])?["name"] ?? "") })"
            )
        }
    }

    /// The packed ConfigMaps of `directory`, each under 1 MiB as the API server counts it,
    /// projected into one volume by the kubelet's atomic writer, serve every table as the
    /// directory does.
    func packedConfigMapsServeWhatTheirDirectoryServes(_ directory: String, minimumConfigMaps: Int) throws {
        let made = try ProcessRunner.run(Self.packer, [directory, "--json"], timeout: 120)
        try #require(made.status == 0, "\(made.stderr)")
        let output = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let configMaps = try #require(output["configMaps"] as? [[String: Any]])
        #expect(configMaps.compactMap { ($0["metadata"] as? [String: Any])?["name"] as? String } == Self.shards)
        var payload: [String: Data] = [:]
        var used = 0
        for configMap in configMaps {
            let data = (configMap["data"] as? [String: String] ?? [:]).mapValues { Data($0.utf8) }
            let binary = (configMap["binaryData"] as? [String: String] ?? [:]).compactMapValues {
                Data(base64Encoded: $0)
            }
            let size = data.merging(binary) { $1 }.reduce(0) { $0 + $1.key.utf8.count + $1.value.count }
            #expect(size <= 1 << 20, "\(configMap["metadata"] ?? ""): \(size) bytes")
            if size > 0 { used += 1 }
            for (key, bytes) in data.merging(binary, uniquingKeysWith: { $1 }) {
                #expect(payload[key] == nil, "\(key) is in two ConfigMaps")
                #expect(!key.contains("/"))
                payload[key] = bytes
            }
        }
        #expect(used >= minimumConfigMaps)
        let volume = try TemporaryDirectory(prefix: "l10nd-projected")
        try KubeletAtomicWriter(targetDirectory: volume.path).write(payload)
        let fromConfigMaps = try DaemonProcess(resources: [volume.path], logLevel: "notice")
        let fromDirectory = try DaemonProcess(resources: [directory], logLevel: "notice")
        let languages = try fromDirectory.request(["op": "languages"])["languages"] as? [[String: Any]] ?? []
        #expect(languages.count >= 5)
        #expect(
            NSArray(array: try fromConfigMaps.request(["op": "languages"])["languages"] as? [Any] ?? [])
                == NSArray(array: languages))
        var tables = 0
        for language in languages {
            for table in language["tables"] as? [String] ?? [] {
                let request: [String: Any] = ["op": "table", "lang": language["lang"] ?? "", "table": table]
                var expected = try fromDirectory.request(request)
                var served = try fromConfigMaps.request(request)
                expected["generation"] = nil
                served["generation"] = nil
                #expect(NSDictionary(dictionary: served) == NSDictionary(dictionary: expected), "\(request)")
                tables += 1
            }
        }
        #expect(tables >= languages.count)
        let errors = try fromConfigMaps.request(["op": "status"])["errors"] as? [Any] ?? []
        let expectedErrors = try fromDirectory.request(["op": "status"])["errors"] as? [Any] ?? []
        #expect(errors.count == expectedErrors.count, "\(errors)")
    }

    @Test func packedExamplesServeWhatTheirDirectoryServes() throws {
        try packedConfigMapsServeWhatTheirDirectoryServes(PackagePaths.exampleResources, minimumConfigMaps: 1)
    }

    /// mastodon-ios: 1.9 MB in 332 files, four Localizable.strings per language in four
    /// directories, needs three ConfigMaps; each language's tables are what the tree serves.
    @Test(.enabled(if: PackagePaths.shared("corpus/mastodon-ios") != nil, "the shared mastodon-ios corpus is absent"))
    func packedMastodonServesWhatItsTreeServes() throws {
        let corpus = try #require(PackagePaths.shared("corpus/mastodon-ios"))
        try packedConfigMapsServeWhatTheirDirectoryServes(corpus, minimumConfigMaps: 2)
    }

    @Test func aFileOverOneMebibyteIsRefusedWithTheWayOut() throws {
        let resources = try TemporaryDirectory(prefix: "l10nd-large")
        let entries = (0..<12_000).map { "\"key \($0)\" = \"\(String(repeating: "x", count: 80))\";\n" }.joined()
        try resources.write(entries, to: "ja.lproj/Localizable.strings")
        let result = try ProcessRunner.run(Self.packer, [resources.path])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.contains("ja.lproj/Localizable.strings is ")
                && result.stderr.contains(" bytes: a ConfigMap holds at most 1 MiB"),
            "\(result.stderr)")
        #expect(result.stderr.contains("git-sync (deploy/kubernetes/overlays/git-sync) or in an image volume"))
    }

    @Test func moreThanTheProjectedConfigMapsHoldIsRefused() throws {
        let resources = try TemporaryDirectory(prefix: "l10nd-many")
        let entries = (0..<7_000).map { "\"key \($0)\" = \"\(String(repeating: "x", count: 80))\";\n" }.joined()
        for language in ["de", "fr", "ja"] { try resources.write(entries, to: "\(language).lproj/Localizable.strings") }
        let result = try ProcessRunner.run(Self.packer, [resources.path, "--shards", "2"])
        #expect(result.status != 0)
        #expect(
            result.stderr.contains("need 3 ConfigMaps of 1 MiB, more than the 2 the volume projects"),
            "\(result.stderr)")
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
