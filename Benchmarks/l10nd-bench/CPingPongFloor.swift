import Foundation

/// The bare C ping-pong over a Unix socket (`Benchmarks/CPingPong/pingpong.c`): the floor of
/// any socket lookup. Uses `L10N_PINGPONG` when set, else compiles the source with `cc`
/// into a temp directory once per run.
enum CPingPongFloor {
    /// One run's figures: round trips per second, and p50/p99 in ns when not pipelined.
    struct Result {
        var roundTripsPerSecond: Double
        var p50Nanoseconds: Double?
        var p99Nanoseconds: Double?
    }

    nonisolated(unsafe) private static var compiled: String?

    /// Runs `count` round trips with `depth` messages in flight; `nil` when no C compiler.
    static func run(count: Int, depth: Int = 1) -> Result? {
        guard let binary = binary(), let line = output(of: binary, ["\(count)", "\(depth)"]) else { return nil }
        let fields = Dictionary(
            uniqueKeysWithValues: line.split(separator: " ").compactMap { part -> (String, Double)? in
                let pair = part.split(separator: "=")
                guard pair.count == 2, let value = Double(pair[1]) else { return nil }
                return (String(pair[0]), value)
            })
        guard let trips = fields["round_trips"], let seconds = fields["seconds"] else { return nil }
        return Result(
            roundTripsPerSecond: trips / seconds, p50Nanoseconds: fields["p50_ns"], p99Nanoseconds: fields["p99_ns"])
    }

    private static func binary() -> String? {
        if let given = ProcessInfo.processInfo.environment["L10N_PINGPONG"] { return given }
        if let compiled { return compiled }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CPingPong/pingpong.c").path
        let target = FileManager.default.temporaryDirectory.path + "/l10nd-bench-pingpong-\(getpid())"
        guard FileManager.default.fileExists(atPath: source),
            output(of: "/usr/bin/cc", ["-O2", "-o", target, source]) != nil,
            FileManager.default.isExecutableFile(atPath: target)
        else { return nil }
        compiled = target
        atexit { if let compiled = CPingPongFloor.compiled { unlink(compiled) } }
        return target
    }

    private static func output(of path: String, _ arguments: [String]) -> String? {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
