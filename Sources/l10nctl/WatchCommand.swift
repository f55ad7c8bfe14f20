import CommandLineHelp
import Foundation
import Localization
import LocalizationCore
import LocalizationWire

/// `l10nctl watch`: one line per change l10nd applies, across daemon restarts.
///
/// The first connection must succeed (no daemon is a failure, as for every command); after
/// that a lost connection is retried with a doubling delay, capped, until l10nd is back or
/// a signal ends the process. A daemon at its connection limit is there and will take the
/// watcher once a client leaves: it is retried the same way, from the first connection on.
/// Each loss and each return is said on stderr, so a pipe reading stdout sees only changes.
enum WatchCommand {
    /// The wait before the first reconnection attempt, in seconds.
    static let firstRetryDelay = 0.1
    /// The longest wait between attempts, in seconds.
    static let maxRetryDelay = 5.0

    static func run(_ invocation: Invocation) throws {
        // Events may be an hour apart, so the watching connection waits long; whether l10nd
        // answers at all is asked first, within --timeout, as every command asks it, on a
        // connection closed before the watching one is made (at max_connections it would
        // take the watcher's place). A refusal at the limit is retried below.
        try checkAnswers(invocation)
        var connection = try DaemonCommands.connect(invocation, timeout: 3600)
        let path = connection.socketPath
        let subscribed = try connection.send(.subscribe)
        if case .error(let refusal) = subscribed, refusal.code == .unavailable {
            say("l10nd on \(path) refused the connection (\(refusal.message)); retrying")
            connection = reconnect(to: path)
        } else {
            _ = try DaemonCommands.fields(of: subscribed)
        }
        say("watching \(path); Ctrl-C stops")
        // Errors already there when watching starts are status's news, not watch's.
        let timeout = invocation.timeout
        var reported = Set(fileErrors(at: path, timeout: timeout).map(\.error))
        while true {
            let event: WireEvent
            do { event = try connection.nextEvent() } catch {
                if error.code == .timeout { continue }
                say("l10nd on \(path) went away (\(error.message)); reconnecting")
                connection = reconnect(to: path)
                continue
            }
            var shown = event
            if case .changed(let generation, let changes) = event, changes.isEmpty {
                // A change of nothing is a save that did not parse (binary frames carry no
                // errors): status says where; each is shown once.
                let errors = fileErrors(at: path, timeout: timeout).filter { !$0.leftOut }.map(\.error).filter {
                    reported.insert($0).inserted
                }
                guard !errors.isEmpty else { continue }
                shown = .fileErrors(generation: generation, errors: errors)
            }
            let text: String
            switch shown {
            case .changed(let generation, let changes):
                text =
                    "generation \(generation): "
                    + changes.map { DisplayText.escaped("\($0.language)/\($0.table)") }.joined(separator: ", ")
            case .fileErrors(let generation, let errors):
                // A broken save: where, as lint says it, and that the last good text is served.
                text = errors.map {
                    DisplayText.escaped(
                        "\($0.file):\($0.line):\($0.column): error: \($0.message) "
                            + "(generation \(generation), with the file's last good text, is still served)")
                }.joined(separator: "\n")
            }
            // Written unbuffered: a pipe reader sees each change the moment it happens.
            let line =
                invocation.json ? String(decoding: JSONLineCodec.encode(.event(shown)).dropLast(), as: UTF8.self) : text
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
            if case .changed(let generation, let changes) = shown, !changes.isEmpty {
                // A save that parsed but left entries out (a comment never closed, an array
                // value): its shortened table is served; each entry lost is said once, in
                // either format.
                let lost = fileErrors(at: path, timeout: timeout).filter(\.leftOut).map(\.error).filter {
                    reported.insert($0).inserted
                }
                let warnings = lost.map {
                    (invocation.json
                        ? warningObject($0, generation: generation).jsonText
                        : DisplayText.escaped("\($0.file):\($0.line):\($0.column): warning: \($0.message)")) + "\n"
                }
                if !warnings.isEmpty { FileHandle.standardOutput.write(Data(warnings.joined().utf8)) }
            }
        }
    }

    /// Fails when l10nd does not answer `hello` within `--timeout`, or refuses for any reason
    /// but its connection limit.
    static func checkAnswers(_ invocation: Invocation) throws {
        let probe = try DaemonCommands.connect(invocation)
        let hello: WireReply
        do { hello = try probe.send(.hello) } catch {
            guard error.code == .timeout else { throw error }
            throw DaemonCommands.didNotAnswer(probe.socketPath, within: invocation.timeout)
        }
        if case .error(let refusal) = hello, refusal.code == .unavailable { return }
        _ = try DaemonCommands.fields(of: hello)
    }

    /// `--format json`'s line for an entry a save left out, what the text form prints as
    /// `FILE:LINE:COL: warning: MESSAGE`: `{"warning":"left_out","generation":N,"file":…,
    /// "line":…,"column":…,"message":…}`, beside the daemon's `changed` events.
    static func warningObject(_ error: WireFileError, generation: UInt64) -> WireValue {
        .object([
            "warning": "left_out", "generation": .integer(Int64(generation)), "file": .string(error.file),
            "line": .integer(Int64(error.line)), "column": .integer(Int64(error.column)),
            "message": .string(error.message),
        ])
    }

    /// A new subscribed connection to `path`, trying until one answers.
    static func reconnect(to path: String) -> DaemonConnection {
        var delay = firstRetryDelay
        while true {
            usleep(useconds_t(delay * 1_000_000))
            delay = min(delay * 2, maxRetryDelay)
            guard let connection = try? DaemonConnection(socketPath: path, timeout: 3600),
                let status = try? DaemonCommands.fields(.status, on: connection),
                (try? DaemonCommands.fields(.subscribe, on: connection)) != nil
            else { continue }
            let generation = status["generation"]?.integerValue.map { " at generation \($0)" } ?? ""
            say("reconnected to l10nd on \(path)\(generation); changes made while it was away are not shown")
            return connection
        }
    }

    /// The files l10nd now serves the last good text of because they do not parse, and the
    /// entries it leaves out of files it serves (`leftOut`), as its `status` lists them (asked
    /// on a connection of its own: the watching one is for events).
    static func fileErrors(at path: String, timeout: Double) -> [(error: WireFileError, leftOut: Bool)] {
        guard let connection = try? DaemonConnection(socketPath: path, timeout: timeout),
            let status = try? DaemonCommands.fields(.status, on: connection)
        else { return [] }
        return (status["errors"]?.arrayValue ?? []).compactMap { error in
            guard let file = error["file"]?.stringValue, let line = error["line"]?.integerValue,
                let column = error["column"]?.integerValue
            else { return nil }
            return (
                WireFileError(
                    file: file, line: Int(line), column: Int(column), message: error["message"]?.stringValue ?? ""),
                error["left_out"]?.boolValue == true
            )
        }
    }

    /// A note for the person watching, on stderr.
    static func say(_ message: String) {
        FileHandle.standardError.write(Data("l10nctl: \(message)\n".utf8))
    }
}
