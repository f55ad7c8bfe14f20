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
        guard let binary = binary(), let line = BenchmarkProcess.output(of: binary, ["\(count)", "\(depth)"]) else {
            return nil
        }
        let fields = BenchmarkProcess.fields(of: line)
        guard let trips = fields["round_trips"], let seconds = fields["seconds"] else { return nil }
        return Result(
            roundTripsPerSecond: trips / seconds, p50Nanoseconds: fields["p50_ns"], p99Nanoseconds: fields["p99_ns"])
    }

    private static func binary() -> String? {
        if let given = ProcessInfo.processInfo.environment["L10N_PINGPONG"] { return given }
        if let compiled { return compiled }
        guard let target = BenchmarkProcess.compileC("CPingPong/pingpong.c", into: "pingpong") else { return nil }
        compiled = target
        atexit { if let compiled = CPingPongFloor.compiled { unlink(compiled) } }
        return target
    }
}
