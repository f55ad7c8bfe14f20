import Foundation
import Localization
import LocalizationWire

/// Throughput with many requests in flight: pipelined `lookup`s and 64-key `batch`es, from
/// 1 connection (16 threads sharing it) and from 16 connections, against the bare C
/// ping-pong with 16 messages in flight.
func runPipelineBenchmark(requestsPerRun: Int = 40_000, inFlight: Int = 16) {
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
        .lookup(key: keys[index % keys.count], languages: ["ja"], table: nil, count: nil)
    }
    let batch: @Sendable (Int) -> WireOperation = { _ in .batch(keys: batchKeys, languages: ["ja"], table: nil) }

    var figures: [(String, Double)] = []
    for (name, operation, keysPerRequest) in [("lookup", lookup, 1), ("batch of 64", batch, 64)] {
        for connections in [1, inFlight] {
            let clients = (0..<connections).map { _ in LocalizationClient(socketPath: daemon.socket, timeout: 10) }
            _ = try? clients.first?.send(.hello)
            let requests = keysPerRequest == 1 ? requestsPerRun : requestsPerRun / 16
            let perThread = requests / inFlight
            let start = ContinuousClock.now
            DispatchQueue.concurrentPerform(iterations: inFlight) { thread in
                let client = clients[thread % clients.count]
                for index in 0..<perThread { _ = try? client.send(operation(index &+ thread)) }
            }
            let seconds = milliseconds(since: start) / 1000
            clients.forEach { $0.close() }
            let lookupsPerSecond = Double(perThread * inFlight * keysPerRequest) / seconds
            figures.append(("\(name), \(connections) connection\(connections == 1 ? "" : "s")", lookupsPerSecond))
        }
    }
    let floor = CPingPongFloor.run(count: requestsPerRun * 5, depth: inFlight)
    for (name, rate) in figures {
        let ratio =
            floor.map { String(format: "%.2fx the pipelined C floor", rate / $0.roundTripsPerSecond) } ?? "no C floor"
        print(String(format: "    %-28@ %10.0f lookups/s  %@", name as NSString, rate, ratio as NSString))
        if let floor {
            let pipelined = name.hasPrefix("lookup")
            BenchmarkReport.shared.record(
                BenchmarkRatio(
                    figure: "\(name), ×pipelined C rate", value: rate, unit: "lookups/s",
                    baseline: "C ping-pong, \(inFlight) in flight", baselineValue: floor.roundTripsPerSecond,
                    ratio: rate / floor.roundTripsPerSecond, aim: pipelined ? "≥ 0.5×" : nil,
                    met: pipelined ? rate / floor.roundTripsPerSecond >= 0.5 : nil))
        }
    }
    if let floor {
        print(
            String(
                format: "    C ping-pong, %d in flight      %10.0f round trips/s", inFlight, floor.roundTripsPerSecond))
    } else {
        print("    C ping-pong: not run (no C compiler, and L10N_PINGPONG unset)")
    }
}
