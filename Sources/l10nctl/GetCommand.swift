import CommandLineHelp
import Foundation
import Localization
import LocalizationCore

/// `l10nctl get KEY --lang TAG`: one lookup through the client library, so the CLI and
/// programs see the same answers.
///
/// Named files (`--resources`, else `L10N_RESOURCES`) are read in the process (embedded
/// mode); otherwise the daemon is asked in direct mode (mapped mode with `L10N_MODE=mapped`,
/// or `cached`, its old name, as a program so configured asks), and an unreachable daemon is a failure rather than the
/// key echoed back. Nothing fails quietly: a `--resources` directory that is missing or
/// holds no language is an error, a language tag nothing matches (`jp`) a warning, and with
/// `--strict` a key no language has is a failure.
enum GetCommand {
    static func run(_ invocation: Invocation) throws {
        let parsed = invocation.arguments
        guard parsed.positionals.count == 1, let key = parsed.positionals.first else {
            throw UsageError("get takes exactly one KEY")
        }
        for tag in parsed.values("lang") {
            do { _ = try LanguageTag.preferences(tag) } catch { throw UsageError("\(error)") }
        }
        var environment = ProcessInfo.processInfo.environment
        let languages =
            parsed.values("lang").isEmpty
            ? PreferredLanguages.from(environment: environment).map(\.identifier) : parsed.values("lang")
        // Kept as written: `1.50` and `1.5` can select different forms (CLDR's `v` operand).
        // One `--count` selects every variable's form; several are the format's arguments
        // in order, each selecting the variables of its own position.
        let counts = try parsed.values("count").map { text throws(UsageError) in
            guard let operands = PluralOperands(text) else {
                throw UsageError("--count takes a number such as 21 or 1.5, not '\(text)'")
            }
            return (operands: operands, text: text)
        }
        let roots = invocation.globals.values[.resources, default: []]
        let useFiles = !roots.isEmpty || !(environment["L10N_RESOURCES"] ?? "").isEmpty
        let problems = ResourceRootProblem.check(roots)
        for problem in problems where problem.isWarning { warn("\(problem)") }
        if problems.contains(where: { !$0.isWarning }) {
            throw CommandFailure(problems.filter { !$0.isWarning }.map(\.description).joined(separator: "; "))
        }
        if roots.isEmpty {
            let inherited = (environment["L10N_RESOURCES"] ?? "").split(separator: ":").map(String.init)
            for problem in ResourceRootProblem.check(inherited) { warn("\(problem) (from L10N_RESOURCES)") }
        }
        // `cached`, a mode of earlier versions, is mapped mode's old name (CLIENT.md).
        let daemonMode: LookupMode = ["mapped", "cached"].contains(environment["L10N_MODE"]) ? .mapped : .direct
        // The localizer's own choice from the environment is replaced by the one above.
        environment["L10N_MODE"] = "embedded"
        // Only the failure below is reported: the library's own notice would repeat it.
        let localizer = Localizer(environment: environment, log: { _ in })
        if !roots.isEmpty {
            localizer.useResources(at: roots, developmentLanguage: invocation.developmentLanguage)
        }
        // The library connects (and says hello) as the daemon is chosen: the time limit runs from here.
        let started = Date()
        if !useFiles {
            let socket = invocation.socket ?? DaemonConnection.socketPath(environment: environment)
            localizer.useDaemon(socketPath: socket, mode: daemonMode, timeout: invocation.timeout)
        }
        let table = try TableArgument.checked(parsed.value("table"))
        let plural: PluralCounts =
            switch counts.count {
            case 0: .none
            case 1: .count(counts[0].operands)
            default: .counts(counts.map(\.operands))
            }
        let (result, source) = localizer.lookupWithSource(key, languages: languages, table: table, plural: plural)
        if !useFiles, source != .daemon {
            throw DaemonCommands.unanswered(
                socketPath: invocation.socket ?? DaemonConnection.socketPath(environment: environment),
                explicit: invocation.socket != nil, timeout: invocation.timeout, started: started)
        }
        // A table no language has answers every key as itself: that is a mistake to say, with
        // the tables there are, not a key echoed back with exit 0.
        if let table, let served = localizer.servedTables, !served.isEmpty, !served.contains(table) {
            let place = useFiles ? "the resources" : "l10nd"
            throw CommandFailure(TableArgument.unknown(table, served: served, in: place))
        }
        for tag in localizer.unmatchedLanguages(parsed.values("lang")) {
            warn(
                "no language served matches '\(tag)': check its spelling ('l10nctl languages' lists them); the value comes from the fallback chain"
            )
        }
        // With counts, the plural forms are selected; fill in the numbers they show: an
        // integer conversion the count's integral part, by which its form was chosen.
        let kinds = FormatSpecifier.argumentKinds(of: FormatSpecifier.parse(result.value))
        let arguments = counts.enumerated().map { Self.argument($1.text, integer: kinds[$0 + 1] == .integer) }
        // A format that reads more arguments than the counts given (`%d of %d` with one
        // `--count`) is printed as far as it fills, and the command fails saying so: a
        // `%2$ld` left in the output is never an answer with exit 0.
        var unfilled: FormatMismatch?
        var value = result.value
        if !counts.isEmpty {
            do { value = try LocalizedFormatter.format(result.value, arguments) } catch {
                unfilled = error
                value = LocalizedFormatter.formatLeniently(result.value, arguments)
            }
        }
        // A count no plural form and no conversion takes changes nothing: Foundation would
        // return the text as it is too (exit 0), but the asker meant it for something. (An
        // entry's plural forms are known from the files; a form that leaves the number out,
        // `one` = "a file", took the count to be chosen.)
        if !counts.isEmpty, kinds.isEmpty, result.entry.map({ $0.plural == nil }) ?? !result.found {
            warn(
                "'\(key)' has no plural forms and its value no conversion for --count to fill: the count changes nothing"
            )
        }
        if invocation.json {
            let object: [String: Any] = [
                "value": value, "found": result.found, "lang": result.language?.identifier ?? NSNull(),
            ]
            let data = try JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(value)
        }
        if let unfilled {
            let hint =
                (kinds.keys.max() ?? 0) > counts.count
                ? "; give --count once per argument (--count 3 --count 1)" : ""
            throw CommandFailure(
                "the value of '\(key)' does not fit the counts given (\(unfilled.message))\(hint): printed as far as it fills"
            )
        }
        if parsed.flags.contains("strict"), !result.found {
            throw CommandFailure("'\(key)' is in no language of the chain (--strict)")
        }
    }

    /// Writes `l10nctl: warning: message` to standard error.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("l10nctl: warning: \(message)\n".utf8))
    }

    /// The number `--count` gave, as the format's argument: an `Int` when whole or when it
    /// goes to an `integer` conversion (its integral part, docs/PLURALS.md), else a `Double`.
    static func argument(_ text: String, integer: Bool) -> any CVarArg {
        if let whole = Int(text) { return whole }
        guard let number = Double(text) else { return text }
        if integer, let whole = Int(exactly: number.rounded(.towardZero)) { return whole }
        return number
    }
}
