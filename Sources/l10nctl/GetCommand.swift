import Foundation
import Localization

/// `l10nctl get KEY --lang TAG`: one lookup, through the client library.
enum GetCommand {
    static func run(_ arguments: ArraySlice<String>) throws {
        let parsed = try CommandArguments(
            arguments, valueOptions: ["lang", "table", "resources", "development-language"], flagOptions: ["json"])
        guard parsed.positionals.count == 1, let key = parsed.positionals.first else {
            throw UsageError("get takes exactly one KEY")
        }
        for tag in parsed.values("lang") {
            do { _ = try LanguageTag(tag) } catch { throw UsageError("\(error)") }
        }
        let environment = ProcessInfo.processInfo.environment
        let localizer = Localizer(environment: environment)
        let roots = parsed.values("resources")
        if !roots.isEmpty {
            localizer.useResources(at: roots, developmentLanguage: parsed.value("development-language") ?? "en")
        } else if (environment["L10N_RESOURCES"] ?? "").isEmpty {
            throw UsageError("no resources: give --resources DIR or set L10N_RESOURCES")
        }
        let languages = parsed.values("lang").isEmpty
            ? PreferredLanguages.from(environment: environment).map(\.identifier) : parsed.values("lang")
        let result = localizer.lookup(key, languages: languages, table: parsed.value("table"))
        if parsed.flags.contains("json") {
            let object: [String: Any] = [
                "value": result.value, "found": result.found, "lang": result.language?.identifier ?? NSNull(),
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(result.value)
        }
    }
}
