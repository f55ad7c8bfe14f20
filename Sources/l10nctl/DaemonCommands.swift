import Foundation
import Localization
import LocalizationWire

/// The commands that talk to a running `l10nd`: status, reload, watch, missing, reset,
/// languages.
enum DaemonCommands {
    /// Connects to `--socket`, else `L10N_SOCKET`, else the default path.
    static func connect(_ parsed: CommandArguments, timeout: Double = 10) throws -> DaemonConnection {
        do { return try DaemonConnection(socketPath: parsed.value("socket"), timeout: timeout) } catch {
            throw CommandFailure("\(error.message) (start l10nd, or give --socket PATH or L10N_SOCKET)")
        }
    }

    /// Sends `operation` and returns the reply's fields, turning an error reply into a failure.
    static func fields(_ operation: WireOperation, on connection: DaemonConnection) throws -> [String: WireValue] {
        switch try connection.send(operation) {
        case .fields(let fields): return fields
        case .error(let error): throw CommandFailure("the daemon refused: \(error.message) (\(error.code))")
        default: throw CommandFailure("the daemon sent an unexpected reply")
        }
    }

    /// Sends `operation` for a command whose only options are `--socket` and `--json`; with
    /// `--json` prints the reply as it came and returns nil, else returns it for the caller
    /// to print.
    static func fieldsForText(
        _ operation: WireOperation, _ arguments: ArraySlice<String>
    ) throws -> [String: WireValue]? {
        let parsed = try CommandArguments(arguments, valueOptions: ["socket"], flagOptions: ["json"])
        let reply = try fields(operation, on: try connect(parsed))
        guard parsed.flags.contains("json") else { return reply }
        print(WireValue.object(reply).jsonText)
        return nil
    }

    static func status(_ arguments: ArraySlice<String>) throws {
        guard let status = try fieldsForText(.status, arguments) else { return }
        func integer(_ name: String) -> Int64 { status[name]?.integerValue ?? 0 }
        print(
            "generation \(integer("generation")): \(integer("languages")) languages, \(integer("tables")) tables, \(integer("keys")) keys in \(integer("files")) files"
        )
        if let roots = status["roots"]?.arrayValue {
            print("resources: " + roots.compactMap(\.stringValue).joined(separator: ", "))
        }
        let errors = status["errors"]?.arrayValue ?? []
        print(errors.isEmpty ? "errors: none" : "errors (\(errors.count); each file keeps its last good table):")
        for error in errors {
            let file = error["file"]?.stringValue ?? "?"
            print(
                "  \(file):\(error["line"]?.integerValue ?? 0):\(error["column"]?.integerValue ?? 0): \(error["message"]?.stringValue ?? "")"
            )
        }
        for group in ["counters", "watcher", "server", "socket"] {
            guard let members = status[group]?.objectValue else { continue }
            let text = members.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.jsonText)" }.joined(
                separator: " ")
            print("\(group): \(text)")
        }
    }

    static func reload(_ arguments: ArraySlice<String>) throws {
        let parsed = try CommandArguments(arguments, valueOptions: ["socket", "timeout"], flagOptions: [])
        let timeout = Double(parsed.value("timeout") ?? "60") ?? 60
        let reply = try fields(.reload, on: try connect(parsed, timeout: timeout))
        let changes = reply["changes"]?.arrayValue ?? []
        print(
            "reloaded: generation \(reply["generation"]?.integerValue ?? 0), \(changes.count) table\(changes.count == 1 ? "" : "s") changed"
        )
    }

    static func reset(_ arguments: ArraySlice<String>) throws {
        guard let reply = try fieldsForText(.reset, arguments) else { return }
        let counters = (reply["counters"]?.objectValue ?? [:]).sorted { $0.key < $1.key }
        print("reset; the counters held: " + counters.map { "\($0.key)=\($0.value.jsonText)" }.joined(separator: " "))
        let missing = reply["missing"]?.arrayValue ?? []
        print(
            "missing-key report held \(missing.count) key\(missing.count == 1 ? "" : "s")"
                + ", \(reply["dropped"]?.integerValue ?? 0) dropped")
    }

    static func languages(_ arguments: ArraySlice<String>) throws {
        guard let reply = try fieldsForText(.languages, arguments) else { return }
        for language in reply["languages"]?.arrayValue ?? [] {
            let tables = language["tables"]?.arrayValue?.compactMap(\.stringValue) ?? []
            print("\(language["lang"]?.stringValue ?? "?")\t\(tables.joined(separator: ", "))")
        }
    }

    static func watch(_ arguments: ArraySlice<String>) throws {
        let parsed = try CommandArguments(arguments, valueOptions: ["socket"], flagOptions: ["json"])
        let connection = try connect(parsed, timeout: 3600)
        _ = try fields(.subscribe, on: connection)
        FileHandle.standardError.write(Data("watching \(connection.socketPath); Ctrl-C stops\n".utf8))
        while true {
            let event: WireEvent
            do { event = try connection.nextEvent() } catch {
                if error.code == .timeout { continue }
                throw error
            }
            guard case .changed(let generation, let changes) = event else { continue }
            // Written unbuffered: a pipe reader sees each change the moment it happens.
            let line =
                parsed.flags.contains("json")
                ? String(decoding: JSONLineCodec.encode(.event(event)).dropLast(), as: UTF8.self)
                : "generation \(generation): " + changes.map { "\($0.language)/\($0.table)" }.joined(separator: ", ")
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }

    static func missing(_ arguments: ArraySlice<String>) throws {
        let parsed = try CommandArguments(
            arguments, valueOptions: ["socket", "format", "lang", "table"], flagOptions: [])
        let format = parsed.value("format") ?? "text"
        guard ["text", "json", "strings", "po"].contains(format) else {
            throw UsageError("--format is text, json, strings or po")
        }
        let reply = try fields(.missing, on: try connect(parsed))
        var entries = reply["missing"]?.arrayValue ?? []
        if let language = parsed.value("lang") {
            let wanted: String
            do { wanted = try LanguageTag(language).identifier } catch { throw UsageError("\(error)") }
            // `ja` takes the lookups asked in `ja-JP` too: one translator fills both.
            entries = entries.filter { entry in
                guard let asked = entry["lang"]?.stringValue else { return false }
                return asked == wanted || asked.hasPrefix(wanted + "-")
            }
        } else if format == "strings" || format == "po" {
            throw UsageError("--format \(format) needs --lang: a skeleton is for one language")
        }
        if let table = parsed.value("table") {
            entries = entries.filter { $0["table"]?.stringValue == table }
        }
        switch format {
        case "json":
            print(WireValue.object(["missing": .array(entries), "dropped": reply["dropped"] ?? 0]).jsonText)
        case "strings":
            print(MissingStringsSkeleton.render(entries, language: parsed.value("lang") ?? ""), terminator: "")
        case "po":
            print(MissingStringsSkeleton.renderPO(entries, language: parsed.value("lang") ?? ""), terminator: "")
        default:
            for entry in entries {
                print(
                    [
                        entry["lang"]?.stringValue ?? "", entry["table"]?.stringValue ?? "",
                        entry["key"]?.stringValue ?? "",
                        "\(entry["count"]?.integerValue ?? 0)", entry["from"]?.stringValue ?? "-",
                    ].joined(separator: "\t"))
            }
        }
    }
}
