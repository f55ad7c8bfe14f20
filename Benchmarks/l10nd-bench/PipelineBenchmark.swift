import Foundation
import Localization
import LocalizationWire

/// Throughput with many requests in flight: pipelined `lookup`s and 64-key `batch`es, from
/// 1 connection (16 tasks sharing it) and from 16 connections (one task each), against the
/// bare C ping-pong with 16 messages in flight; medians of `repeats` paired runs.
func runPipelineBenchmark(requestsPerRun: Int = 40_000, inFlight: Int = 16, repeats: Int = 5) {
    print("pipelined throughput: \(inFlight) requests in flight")
    let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Resources").path
    let work = BenchmarkDirectory("pipeline")
    guard let daemon = BenchmarkDaemon(resources: [resources], socket: work.path + "/l10nd.sock"),
        daemon.waitUntilAnswering()
    else { return }
    let keys = ["多言語化", "こんにちは", "保存", "設定", "about.title", "ようこそ、%@さん"]
    let batchKeys = (0..<64).map { keys[$0 % keys.count] }
    let lookup: @Sendable (Int) -> WireOperation = { index in
        .lookup(key: keys[index % keys.count], languages: ["ja"], table: nil)
    }
    let batch: @Sendable (Int) -> WireOperation = { _ in .batch(keys: batchKeys, languages: ["ja"], table: nil) }

    // Each repeat measures every configuration and then the C floor, so each ratio pairs
    // figures taken moments apart on this noisy machine; the median ratio is reported.
    let configurations = [("lookup", lookup, 1), ("batch of 64", batch, 64)].flatMap { name, operation, keys in
        [1, inFlight].map { connections in
            ("\(name), \(connections) connection\(connections == 1 ? "" : "s")", operation, keys, connections)
        }
    }
    var rates = Array(repeating: [Double](), count: configurations.count)
    var ratios = Array(repeating: [Double](), count: configurations.count)
    var floors: [Double] = []
    for _ in 0..<repeats {
        var repeatRates: [Double] = []
        for (_, operation, keysPerRequest, connections) in configurations {
            let clients = (0..<connections).map { _ in LocalizationClient(socketPath: daemon.socket, timeout: 10) }
            _ = try? clients.first?.send(.hello)
            let requests = keysPerRequest == 1 ? requestsPerRun : requestsPerRun / 16
            let perTask = requests / inFlight
            let start = ContinuousClock.now
            // Tasks, not threads: `concurrentPerform` runs as many iterations at once as there
            // are cores, which would keep 2 requests in flight here, not 16.
            runTasks(inFlight) { task in
                let client = clients[task % clients.count]
                for index in 0..<perTask { _ = try? await client.send(operation(index &+ task)) }
            }
            let seconds = milliseconds(since: start) / 1000
            clients.forEach { $0.close() }
            repeatRates.append(Double(perTask * inFlight * keysPerRequest) / seconds)
        }
        guard let floor = CPingPongFloor.run(count: requestsPerRun * 5, depth: inFlight) else {
            print("    C ping-pong: not run (no C compiler, and L10N_PINGPONG unset)")
            return
        }
        floors.append(floor.roundTripsPerSecond)
        for index in configurations.indices {
            rates[index].append(repeatRates[index])
            ratios[index].append(repeatRates[index] / floor.roundTripsPerSecond)
        }
    }
    let floor = figure("C ping-pong", floors)
    for (index, configuration) in configurations.enumerated() {
        let name = configuration.0
        let rate = figure(name, rates[index])
        let ratio = figure(name, ratios[index])
        print(
            String(
                format: "    %-28@ %10.0f lookups/s (min %.0f, max %.0f)  %.2fx the pipelined C floor",
                name.padding(toLength: 28, withPad: " ", startingAt: 0) as NSString, rate.median, rate.min, rate.max,
                ratio.median))
        let pipelined = name.hasPrefix("lookup")
        BenchmarkReport.shared.record(
            BenchmarkRatio(
                figure: "\(name), ×pipelined C rate", value: rate.median, unit: "lookups/s",
                baseline: "C ping-pong, \(inFlight) in flight", baselineValue: floor.median,
                ratio: ratio.median, aim: pipelined ? "≥ 0.5×" : nil,
                met: pipelined ? ratio.median >= 0.5 : nil))
    }
    print(
        String(
            format: "    C ping-pong, %d in flight      %10.0f round trips/s (min %.0f, max %.0f)", inFlight,
            floor.median, floor.min, floor.max))
}

/// Runs `count` tasks at once on Swift's cooperative pool and waits for all of them.
func runTasks(_ count: Int, _ body: @escaping @Sendable (Int) async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<count { group.addTask { await body(task) } }
        }
        done.signal()
    }
    done.wait()
}
