import CommandLineHelp
import Foundation
import LocalizationCore
import LocalizationInterchange

/// `l10nctl export DIR --lang TAG [--format xliff|po] [--output FILE]`: the translatable
/// strings of a resource directory for a translator's tool.
enum ExportCommand {
    static func run(_ invocation: Invocation) throws {
        let parsed = invocation.arguments
        let project = try InterchangeArguments.project(invocation, command: "export")
        let format = InterchangeArguments.format(invocation, file: parsed.value("output"))
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
    static func project(_ invocation: Invocation, command: String, language fromFile: String? = nil) throws
        -> TranslationProject
    {
        guard let root = invocation.arguments.positionals.first else {
            throw UsageError("\(command) takes a resource directory")
        }
        guard let lang = invocation.arguments.value("lang") ?? fromFile else {
            throw UsageError("\(command) needs --lang TAG")
        }
        let language: LanguageTag
        let development: LanguageTag
        do {
            language = try LanguageTag(lang)
            development = try LanguageTag(invocation.developmentLanguage)
        } catch { throw UsageError("\(error)") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("\(root): no such directory")
        }
        let project: TranslationProject
        do { project = try TranslationProject(root: root, developmentLanguage: development, language: language) } catch
        {
            throw CommandFailure("\(error)")
        }
        // A translator's German in de_DE-typo.lproj is neither exported nor written to: said, as lint says it.
        SkippedNameWarnings.write(project.skipped, consequence: "neither exported nor imported into")
        return project
    }

    /// `--format`, else `po` for a file named `.po`, else XLIFF.
    static func format(_ invocation: Invocation, file: String?) -> String {
        invocation.globals.format ?? ((file ?? "").hasSuffix(".po") ? "po" : "xliff")
    }
}
