import Foundation
import LocalizationCore
import LocalizationInterchange

/// `l10nctl export DIR --lang TAG [--format xliff|po] [--output FILE]`: the translatable
/// strings of a resource directory for a translator's tool.
enum ExportCommand {
    static func run(_ arguments: ArraySlice<String>) throws {
        let parsed = try CommandArguments(
            arguments, valueOptions: ["lang", "format", "output", "development-language"], flagOptions: [])
        let project = try InterchangeArguments.project(parsed, command: "export")
        let format = try InterchangeArguments.format(parsed)
        let text = format == "po" ? PODocument.render(project) : XLIFFDocument.render(project)
        if let output = parsed.value("output") {
            guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8)) else {
                throw CommandFailure("\(output): cannot be written")
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}

/// What `export` and `import` share: the resource directory, the languages and the format.
enum InterchangeArguments {
    static func project(_ parsed: CommandArguments, command: String) throws -> TranslationProject {
        guard let root = parsed.positionals.first else { throw UsageError("\(command) takes a resource directory") }
        guard let lang = parsed.value("lang") else { throw UsageError("\(command) needs --lang TAG") }
        let language: LanguageTag
        let development: LanguageTag
        do {
            language = try LanguageTag(lang)
            development = try LanguageTag(parsed.value("development-language") ?? "en")
        } catch { throw UsageError("\(error)") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("\(root): no such directory")
        }
        do { return try TranslationProject(root: root, developmentLanguage: development, language: language) } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// `--format`, else the output or input file's extension, else XLIFF.
    static func format(_ parsed: CommandArguments, file: String? = nil) throws -> String {
        let named = file ?? parsed.value("output") ?? ""
        let format = parsed.value("format") ?? (named.hasSuffix(".po") ? "po" : "xliff")
        guard format == "xliff" || format == "po" else { throw UsageError("--format is xliff or po, not '\(format)'") }
        return format
    }
}
