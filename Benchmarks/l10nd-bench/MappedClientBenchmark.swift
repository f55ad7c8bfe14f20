import Foundation
import Localization
import LocalizationWire

/// Mapped mode (issue 14, item 3) against its baselines, in one run on one daemon serving
/// `languages` × `keys` synthetic strings:
///
/// - a mapped lookup through the public API (`Language.localized`) against a
///   `[String: String]` read, and against the same call in cached mode;
/// - a new process's first lookup, connection included, in mapped mode against cached mode;
/// - the PSS of twenty client processes in mapped mode, each having read every key of every
///   language, plus the daemon's, against the daemon's RSS alone (aim ≤ 2×).
func runMappedClientBenchmark(languages languageCount: Int, keys keyCount: Int, clients: Int = 20) {
    print("mapped mode: \(languageCount) languages × \(keyCount) keys, \(clients) client processes")
    let directory = BenchmarkDirectory("mapped")
    let resources = SyntheticResources(languages: languageCount, keys: keyCount, under: directory.path)
    let socket = directory.path + "/l10nd.sock"
    guard let daemon = BenchmarkDaemon(resources: [resources.root], socket: socket),
        daemon.waitUntilAnswering(timeout: 900)
    else { return }
    // Decoded, as a file's parser makes them (CallerKeys says why).
    let keys = (0..<keyCount).map { CallerKeys.copy("screen\($0 % 97).label\($0)") }

    // One `map` outright first: the daemon built the segments at load, so this times the
    // manifest and the slabs' descriptors, what every later process's first `map` costs.
    let chosen = resources.languages[min(1, resources.languages.count - 1)]
    let mapStart = ContinuousClock.now
    guard case .fields? = try? LocalizationClient(socketPath: socket, timeout: 600).send(.map) else {
        return print("  the daemon did not answer map")
    }
    print(String(format: "  first map (manifest and slabs, nothing compiled): %.0f ms", milliseconds(since: mapStart)))
    var dictionary: [String: String] = [:]
    dictionary.reserveCapacity(keyCount)
    for (index, key) in keys.enumerated() {
        dictionary[key] = SyntheticResources.value(key: index, language: resources.languages.firstIndex(of: chosen)!)
    }
    // Keys of their own, as a caller holds them; the dictionary's own instances for comparison.
    let (order, shared) = CallerKeys.shuffled(keys)
    var mappedSamples: [Double] = []
    var dictionarySamples: [Double] = []
    var sharedKeySamples: [Double] = []
    for _ in 0..<3 {
        // Each mode's first pass (mapping, or fetching the table; first touches) is not timed.
        Localizer.shared.useDaemon(socketPath: socket, mode: .mapped, timeout: 600)
        _ = cpuNanosecondsPerCall(order) { Language($0, identifier: chosen).localized.utf8.count }
        mappedSamples.append(cpuNanosecondsPerCall(order) { Language($0, identifier: chosen).localized.utf8.count })
        dictionarySamples.append(cpuNanosecondsPerCall(order) { dictionary[$0]?.utf8.count ?? 0 })
        sharedKeySamples.append(cpuNanosecondsPerCall(shared) { dictionary[$0]?.utf8.count ?? 0 })
    }
    Localizer.shared.useEmbedded()
    let mapped = mappedSamples.sorted()[1]
    let read = dictionarySamples.sorted()[1]
    let sharedRead = sharedKeySamples.sorted()[1]
    print(
        String(
            format:
                "  Language.localized: mapped %.1f ns; [String: String] read %.1f ns: mapped %.2f× the read (aim ≤ 1.5×)",
            mapped, read, mapped / read))
    print(
        String(
            format: "  (the read with the dictionary's own key instances: %.1f ns, mapped %.2f× it)", sharedRead,
            mapped / sharedRead))
    BenchmarkReport.shared.record(
        BenchmarkRatio(
            figure: "mapped lookup (Language.localized), \(keyCount) keys, ×dictionary read", value: mapped, unit: "ns",
            baseline: "[String: String] read", baselineValue: read, ratio: mapped / read, aim: "≤ 1.5×",
            met: mapped / read <= 1.5))
    // A new process's first lookup, connection and handshake included.
    var firstMapped: [Double] = []
    for _ in 0..<5 {
        guard let client = ClientProcess(socket: socket, mode: "mapped", languages: [chosen], keys: 1) else { return }
        guard let first = client.waitUntilReady() else { return print("  a mapped client failed") }
        firstMapped.append(first)
    }
    print(String(format: "  a new process's first lookup: mapped %.2f ms", firstMapped.sorted()[2] / 1e6))

    // Twenty processes reading every key of every language in mapped mode; the daemon's own
    // PSS before them, to compare with its PSS beside them (issue 21: at most 1.3×).
    let daemonBefore = ProcessMemory.usage(of: daemon.process.processIdentifier)?.proportionalBytes
    let started = ContinuousClock.now
    var processes: [ClientProcess] = []
    for _ in 0..<clients {
        guard let client = ClientProcess(socket: socket, mode: "mapped", languages: resources.languages, keys: keyCount)
        else { return }
        processes.append(client)
    }
    for client in processes where client.waitUntilReady() == nil { return print("  a mapped client failed") }
    print(String(format: "  %d clients read every string in %.1f s", clients, milliseconds(since: started) / 1e3))
    let pid = daemon.process.processIdentifier
    guard let alone = ProcessMemory.usage(of: pid),
        let together = ProcessMemory.proportionalBytes(ofAll: [pid] + processes.map(\.process.processIdentifier))
    else { return print("  cannot read /proc/PID/smaps_rollup") }
    let clientPSS = together - alone.proportionalBytes
    let ratio = Double(together) / Double(alone.residentBytes)
    print(
        String(
            format:
                "  PSS of the daemon and %d clients %.1f MiB (clients %.1f MiB, %.2f MiB each); the daemon's RSS %.1f MiB: %.2f× (aim ≤ 2×)",
            clients, mebibytes(together), mebibytes(clientPSS), mebibytes(clientPSS) / Double(clients),
            mebibytes(alone.residentBytes), ratio))
    if let daemonBefore {
        let daemonRatio = Double(alone.proportionalBytes) / Double(daemonBefore)
        print(
            String(
                format: "  the daemon's PSS %.1f MiB before the clients, %.1f MiB beside them: %.2f× (aim ≤ 1.3×)",
                mebibytes(daemonBefore), mebibytes(alone.proportionalBytes), daemonRatio))
        BenchmarkReport.shared.record(
            BenchmarkRatio(
                figure: "the daemon's PSS beside \(clients) mapped clients", value: mebibytes(alone.proportionalBytes),
                unit: "MiB", baseline: "its PSS before any client", baselineValue: mebibytes(daemonBefore),
                ratio: daemonRatio, aim: "≤ 1.3×", met: daemonRatio <= 1.3))
    }
    BenchmarkReport.shared.record(
        BenchmarkRatio(
            figure: "PSS of \(clients) mapped clients (every string of \(languageCount) × \(keyCount)) + the daemon",
            value: mebibytes(together), unit: "MiB", baseline: "the daemon's RSS alone",
            baselineValue: mebibytes(alone.residentBytes), ratio: ratio, aim: "≤ 2×", met: ratio <= 2))
    processes.forEach { $0.finish() }
}

private func mebibytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }

/// A client process for the benchmark: this program run as `l10nd-bench --client-process`
/// (``runClientProcess(_:)``), which connects, times its first lookup, reads keys, says so
/// on its standard output and waits for its standard input to close.
final class ClientProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init?(socket: String, mode: String, languages: [String], keys: Int) {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--client-process", socket, mode, languages.joined(separator: ","), String(keys)]
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch {
            print("  cannot start a client process: \(error)")
            return nil
        }
    }

    /// Waits for the `ready FIRST_NS` line; the first lookup's nanoseconds, nil on failure.
    func waitUntilReady() -> Double? {
        var line = Data()
        while let byte = try? output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard words.count == 2, words[0] == "ready" else { return nil }
        return Double(words[1])
    }

    /// Lets the process end and waits for it.
    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { finish() }
    }
}

/// The client process's side: `SOCKET MODE LANGUAGES KEYS`. Times its first lookup from
/// before the localizer connects, reads the first `KEYS` synthetic keys in every language,
/// prints `ready FIRST_NS`, and exits when its standard input closes.
func runClientProcess(_ arguments: [String]) -> Never {
    guard arguments.count == 4, let mode = LookupMode(rawValue: arguments[1]), let keys = Int(arguments[3]) else {
        print("usage: l10nd-bench --client-process SOCKET MODE LANGUAGES KEYS")
        exit(2)
    }
    let languages = arguments[2].split(separator: ",").map(String.init)
    let started = ContinuousClock.now
    let localizer = Localizer(environment: [:], log: { _ in })
    localizer.useDaemon(socketPath: arguments[0], mode: mode, timeout: 600)
    let first = localizer.lookup("screen0.label0", languages: [languages[0]])
    let firstNanoseconds = milliseconds(since: started) * 1e6
    guard first.found else {
        print("failed")
        exit(1)
    }
    Localizer.shared.useDaemon(socketPath: arguments[0], mode: mode, timeout: 600)
    var sum = 0
    for language in languages {
        for key in 0..<keys {
            sum &+= Language("screen\(key % 97).label\(key)", identifier: language).localized.utf8.count
        }
    }
    guard sum > 0 else { exit(1) }
    // Unbuffered: the parent waits for this line.
    FileHandle.standardOutput.write(Data("ready \(Int(firstNanoseconds))\n".utf8))
    _ = FileHandle.standardInput.readDataToEndOfFile()
    exit(0)
}
