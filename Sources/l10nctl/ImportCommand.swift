import CommandLineHelp
import Foundation
import LocalizationCore
import LocalizationInterchange

/// `l10nctl import DIR FILE [--lang TAG] [--format xliff|po]`: writes a translator's XLIFF
/// or `.po` back into the resource files, changing only the values that differ.
enum ImportCommand {
    static func run(_ invocation: Invocation) throws -> Int32 {
        let parsed = invocation.arguments
        guard parsed.positionals.count == 2 else { throw UsageError("import takes a resource directory and a FILE") }
        let input = parsed.positionals[1]
        guard let data = FileManager.default.contents(atPath: input) else {
            throw CommandFailure("\(input): cannot be read")
        }
        let format = InterchangeArguments.format(invocation, file: input)
        let targets: [TranslationImport.Target]
        let project: TranslationProject
        do {
            if format == "po" {
                let (language, entries) = try PODocument.parse(String(decoding: data, as: UTF8.self))
                project = try InterchangeArguments.project(invocation, command: "import", language: language)
                targets = TranslationImport.targets(from: entries, project: project)
            } else {
                let (language, entries) = try XLIFFDocument.parse(data)
                project = try InterchangeArguments.project(invocation, command: "import", language: language)
                targets = TranslationImport.targets(from: entries)
            }
        } catch let error as InterchangeError {
            throw CommandFailure("\(input): \(error)")
        }
        let outcome: TranslationImport.Outcome
        do { outcome = try TranslationImport.apply(targets, to: project) } catch { throw CommandFailure("\(error)") }
        for path in outcome.changedFiles { print("updated \(path)") }
        for reason in outcome.skipped { FileHandle.standardError.write(Data("l10nctl: skipped: \(reason)\n".utf8)) }
        FileHandle.standardError.write(
            Data(
                "\(outcome.changedValues) value\(outcome.changedValues == 1 ? "" : "s") changed in \(outcome.changedFiles.count) file\(outcome.changedFiles.count == 1 ? "" : "s")\n"
                    .utf8))
        return outcome.skipped.isEmpty ? 0 : 1
    }
}
