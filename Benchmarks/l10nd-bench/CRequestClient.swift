import Foundation

/// The outside C client of the request-path rows (`Benchmarks/CRequestClient/requestclient.c`):
/// one program that asks l10nd (binary frames) or Redis (RESP `GET`) for one key, with a
/// given number of requests in flight on a given number of connections. Uses
/// `L10N_REQUEST_CLIENT` when set, else compiles the source with `cc` once per run, as
/// ``CPingPongFloor`` does.
enum CRequestClient {
    /// The server a run asks.
    enum Server {
        /// l10nd: a binary `lookup` of the key in `language`.
        case l10nd(language: String)
        /// Redis: `GET` of the key, first `SET` to `value`.
        case redis(value: String)
    }

    /// One run's figures.
    struct Result {
        var repliesPerSecond: Double
        /// Replies that carried a value (found), to tell a run of errors from a real one.
        var found: Int
        var replies: Int
    }

    nonisolated(unsafe) private static var compiled: String?

    /// Runs `count` requests for `key` against `server` at `socket`, `depth` in flight on each
    /// of `connections`; `nil` when there is no C compiler or the client failed.
    static func run(
        _ server: Server, socket: String, key: String, count: Int, depth: Int, connections: Int
    ) -> Result? {
        guard let binary = binary() else { return nil }
        let (mode, last) =
            switch server {
            case .l10nd(let language): ("l10nd", language)
            case .redis(let value): ("redis", value)
            }
        guard
            let line = BenchmarkProcess.output(
                of: binary, [mode, socket, "\(count)", "\(depth)", "\(connections)", key, last])
        else { return nil }
        let fields = BenchmarkProcess.fields(of: line)
        guard let replies = fields["replies"], let seconds = fields["seconds"], let found = fields["found"] else {
            return nil
        }
        return Result(repliesPerSecond: replies / seconds, found: Int(found), replies: Int(replies))
    }

    private static func binary() -> String? {
        if let given = ProcessInfo.processInfo.environment["L10N_REQUEST_CLIENT"] { return given }
        if let compiled { return compiled }
        guard let target = BenchmarkProcess.compileC("CRequestClient/requestclient.c", into: "requestclient") else {
            return nil
        }
        compiled = target
        atexit { if let compiled = CRequestClient.compiled { unlink(compiled) } }
        return target
    }
}
