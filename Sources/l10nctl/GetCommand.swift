import Foundation
import Localization
import LocalizationWire

/// `l10nctl get KEY --lang TAG`: one lookup, through the client library.
enum GetCommand {
    static func run(_ arguments: ArraySlice<String>) throws {
        let parsed = try CommandArguments(
            arguments, valueOptions: ["lang", "table", "resources", "development-language", "socket", "count"], flagOptions: ["json"])
        guard parsed.positionals.count == 1, let key = parsed.positionals.first else {
            throw UsageError("get takes exactly one KEY")
        }
        for tag in parsed.values("lang") {
            do { _ = try LanguageTag(tag) } catch { throw UsageError("\(error)") }
        }
        let environment = ProcessInfo.processInfo.environment
        let languages = parsed.values("lang").isEmpty
            ? PreferredLanguages.from(environment: environment).map(\.identifier) : parsed.values("lang")
        let count = try parsed.value("count").map { text throws(UsageError) in
            guard let number = Int(text) else { throw UsageError("--count takes a whole number, not '\(text)'") }
            return number
        }
        let roots = parsed.values("resources")
        var answer: (value: String, found: Bool, language: String?)
        if roots.isEmpty, (environment["L10N_RESOURCES"] ?? "").isEmpty {
            // No files named: ask the daemon.
            let connection = try DaemonCommands.connect(parsed)
            switch try connection.send(.lookup(key: key, languages: languages, table: parsed.value("table"), count: count.map(Int64.init))) {
            case .lookup(let result): answer = (result.value, result.found, result.language)
            case .error(let error): throw CommandFailure("the daemon refused: \(error.message)")
            default: throw CommandFailure("the daemon sent an unexpected reply")
            }
        } else {
            let localizer = Localizer(environment: environment)
            if !roots.isEmpty {
                localizer.useResources(at: roots, developmentLanguage: parsed.value("development-language") ?? "en")
            }
            let result = localizer.lookup(key, languages: languages, table: parsed.value("table"), count: count)
            answer = (result.value, result.found, result.language?.identifier)
        }
        if let count {
            // The plural form is selected; fill in the number it shows.
            answer.value = LocalizedFormatter.formatLeniently(answer.value, [count])
        }
        if parsed.flags.contains("json") {
            let object: [String: Any] = ["value": answer.value, "found": answer.found, "lang": answer.language ?? NSNull()]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(answer.value)
        }
    }
}
