import CommandLineHelp
import Foundation
import LocalizationCore
import LocalizationInterchange

/// `l10nctl import DIR FILE [--lang TAG] [--accept-fuzzy] [--force] [--format xliff|po]`: writes a translator's XLIFF
/// or `.po` back into the resource files, changing only the values that differ.
enum ImportCommand {
    static func run(_ invocation: Invocation) throws -> Int32 {
        let parsed = invocation.arguments
        guard parsed.positionals.count == 2 else { throw UsageError("import takes a resource directory and a FILE") }
        let input = try xliffInside(parsed.positionals[1])
        guard let data = FileManager.default.contents(atPath: input) else {
            throw CommandFailure("\(input): cannot be read")
        }
        let format = InterchangeArguments.format(invocation, file: input)
        let reading: TranslationImport.Reading
        let project: TranslationProject
        do {
            if format == "po" {
                let contents = try PODocument.parse(String(decoding: data, as: UTF8.self))
                project = try InterchangeArguments.project(invocation, command: "import", language: contents.language)
                try checkLanguage(contents.language, declaredBy: "its Language: header", of: project, invocation, input)
                reading = TranslationImport.read(contents, into: project)
            } else {
                let (language, entries) = try XLIFFDocument.parse(data)
                project = try InterchangeArguments.project(invocation, command: "import", language: language)
                try checkLanguage(language, declaredBy: "its target-language", of: project, invocation, input)
                reading = TranslationImport.read(entries, into: project)
            }
        } catch let error as InterchangeError {
            throw CommandFailure("\(input): \(error)")
        }
        let targets = reading.targets
        for kept in reading.keptWithoutTarget {
            FileHandle.standardError.write(Data("l10nctl: warning: \(input): \(kept)\n".utf8))
        }
        for reason in reading.unplaced {
            FileHandle.standardError.write(Data("l10nctl: error: \(input): \(reason)\n".utf8))
        }
        let outcome: TranslationImport.Outcome
        do {
            outcome = try TranslationImport.apply(
                targets, to: project, acceptFuzzy: parsed.flags.contains("accept-fuzzy"),
                force: parsed.flags.contains("force"))
        } catch { throw CommandFailure("\(error)") }
        for (language, count) in outcome.foreignBases.sorted(by: { $0.key < $1.key }) {
            FileHandle.standardError.write(
                Data(
                    ("l10nctl: warning: \(count) unit\(count == 1 ? "" : "s") of \(input) carr\(count == 1 ? "ies" : "y") "
                        + "the export base of \(DisplayText.escaped(language)), not of "
                        + "\(project.language.identifier) (a msgmerge with a \(DisplayText.escaped(language)) export as "
                        + "the template copies its l10nd-base comments): not checked for values changed since the "
                        + "export\n").utf8))
        }
        for conflict in outcome.conflicts {
            FileHandle.standardError.write(Data("l10nctl: conflict: \(conflict)\n".utf8))
        }
        if !outcome.conflicts.isEmpty, !parsed.flags.contains("force") {
            throw CommandFailure(
                "\(outcome.conflicts.count) translation\(outcome.conflicts.count == 1 ? "" : "s") would replace "
                    + "values changed since the export; nothing is written (--force takes the file's translations)")
        }
        for path in outcome.changedFiles { print("updated \(DisplayText.escaped(path))") }
        if outcome.keptNewer > 0 {
            FileHandle.standardError.write(
                Data(
                    ("\(outcome.keptNewer) value\(outcome.keptNewer == 1 ? "" : "s") changed in the files since the "
                        + "export and untouched in \(input) kept\n").utf8))
        }
        // Written (a catalog's as needs_review) or skipped below, but said either way: the
        // translator must look at each again.
        for note in outcome.outdated { FileHandle.standardError.write(Data("l10nctl: outdated: \(note)\n".utf8)) }
        for warning in outcome.forcedFormats {
            FileHandle.standardError.write(Data("l10nctl: warning: \(warning)\n".utf8))
        }
        for reason in outcome.refused {
            FileHandle.standardError.write(Data("l10nctl: error: \(input): \(reason)\n".utf8))
        }
        for reason in outcome.skipped { FileHandle.standardError.write(Data("l10nctl: skipped: \(reason)\n".utf8)) }
        FileHandle.standardError.write(
            Data(
                "\(outcome.changedValues) value\(outcome.changedValues == 1 ? "" : "s") changed in \(outcome.changedFiles.count) file\(outcome.changedFiles.count == 1 ? "" : "s")\n"
                    .utf8))
        return outcome.skipped.isEmpty && outcome.refused.isEmpty && reading.unplaced.isEmpty ? 0 : 1
    }

    /// `--lang` only fills in the language of a file that declares none: a file that declares
    /// another (German under `--lang fr`) would write its text into the wrong localization,
    /// so nothing is written. The tags are compared as lookup matches them (`de_DE` is `de`).
    static func checkLanguage(
        _ declared: String?, declaredBy header: String, of project: TranslationProject, _ invocation: Invocation,
        _ input: String
    ) throws {
        guard let declared, let lang = invocation.arguments.value("lang") else { return }
        let tag: LanguageTag
        do { tag = try LanguageTag(declared) } catch {
            throw CommandFailure(
                "\(input): \(header) \(DisplayText.escaped(declared)) is no language tag, so it cannot be checked "
                    + "against --lang \(DisplayText.escaped(lang)); nothing is written (correct the file's language)")
        }
        guard project.isLanguage(tag) else {
            throw CommandFailure(
                "\(input): \(header) says \(tag.identifier), but --lang says \(DisplayText.escaped(lang)); nothing is written "
                    + "(--lang only fills in a file that declares no language: drop it, or correct the file's)")
        }
    }

    /// The XLIFF an `.xcloc` folder (Xcode's localization catalog) holds,
    /// `Localized Contents/LANG.xliff`; any other path as given.
    static func xliffInside(_ path: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return path
        }
        let contents = (path as NSString).appendingPathComponent("Localized Contents")
        let xliffs = ((try? FileManager.default.contentsOfDirectory(atPath: contents)) ?? []).filter {
            $0.hasSuffix(".xliff")
        }
        guard xliffs.count == 1 else {
            throw CommandFailure(
                "\(path): a directory, and not an .xcloc with one \"Localized Contents/LANG.xliff\" (found \(xliffs.count))"
            )
        }
        return (contents as NSString).appendingPathComponent(xliffs[0])
    }
}
