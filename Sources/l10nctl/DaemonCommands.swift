import CommandLineHelp
import Foundation
import Localization
import LocalizationCore
import LocalizationSockets
import LocalizationWire

/// The commands that talk to a running `l10nd`: status, reload, missing, reset, languages
/// (watch and metrics have files of their own), and socket-path, which names the socket they use.
enum DaemonCommands {
    /// Connects to `--socket`, else by the clients' socket rule (`L10N_SOCKET`, else the
    /// per-user socket if it exists, else the system socket).
    static func connect(_ invocation: Invocation, timeout: Double? = nil) throws -> DaemonConnection {
        do { return try DaemonConnection(socketPath: invocation.socket, timeout: timeout ?? invocation.timeout) } catch
        {
            let path =
                invocation.socket ?? DaemonConnection.socketPath(environment: ProcessInfo.processInfo.environment)
            throw unreachable(error, path, explicit: invocation.socket != nil, instead: "--socket PATH or L10N_SOCKET")
        }
    }

    /// Why no connection to `path` was made, with what to do: a socket that refused this
    /// user is there (l10nd runs: the message names the group to join); for one that is not,
    /// start l10nd or give `instead`.
    static func unreachable(_ error: DaemonConnectionError, _ path: String, explicit: Bool, instead: String)
        -> CommandFailure
    {
        if error.permissionRefused { return CommandFailure(error.message) }
        return CommandFailure(
            "\(error.message) (\(passedOver(path, explicit: explicit))start l10nd, or give \(instead))")
    }

    /// The paths the socket rule looked at before `path`, as the start of a parenthesis
    /// ("tried …, then …; "), so a failure names every path tried; empty for an explicit path.
    static func passedOver(_ path: String, explicit: Bool) -> String {
        guard !explicit else { return "" }
        let note = ClientSocketPath.passedOver(
            connectingTo: path, environment: ProcessInfo.processInfo.environment, userID: getuid())
        return note.isEmpty ? "" : note + "; "
    }

    /// Why a lookup through the client library got no answer from the daemon at
    /// `socketPath`: the library falls back quietly, so one more connection asks, for what
    /// is left of `timeout` after `started` (a daemon that did not answer the lookup is not
    /// waited for twice). A daemon that is there but refuses (at its connection limit) gives
    /// its reason, as for every other command; no daemon is said as such.
    static func unanswered(socketPath: String, explicit: Bool, timeout: Double, started: Date) -> CommandFailure {
        let left = timeout - Date().timeIntervalSince(started)
        guard left > 0.05 else { return didNotAnswer(socketPath, within: timeout) }
        let connection: DaemonConnection
        do { connection = try DaemonConnection(socketPath: socketPath, timeout: left) } catch {
            return unreachable(
                error, socketPath, explicit: explicit, instead: "--socket PATH, L10N_SOCKET or --resources")
        }
        do { _ = try fields(of: connection.send(.hello)) } catch let failure as CommandFailure { return failure } catch
        {
            if let error = error as? DaemonConnectionError, error.code == .timeout {
                return didNotAnswer(socketPath, within: timeout)
            }
            return CommandFailure("l10nd on \(socketPath) did not answer: \(error)")
        }
        if Date().timeIntervalSince(started) >= timeout { return didNotAnswer(socketPath, within: timeout) }
        // It answers now: a refusal that has passed (a client left), or a lookup that failed.
        return CommandFailure("l10nd on \(socketPath) did not answer the lookup; try again")
    }

    /// The socket the other commands use: `--socket`, else the clients' socket rule.
    static func socketPath(_ invocation: Invocation) {
        let path = invocation.socket ?? DaemonConnection.socketPath(environment: ProcessInfo.processInfo.environment)
        print(invocation.json ? WireValue.object(["socket": .string(path)]).jsonText : path)
    }

    /// Sends `operation` and returns the reply's fields, turning an error reply into a
    /// failure, and no answer within the connection's time limit into one that names it.
    static func fields(_ operation: WireOperation, on connection: DaemonConnection) throws -> [String: WireValue] {
        let reply: WireReply
        do { reply = try connection.send(operation) } catch  where error.code == .timeout {
            throw didNotAnswer(connection.socketPath, within: connection.timeout)
        }
        return try fields(of: reply)
    }

    /// l10nd is there (it took the connection) but gave no answer in time.
    static func didNotAnswer(_ socketPath: String, within timeout: Double) -> CommandFailure {
        CommandFailure(
            "l10nd on \(socketPath) did not answer within \(seconds(timeout)) (give --timeout SECONDS to wait longer)")
    }

    /// `10 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        let whole = value.rounded()
        return (whole == value && whole < 1e15 ? String(Int(whole)) : String(value)) + " s"
    }

    /// A reply's fields, turning an error reply into a failure.
    static func fields(of reply: WireReply) throws -> [String: WireValue] {
        switch reply {
        case .fields(let fields): return fields
        case .error(let error):
            let fix = error.code == .forbidden ? "; run it as root or as l10nd's own user" : ""
            throw CommandFailure("the daemon refused: \(error.message) (\(error.code))\(fix)")
        default: throw CommandFailure("the daemon sent an unexpected reply")
        }
    }

    /// Sends `operation`; with `--format json` prints the reply as it came and returns nil,
    /// else returns it for the caller to print as text.
    static func fieldsForText(_ operation: WireOperation, _ invocation: Invocation) throws -> [String: WireValue]? {
        let reply = try fields(operation, on: try connect(invocation))
        guard invocation.json else { return reply }
        print(WireValue.object(reply).jsonText)
        return nil
    }

    /// A field of a reply as text, escaped; said as absent when the daemon left it out (an
    /// older or other l10nd), never a bare `?` that reads as a value.
    static func reported(_ field: WireValue?) -> String {
        field?.stringValue.map(DisplayText.escaped) ?? notReported
    }

    /// What stands for a field the daemon did not send.
    static let notReported = "(not reported by this l10nd)"

    static func status(_ invocation: Invocation) throws {
        guard let status = try fieldsForText(.status, invocation) else { return }
        // A count the daemon left out is said as such: a `0` would read as an empty daemon.
        func integer(_ name: String) -> String { status[name]?.integerValue.map { "\($0)" } ?? notReported }
        for problem in status["problems"]?.arrayValue ?? [] {
            print("DEGRADED: \(DisplayText.escaped(problem.stringValue ?? problem.jsonText))")
        }
        print(
            "generation \(integer("generation")): \(integer("languages")) languages, \(integer("tables")) tables, \(integer("keys")) keys in \(integer("files")) files"
        )
        if let roots = status["roots"]?.arrayValue {
            print("resources: " + roots.compactMap(\.stringValue).map(DisplayText.escaped).joined(separator: ", "))
        }
        // The language every chain ends with: what a key no other language has is shown in.
        if let development = status["development_language"]?.stringValue {
            print("development language: \(DisplayText.escaped(development))")
        }
        printConfiguration(status["configuration"]?.objectValue ?? [:])
        // A file that does not parse keeps its last good table; an entry left out of one that
        // does is lost while the rest of the file is served: each under a heading that says so.
        let all = status["errors"]?.arrayValue ?? []
        let errors = all.filter { $0["left_out"]?.boolValue != true }
        let leftOut = all.filter { $0["left_out"]?.boolValue == true }
        print(errors.isEmpty ? "errors: none" : "errors (\(errors.count); each file keeps its last good table):")
        func list(_ errors: [WireValue]) {
            for error in errors {
                let file = reported(error["file"])
                let message = DisplayText.escaped(error["message"]?.stringValue ?? "")
                print("  \(file):\(error["line"]?.integerValue ?? 0):\(error["column"]?.integerValue ?? 0): \(message)")
            }
        }
        list(errors)
        if !leftOut.isEmpty {
            print("entries left out (\(leftOut.count); the rest of each file is served):")
            list(leftOut)
        }
        printUnwatched(status["watcher"]?.objectValue ?? [:])
        for group in ["counters", "watcher", "server", "socket"] {
            guard let members = status[group]?.objectValue else { continue }
            let text = members.filter { $0.key != "unwatched" }.sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value.jsonText)" }.joined(separator: " ")
            print("\(group): \(text)")
        }
    }

    /// What became of the configuration, as `status --format json` has it under
    /// `configuration`: the file and its reloads, a reload refused, values waiting for a
    /// restart, and the warnings (a development language no root serves).
    private static func printConfiguration(_ configuration: [String: WireValue]) {
        guard !configuration.isEmpty else { return }  // an l10nd from before reloads read it
        func strings(_ name: String) -> [String] {
            (configuration[name]?.arrayValue ?? []).compactMap(\.stringValue).map(DisplayText.escaped)
        }
        let file = configuration["file"]?.stringValue.map(DisplayText.escaped) ?? "none (started without --config)"
        let reloads = configuration["reloads"]?.integerValue ?? 0
        print("configuration: \(file), read again \(reloads) time\(reloads == 1 ? "" : "s")")
        if let error = configuration["last_error"]?.stringValue {
            print("configuration: the last reload was refused, the running one is kept: \(DisplayText.escaped(error))")
        }
        for waiting in strings("restart_needed") {
            print("configuration: \(waiting) takes effect at the next restart (systemctl restart l10nd)")
        }
        for warning in strings("warnings") { print("WARNING: \(warning)") }
    }

    /// The directories the daemon reads but does not watch, one a line with the reason.
    private static func printUnwatched(_ watcher: [String: WireValue]) {
        let listed = watcher["unwatched"]?.arrayValue ?? []
        guard !listed.isEmpty else { return }
        let total = watcher["unwatched_count"]?.integerValue ?? Int64(listed.count)
        print("unwatched directories (\(total)):")
        for directory in listed {
            // A file skipped for its name is listed here too, and said to be one.
            let file = directory["kind"]?.stringValue == "file" ? " [file]" : ""
            let polled = (directory["polled"]?.boolValue == true ? " [polled]" : "") + file
            let path = reported(directory["path"])
            let message = DisplayText.escaped(directory["message"]?.stringValue ?? "")
            print("  \(path): \(reported(directory["reason"]))\(polled): \(message)")
        }
        if total > listed.count { print("  … and \(total - Int64(listed.count)) more") }
    }

    static func reload(_ invocation: Invocation) throws {
        guard let reply = try fieldsForText(.reload, invocation) else { return }
        let changes = reply["changes"]?.arrayValue ?? []
        let generation = reply["generation"]?.integerValue ?? 0
        // "0 tables changed" read as an edit lost: the watcher serves saves as they happen, so
        // a rescan that finds nothing new means l10nd already served the files as they are.
        print(
            changes.isEmpty
                ? "reloaded: l10nd was already up to date at generation \(generation) (every change on disk was "
                    + "already served; the rescan found nothing new)"
                : "reloaded: generation \(generation), \(changes.count) table\(changes.count == 1 ? "" : "s") changed")
        // What the daemon did with its configuration file (l10nd 0.x before this: nothing).
        guard let configuration = reply["configuration"] else { return }
        func strings(_ name: String) -> [String] { configuration[name]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        let file = configuration["file"]?.stringValue
        for applied in strings("applied") { print("configuration: \(applied)") }
        for waiting in strings("restart_needed") {
            print("configuration: \(waiting) takes effect at the next restart (systemctl restart l10nd)")
        }
        // On stderr, as l10nctl's other warnings: the reload itself worked.
        for warning in strings("warnings") {
            FileHandle.standardError.write(Data("l10nctl: warning: \(DisplayText.escaped(warning))\n".utf8))
        }
        if let error = configuration["error"]?.stringValue {
            throw CommandFailure("the configuration was not reloaded, the running one is kept: \(error)")
        }
        // "Nothing changed" only when nothing did: a value waiting for a restart is a change.
        guard strings("applied").isEmpty, strings("restart_needed").isEmpty else { return }
        print(
            file.map { "configuration: \($0) read, nothing changed" }
                ?? "configuration: started without --config, no file to read")
    }

    static func reset(_ invocation: Invocation) throws {
        guard let reply = try fieldsForText(.reset, invocation) else { return }
        let missing = reply["missing"]?.arrayValue ?? []
        print(
            "emptied the missing-key report: it held \(missing.count) key\(missing.count == 1 ? "" : "s")"
                + ", \(reply["dropped"]?.integerValue ?? 0) dropped")
        if reply["counters_reset"] == .bool(false) {
            print("counters are not reset: they count since l10nd started, for rates (l10nctl metrics)")
        }
    }

    static func languages(_ invocation: Invocation) throws {
        guard let reply = try fieldsForText(.languages, invocation) else { return }
        for language in reply["languages"]?.arrayValue ?? [] {
            let tables = language["tables"]?.arrayValue?.compactMap(\.stringValue).map(DisplayText.escaped) ?? []
            print("\(reported(language["lang"]))\t\(tables.joined(separator: ", "))")
        }
    }

    static func missing(_ invocation: Invocation) throws {
        let parsed = invocation.arguments
        let format = invocation.format
        let table = try TableArgument.checked(parsed.value("table"))
        let connection = try connect(invocation)
        let reply = try fields(.missing, on: connection)
        var entries = reply["missing"]?.arrayValue ?? []
        let served = try fields(.languages, on: connection)["languages"]?.arrayValue ?? []
        if let language = parsed.value("lang") {
            let wanted: String
            do { wanted = try LanguageTag(language).identifier } catch { throw UsageError("\(error)") }
            // `ja` takes the lookups asked in `ja-JP` too: one translator fills both.
            entries = entries.filter { entry in
                guard let asked = entry["lang"]?.stringValue else { return false }
                return asked == wanted || asked.hasPrefix(wanted + "-")
            }
            // A language l10nd does not serve is said: with no lookups asked in it either, it
            // is a mistake (`zz`, `jp`); with some, they are what its users asked for.
            let languages = served.compactMap { $0["lang"]?.stringValue.flatMap { try? LanguageTag($0) } }
            if !FallbackChain.unmatched([language], available: languages).isEmpty {
                let listed = languages.map(\.identifier).joined(separator: ", ")
                if entries.isEmpty {
                    throw CommandFailure(
                        "l10nd serves no language matching '\(language)' and no lookup asked for it (it serves: \(listed))"
                    )
                }
                GetCommand.warn(
                    "l10nd serves no language matching '\(language)' (it serves: \(listed)); the keys below are what "
                        + "lookups in it asked for")
            }
        } else if format == "strings" || format == "po" {
            throw UsageError("--format \(format) needs --lang: a skeleton is for one language")
        }
        if let table {
            entries = entries.filter { $0["table"]?.stringValue == table }
            let tables = Set(served.flatMap { ($0["tables"]?.arrayValue ?? []).compactMap(\.stringValue) }).sorted()
            if !tables.contains(table) {
                if entries.isEmpty { throw CommandFailure(TableArgument.unknown(table, served: tables, in: "l10nd")) }
                GetCommand.warn(
                    TableArgument.unknown(table, served: tables, in: "l10nd")
                        + "; the keys below are what lookups in it "
                        + "asked for")
            }
        }
        // The files behind the report: the directories given, else the daemon's own roots.
        let roots =
            invocation.paths.isEmpty
            ? (try? fields(.status, on: try connect(invocation)))?["roots"]?.arrayValue?.compactMap(\.stringValue) ?? []
            : invocation.paths
        let development: LanguageTag
        do { development = try LanguageTag(invocation.developmentLanguage) } catch { throw UsageError("\(error)") }
        let sources = roots.isEmpty ? nil : MissingStringsSources(roots: roots, developmentLanguage: development)
        if let sources {
            SkippedNameWarnings.write(sources.skipped, consequence: "not read: a key translated there is still missing")
            // A key translated since it was reported is no longer missing.
            entries = entries.filter { entry in
                !sources.isTranslated(
                    language: entry["lang"]?.stringValue ?? "", table: entry["table"]?.stringValue ?? "Localizable",
                    key: entry["key"]?.stringValue ?? "")
            }
        }
        switch format {
        case "json":
            print(WireValue.object(["missing": .array(entries), "dropped": reply["dropped"] ?? 0]).jsonText)
        case "strings":
            let language = parsed.value("lang") ?? ""
            let (text, plurals) = MissingStringsSkeleton.render(entries, language: language, sources: sources)
            print(text, terminator: "")
            // A plural key left out of the file is a key the translator would never see filled.
            guard plurals.isEmpty else {
                throw CommandFailure(
                    "\(plurals.count) plural key\(plurals.count == 1 ? " has" : "s have") no .strings form and "
                        + "\(plurals.count == 1 ? "is" : "are") not in the skeleton: "
                        + plurals.map(DisplayText.escaped).joined(separator: ", ")
                        + "; l10nctl missing --lang \(language) --format po writes them with their plural forms")
            }
        case "po":
            print(
                MissingStringsSkeleton.renderPO(entries, language: parsed.value("lang") ?? "", sources: sources),
                terminator: "")
        default:
            for entry in entries {
                // Escaped: a key's tab or newline would shift the columns or forge a row, its
                // ESC reach the terminal (the JSON, strings and po formats escape by their syntax).
                print(
                    [
                        entry["lang"]?.stringValue ?? "", entry["table"]?.stringValue ?? "",
                        entry["key"]?.stringValue ?? "",
                        "\(entry["count"]?.integerValue ?? 0)", entry["from"]?.stringValue ?? "-",
                    ].map(DisplayText.escaped).joined(separator: "\t"))
            }
        }
    }
}
