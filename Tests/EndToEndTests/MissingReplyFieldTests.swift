import Foundation
import Glibc
import LocalizationWire
import TestSupport
import Testing

/// `l10nctl` printed `?` for a field the daemon's reply left out (an older or another
/// l10nd): a bare `?` reads as a value — a language named `?`, an error in a file `?`. It
/// now says the field was not reported. The daemon here is a scripted one on a real socket,
/// answering in binary frames with the fields taken out.
@Suite struct MissingReplyFieldTests {
    /// Serves one connection at `path`: each request gets `replies[its operation]`, as a
    /// fields reply in a binary frame, until the client hangs up.
    final class ScriptedDaemon: @unchecked Sendable {
        let directory: TemporaryDirectory
        let path: String
        private let listener: Int32

        init(replies: [WireOperationKind: [String: WireValue]]) throws {
            directory = try TemporaryDirectory(prefix: "l10nd-scripted")
            path = directory.path + "/l10nd.sock"
            listener = try ClientHandshakeTests.listen(at: path)
            let listener = listener
            Thread {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                defer { close(client) }
                while let payload = Self.readFrame(client),
                    case .success(let request) = BinaryFrameCodec.decodeRequest(payload)
                {
                    let fields = replies[request.operation.kind] ?? [:]
                    let frame = BinaryFrameCodec.encode(.reply(id: request.id, .fields(fields)))
                    guard write(client, frame, frame.count) == frame.count else { return }
                }
            }.start()
        }

        deinit { close(listener) }

        /// One frame's payload: a six-byte header (magic, version, big-endian length), then it.
        static func readFrame(_ descriptor: Int32) -> [UInt8]? {
            guard let header = read(descriptor, count: 6) else { return nil }
            let length = header[2...].reduce(0) { $0 << 8 | Int($1) }
            return read(descriptor, count: length)
        }

        static func read(_ descriptor: Int32, count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let got = bytes.withUnsafeMutableBytes {
                    Glibc.read(descriptor, $0.baseAddress! + filled, count - filled)
                }
                guard got > 0 else { return nil }
                filled += got
            }
            return bytes
        }
    }

    func l10nctl(_ arguments: [String], socket: String) throws -> ProcessOutput {
        try ProcessRunner.run(
            PackagePaths.executable("l10nctl"), arguments + ["--socket", socket], environment: ["PATH": "/usr/bin:/bin"]
        )
    }

    @Test func aFieldTheDaemonLeftOutIsSaidAsSuchNeverAsAQuestionMark() throws {
        let daemon = try ScriptedDaemon(replies: [
            .languages: ["languages": .array([.object(["tables": .array([.string("Localizable")])])])]
        ])
        let languages = try l10nctl(["languages"], socket: daemon.path)
        #expect(languages.status == 0, "\(languages)")
        #expect(languages.stdout == "(not reported by this l10nd)\tLocalizable\n", "\(languages.stdout)")
    }

    @Test func statusSaysWhichFieldsItWasNotGiven() throws {
        let daemon = try ScriptedDaemon(replies: [
            .status: [
                "errors": .array([.object(["line": 3, "column": 1, "message": .string("unterminated string")])]),
                "watcher": .object([
                    "unwatched": .array([.object(["message": .string("cannot watch it"), "polled": .bool(true)])])
                ]),
            ]
        ])
        let status = try l10nctl(["status"], socket: daemon.path)
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.contains("  (not reported by this l10nd):3:1: unterminated string\n"), "\(status.stdout)")
        #expect(
            status.stdout.contains(
                "  (not reported by this l10nd): (not reported by this l10nd) [polled]: cannot watch it\n"),
            "\(status.stdout)")
        #expect(!status.stdout.contains("?"), "\(status.stdout)")
    }

    /// The counts of the generation line, left out, printed `0`: an empty daemon, not an
    /// older one.
    @Test func statusSaysWhichCountsItWasNotGiven() throws {
        let daemon = try ScriptedDaemon(replies: [.status: ["generation": 4, "keys": 12]])
        let status = try l10nctl(["status"], socket: daemon.path)
        #expect(status.status == 0, "\(status)")
        let absent = "(not reported by this l10nd)"
        #expect(
            status.stdout.hasPrefix(
                "generation 4: \(absent) languages, \(absent) tables, 12 keys in \(absent) files\n"),
            "\(status.stdout)")
    }
}
