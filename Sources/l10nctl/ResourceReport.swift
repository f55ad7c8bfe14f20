import Foundation
import Localization
import LocalizationCore
import LocalizationWire

/// What `l10nctl report` shows a project lead: coverage, plural completeness and lint
/// findings read from the files, and, when a daemon runs, what users hit untranslated.
struct ResourceReport {
    /// What users of each language hit untranslated, from the daemon's missing-key report.
    enum Untranslated {
        /// The daemon's entries (`lang`, `table`, `key`, `count`, `from`) and how many it
        /// dropped for lack of room.
        case entries([WireValue], dropped: Int64, socket: String)
        /// No daemon answered; why.
        case unavailable(String)
    }

    var roots: [String]
    var generated: Date
    var coverage: TranslationCoverage
    var plurals: PluralCompleteness
    var findings: [LintFinding]
    var untranslated: Untranslated
    var words: ReportWordCounts

    /// Reads `roots` and asks the daemon: `socket` (or `L10N_SOCKET`) must answer when
    /// given; the default socket is only asked, and its absence noted in the report.
    static func gather(
        roots: [String], developmentLanguage: LanguageTag, socket: String?, timeout: Double = Invocation.defaultTimeout
    ) throws -> ResourceReport {
        let resources = ResourceSet.load(roots: roots, developmentLanguage: developmentLanguage)
        let catalog = resources.catalog
        let coverage = TranslationCoverage(resources: resources)
        var untranslated = try untranslated(socket: socket, timeout: timeout)
        // Only this tree's: a daemon serving other directories too reports their misses as well.
        // A table name two trees share (every app has a `Localizable`) is not enough: a key
        // another language answered (`from`) is this tree's only if one of its languages has it.
        if case .entries(let entries, let dropped, let socket) = untranslated {
            let tables = Set(catalog.tables.values.flatMap(\.keys))
            untranslated = .entries(
                entries.filter { entry in
                    guard let table = entry["table"]?.stringValue, tables.contains(table) else { return false }
                    guard entry["from"]?.stringValue != nil, let key = entry["key"]?.stringValue else { return true }
                    return catalog.tables.values.contains { $0[table]?[key] != nil }
                }, dropped: dropped, socket: socket)
        }
        return ResourceReport(
            roots: roots, generated: Date(), coverage: coverage, plurals: PluralCompleteness(catalog: catalog),
            findings: ResourceLinter.lint(paths: roots, developmentLanguage: developmentLanguage),
            untranslated: untranslated, words: ReportWordCounts(catalog: catalog, coverage: coverage))
    }

    static func untranslated(socket: String?, timeout: Double) throws -> Untranslated {
        let environment = ProcessInfo.processInfo.environment
        let explicit =
            socket
            ?? environment["L10N_SOCKET"].map {
                $0.isEmpty ? $0 : DaemonConnection.socketPath(environment: environment)
            }
        let connection: DaemonConnection
        do { connection = try DaemonConnection(socketPath: explicit, timeout: timeout) } catch {
            if let explicit { throw CommandFailure("\(explicit): \(error.message)") }
            return .unavailable("no daemon answered on the default socket (\(error.message))")
        }
        let reply = try DaemonCommands.fields(.missing, on: connection)
        return .entries(
            reply["missing"]?.arrayValue ?? [], dropped: reply["dropped"]?.integerValue ?? 0,
            socket: connection.socketPath)
    }
}
