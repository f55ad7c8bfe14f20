import Foundation

/// The daemon's request path from outside (issue 14, items 4 and 5): one C client
/// (``CRequestClient``) sends l10nd binary `lookup`s and Redis `GET`s of the same key over a
/// Unix socket — one at a time, 16 and 64 in flight on one connection, and one in flight on
/// each of 16 connections — and each rate is set against Redis and against the bare C
/// ping-pong with as many messages in flight, measured moments apart; medians of `repeats`.
///
/// Each server's CPU time per request (``ProcessCPU``) is set against the other's too: on a
/// busy machine it moves far less than the rates.
///
/// Redis is Debian's `redis-server` (``RedisServer``); without it the Redis rows are left out.
func runRequestPathBenchmark(repeats: Int = 5) {
    print("request path: l10nd lookup vs Redis GET vs the C floor, one outside C client")
    let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Resources").path
    let work = BenchmarkDirectory("requests")
    guard let daemon = BenchmarkDaemon(resources: [resources], socket: work.path + "/l10nd.sock"),
        daemon.waitUntilAnswering()
    else { return }
    let redis = RedisServer()
    if redis == nil { print("    (no redis-server: the Redis baseline is left out)") }
    // A key Japanese has itself: no fallback, so nothing goes to the missing-key report.
    let key = "設定"
    struct Configuration {
        var name: String
        var depth: Int
        var connections: Int
        var count: Int
        /// The aims of issue 14: × the C floor, × Redis.
        var floorAim: Double?
        var redisAim: Double?
    }
    let configurations = [
        Configuration(name: "one at a time", depth: 1, connections: 1, count: 20_000, floorAim: 0.8, redisAim: nil),
        Configuration(
            name: "16 in flight, 1 connection", depth: 16, connections: 1, count: 200_000, floorAim: 0.5, redisAim: 1),
        Configuration(
            name: "64 in flight, 1 connection", depth: 64, connections: 1, count: 200_000, floorAim: 0.5, redisAim: 1),
        Configuration(
            name: "16 connections, 1 in flight each", depth: 1, connections: 16, count: 100_000, floorAim: nil,
            redisAim: nil),
    ]
    for configuration in configurations {
        var l10ndRates: [Double] = []
        var redisRates: [Double] = []
        var floorRates: [Double] = []
        var floorRatios: [Double] = []
        var redisRatios: [Double] = []
        var cpuRatios: [Double] = []
        var l10ndCPU: [Double] = []
        var redisCPU: [Double] = []
        var l10ndSleeps: [Double] = []
        var redisSleeps: [Double] = []
        let daemonPID = daemon.process.processIdentifier
        let inFlight = configuration.depth * configuration.connections
        for _ in 0..<repeats {
            let daemonBefore = ProcessCPU.nanoseconds(of: daemonPID)
            let daemonSleepsBefore = ProcessSleeps.count(of: daemonPID)
            guard
                let l10nd = CRequestClient.run(
                    .l10nd(language: "ja"), socket: daemon.socket, key: key, count: configuration.count,
                    depth: configuration.depth, connections: configuration.connections)
            else {
                print("    C request client: not run (no C compiler, or it failed)")
                return
            }
            let daemonNanoseconds = ProcessCPU.nanoseconds(of: daemonPID).flatMap { after in
                daemonBefore.map { Double(after - $0) / Double(l10nd.replies) }
            }
            guard l10nd.found == l10nd.replies else {
                print("    stopped: l10nd answered \(l10nd.replies - l10nd.found) lookups of \(key) as not found")
                return
            }
            guard let floor = CPingPongFloor.run(count: configuration.count, depth: inFlight) else {
                print("    C ping-pong: not run (no C compiler, and L10N_PINGPONG unset)")
                return
            }
            l10ndRates.append(l10nd.repliesPerSecond)
            floorRates.append(floor.roundTripsPerSecond)
            floorRatios.append(l10nd.repliesPerSecond / floor.roundTripsPerSecond)
            if let daemonNanoseconds { l10ndCPU.append(daemonNanoseconds) }
            if let before = daemonSleepsBefore, let after = ProcessSleeps.count(of: daemonPID) {
                l10ndSleeps.append(Double(after - before) / Double(l10nd.replies))
            }
            guard let redis else { continue }
            let redisBefore = ProcessCPU.nanoseconds(of: redis.pid)
            let redisSleepsBefore = ProcessSleeps.count(of: redis.pid)
            if let get = CRequestClient.run(
                .redis(value: key), socket: redis.socketPath, key: key, count: configuration.count,
                depth: configuration.depth, connections: configuration.connections)
            {
                redisRates.append(get.repliesPerSecond)
                if let before = redisSleepsBefore, let after = ProcessSleeps.count(of: redis.pid) {
                    redisSleeps.append(Double(after - before) / Double(get.replies))
                }
                redisRatios.append(l10nd.repliesPerSecond / get.repliesPerSecond)
                if let daemonNanoseconds, let redisBefore, let redisAfter = ProcessCPU.nanoseconds(of: redis.pid) {
                    let redisNanoseconds = Double(redisAfter - redisBefore) / Double(get.replies)
                    redisCPU.append(redisNanoseconds)
                    cpuRatios.append(daemonNanoseconds / redisNanoseconds)
                }
            }
        }
        let rate = figure(configuration.name, l10ndRates)
        let floor = figure(configuration.name, floorRates)
        let floorRatio = figure(configuration.name, floorRatios)
        var line = String(
            format: "    %@ l10nd %9.0f/s  C floor %9.0f/s  %.2fx floor (%.2f–%.2f)",
            configuration.name.padding(toLength: 33, withPad: " ", startingAt: 0) as NSString, rate.median,
            floor.median, floorRatio.median, floorRatio.min, floorRatio.max)
        BenchmarkReport.shared.record(
            BenchmarkRatio(
                figure: "l10nd lookup (C client), \(configuration.name), ×C floor", value: rate.median,
                unit: "lookups/s", baseline: "C ping-pong, \(inFlight) in flight", baselineValue: floor.median,
                ratio: floorRatio.median, aim: configuration.floorAim.map { "≥ \($0)×" },
                met: configuration.floorAim.map { floorRatio.median >= $0 }))
        if !redisRates.isEmpty {
            let redisRate = figure(configuration.name, redisRates)
            let redisRatio = figure(configuration.name, redisRatios)
            line += String(
                format: "  Redis GET %9.0f/s  %.2fx Redis (%.2f–%.2f)", redisRate.median, redisRatio.median,
                redisRatio.min, redisRatio.max)
            BenchmarkReport.shared.record(
                BenchmarkRatio(
                    figure: "l10nd lookup (C client), \(configuration.name), ×Redis GET", value: rate.median,
                    unit: "lookups/s", baseline: "Redis GET, same client", baselineValue: redisRate.median,
                    ratio: redisRatio.median, aim: configuration.redisAim.map { "≥ \($0)×" },
                    met: configuration.redisAim.map { redisRatio.median >= $0 }))
        }
        if !cpuRatios.isEmpty {
            let daemonCPU = figure(configuration.name, l10ndCPU)
            let getCPU = figure(configuration.name, redisCPU)
            let cpuRatio = figure(configuration.name, cpuRatios)
            line += String(
                format: "\n      CPU per request: l10nd %.2f µs, Redis %.2f µs, %.2fx Redis (%.2f–%.2f)",
                daemonCPU.median / 1000, getCPU.median / 1000, cpuRatio.median, cpuRatio.min, cpuRatio.max)
            BenchmarkReport.shared.record(
                BenchmarkRatio(
                    figure: "l10nd CPU per lookup, \(configuration.name), ×Redis CPU per GET",
                    value: daemonCPU.median, unit: "ns", baseline: "Redis CPU per GET",
                    baselineValue: getCPU.median, ratio: cpuRatio.median, aim: nil, met: nil))
        }
        if !l10ndSleeps.isEmpty {
            // The floor sleeps once per reply it waits for; looking before sleeping saves those.
            line += String(
                format: "\n      sleeps per request: l10nd %.2f", figure(configuration.name, l10ndSleeps).median)
            if !redisSleeps.isEmpty {
                line += String(format: ", Redis %.2f", figure(configuration.name, redisSleeps).median)
            }
        }
        print(line)
    }
}
