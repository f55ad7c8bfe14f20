import Foundation
public import LocalizationCore

/// Writes translations from XLIFF or `.po` back into a project's files: only values that
/// differ change, each in place (``ResourceEditor``), and each changed file is replaced in
/// one rename, so a running `l10nd` reloads it whole.
public enum TranslationImport {
    /// One translation to write: the file (`original`), the unit's id, the text.
    public struct Target: Sendable, Hashable {
        /// The development language's file as export named it.
        public var original: String
        /// The unit's id.
        public var id: String
        /// The translation.
        public var text: String
        /// How final the translator says it is (XLIFF `state`, `.po` `#, fuzzy`).
        public var state: TranslationState
        /// The hash of the translation when it was exported (``TranslationBase``), if the
        /// file kept it: of the unit's, or of every form of `baseGroup`.
        public var base: String?
        /// The plural group a `.po` message's base hash covers.
        public var baseGroup: String?
        /// The source text the translator translated (XLIFF `<source>`, a singular `.po`
        /// message's `msgid`), if the file gives it: when the development language's text is
        /// no longer that, the translation is outdated.
        public var source: String?
        /// The `msgid` and `msgid_plural` a plural `.po` message's translator translated,
        /// when export wrote the message: when the plural group's texts now give others
        /// (``PODocument``'s choice of forms), every form's translation is outdated.
        public var pluralSources: [String]?
        /// Creates a target.
        public init(original: String, id: String, text: String, state: TranslationState = .translated) {
            self.original = original
            self.id = id
            self.text = text
            self.state = state
        }

        /// The file and unit a target writes to.
        struct Unit: Hashable {
            var original: String
            var id: String
        }

        var unit: Unit { Unit(original: original, id: id) }
    }

    /// What an import did.
    public struct Outcome: Sendable {
        /// Files rewritten.
        public var changedFiles: [String] = []
        /// Values changed.
        public var changedValues = 0
        /// Translations not written, each with why.
        public var skipped: [String] = []
        /// Translations refused as errors, each naming the file, the unit and the language:
        /// placeholders that cannot stand for the source's (as `msgfmt --check-format`
        /// refuses them), not written unless `force`.
        public var refused: [String] = []
        /// Translations that would replace a value changed in the files since the export,
        /// each with both values; when there are any (and no `force`), nothing is written.
        public var conflicts: [String] = []
        /// Values changed in the files since the export that the file gives back unchanged:
        /// kept, not reverted to what was exported.
        public var keptNewer = 0
        /// Units whose base (``TranslationBase``) is of another language's export, counted by
        /// that language: not checked for changes since the export, since what they record
        /// is that language's values (a `msgmerge` with its export as the template).
        public var foreignBases: [String: Int] = [:]
        /// Translations made for a source text the development language has changed since,
        /// each with both texts: taken as not final (as `msgmerge` marks them fuzzy).
        public var outdated: [String] = []
        /// Translations written, as `force` asks, although their placeholders do not match
        /// the source's, each with why (without `force` they are ``skipped``).
        public var forcedFormats: [String] = []
    }

    /// Writes `targets` into `project`'s files, with their review states.
    ///
    /// - A translation that is not final (`#, fuzzy`, XLIFF `needs-review-*` or `new`) is
    ///   written to a String Catalog with that state (`needs_review`, `new`); a `.strings` or
    ///   `.stringsdict` file has no state, so there, as `msgfmt` does, it is not used — and
    ///   said, as skipped — unless `acceptFuzzy`, which takes every translation as final.
    /// - A final translation of a catalog unit that is `needs_review` or `new` confirms it:
    ///   its state becomes `translated` even when the value is unchanged.
    /// - An unchanged value is never marked less final than it is.
    /// - Throws: ``InterchangeError`` when a file cannot be parsed or written.
    /// - A translation whose export base (``TranslationBase``) differs from the value in the
    ///   files now, and which would change that value, is a conflict: unless `force`, the
    ///   conflicts are listed and nothing is written.
    /// - A translation of a source text the development language no longer has (the file's
    ///   `<source>` or `msgid` is not the text now) is listed as outdated and taken as not
    ///   final: a catalog writes it `needs_review`; a `.strings` or `.stringsdict` file does
    ///   not take it unless `acceptFuzzy`.
    public static func apply(
        _ targets: [Target], to project: TranslationProject, acceptFuzzy: Bool = false, force: Bool = false
    ) throws(InterchangeError) -> Outcome {
        var outcome = Outcome()
        var edits: [String: [ResourceEdit]] = [:]
        // A unit given twice (two `<trans-unit>`s with one id) is ambiguous: neither is written.
        var occurrences: [Target.Unit: Int] = [:]
        for target in targets { occurrences[target.unit, default: 0] += 1 }
        var reported: Set<Target.Unit> = []
        var outdatedGroups: Set<Target.Unit> = []
        for target in targets {
            if let count = occurrences[target.unit], count > 1 {
                if reported.insert(target.unit).inserted {
                    outcome.skipped.append(
                        "\(target.original): unit \"\(target.id)\" is given \(count) times; none of them is written")
                }
                continue
            }
            guard let file = project.file(original: target.original) else {
                outcome.skipped.append("\(target.original): no such file in \(project.root)")
                continue
            }
            guard let unit = file.units.first(where: { $0.id == target.id }) else {
                outcome.skipped.append("\(target.original): no unit \"\(target.id)\"")
                continue
            }
            // A unit with no translation in the files takes the translator's: filling it
            // overwrites no newer edit (an export from another copy of the tree, a value removed
            // since, are filled as any missing value is).
            // A base of another language's export (`msgmerge` with its file as the template
            // copies its comments) says nothing of this language's values: not used, and said.
            let written = target.base.map(TranslationBase.parse)
            if let language = written?.language, language != project.language.identifier {
                outcome.foreignBases[language, default: 0] += 1
            }
            let base = written.flatMap {
                $0.language == nil || $0.language == project.language.identifier ? $0.hash : nil
            }
            if let base, unit.target != nil, unit.target != target.text {
                let covered = target.baseGroup.map { group in file.units.filter { $0.pluralGroup == group } } ?? [unit]
                // Only the files changed it (the file gives back what was exported): theirs is
                // newer and stays. (A plural message's hash covers all its forms: no such test.)
                if target.baseGroup == nil, TranslationBase.hash([target.text]) == base {
                    outcome.keptNewer += 1
                    continue
                }
                if TranslationBase.hash(covered.map(\.target)) != base {
                    let now = unit.target.map(PODocument.quoted) ?? "no translation"
                    outcome.conflicts.append(
                        "\(target.original): unit \"\(target.id)\" changed in \(file.targetPath) since the export "
                            + "(now \(now)); the import would replace it with \(PODocument.quoted(target.text))")
                    if !force { continue }
                }
            }
            // As `msgfmt --check-format`: a translation whose placeholders cannot stand for the
            // source's (a `%@` dropped, a `%d` made `%@`) would print garbage or crash; it is
            // an error naming the unit, written only with `force`.
            if unit.target != target.text, let problem = formatProblem(target.text, of: unit, in: file) {
                let message =
                    "\(target.original): unit \"\(target.id)\" (\(project.language.identifier), "
                    + "\(file.targetPath)): \(problem) (the source is \(PODocument.quoted(unit.source)))"
                guard force else {
                    outcome.refused.append(message + "; not written (--force writes it)")
                    continue
                }
                outcome.forcedFormats.append(message + "; written, as --force asks")
            }
            var outdated = target.source.map { $0 != unit.source } ?? false
            if outdated, let source = target.source {
                outcome.outdated.append(
                    "\(target.original): unit \"\(target.id)\" was translated from \(PODocument.quoted(source)); "
                        + "the source text is now \(PODocument.quoted(unit.source))")
            }
            // A plural message's msgid and msgid_plural are the group's, not one form's: a
            // change to either outdates every form (said once for the group).
            if let sources = target.pluralSources, let group = target.baseGroup {
                let members = file.units.filter { $0.pluralGroup == group }
                if !PODocument.pluralSourcesMatch(sources, members) {
                    let now = PODocument.pluralSources(members)
                    outdated = true
                    if outdatedGroups.insert(Target.Unit(original: target.original, id: group)).inserted {
                        outcome.outdated.append(
                            "\(target.original): plural \"\(group)\" was translated from "
                                + sources.map(PODocument.quoted).joined(separator: " / ")
                                + "; the source texts are now "
                                + PODocument.quoted(now.singular) + " / " + PODocument.quoted(now.plural))
                    }
                }
            }
            let state =
                acceptFuzzy ? .translated : outdated && target.state == .translated ? .needsReview : target.state
            let confirms = state == .translated && (unit.state ?? .translated) != .translated
            if unit.target == target.text {
                if confirms, let edit = unit.edit(state: .translated) { edits[file.original, default: []].append(edit) }
                continue
            }
            // A catalog keeps a review state even for a unit with no localization yet: the
            // non-final translation is written with its state (only other files have none).
            guard state == .translated || unit.state != nil || unit.edit(state: state) != nil else {
                let why =
                    target.state == .translated
                    ? "was translated from an older source text" : "is marked \(target.state == .new ? "new" : "fuzzy")"
                outcome.skipped.append(
                    "\(target.original): unit \"\(target.id)\" \(why) (not final) and this file has no review state, "
                        + "so it is not written; --accept-fuzzy writes it as final")
                continue
            }
            edits[file.original, default: []].append(unit.edit(target.text))
            if let edit = unit.edit(state: state) { edits[file.original, default: []].append(edit) }
        }
        if !outcome.conflicts.isEmpty, !force { return outcome }
        for file in project.files {
            guard let fileEdits = edits[file.original] else { continue }
            let exists = FileManager.default.fileExists(atPath: file.targetPath)
            do {
                let bytes = exists ? try ResourceFileReader.bytes(of: file.targetPath).get() : []
                // A .stringsdict entry the file lacks is shaped as the development language's.
                let reference =
                    file.kind == .stringsDict
                    ? try? ResourceFileReader.bytes(of: project.root + "/" + file.original).get() : nil
                let result = try ResourceEditor.apply(
                    fileEdits, to: bytes, kind: file.kind, file: file.targetPath, reference: reference)
                outcome.skipped += result.skipped
                // A file that is not there is made only when a value is written into it.
                guard exists ? result.bytes != bytes : result.changed > 0 else { continue }
                try write(result.bytes, to: file.targetPath)
                outcome.changedFiles.append(file.targetPath)
                outcome.changedValues += result.changed
            } catch let error as ResourceParseError {
                throw InterchangeError("\(error)")
            } catch {
                throw InterchangeError("\(file.targetPath): cannot be written: \(error.localizedDescription)")
            }
        }
        return outcome
    }

    /// Why `text`'s placeholders cannot replace those of `unit`'s source, under the styles
    /// the file's sources use, or `nil`: a plural form may leave out an argument (`one` = "a
    /// file"), as lint allows. A catalog unit whose source is its key stands in for a text
    /// nobody wrote: its placeholders say nothing, unless the key has some. A `.stringsdict`
    /// format whose variables take other arguments than the source's swaps the counts.
    static func formatProblem(_ text: String, of unit: TranslationUnit, in file: TranslationFile) -> String? {
        let styles = PlaceholderStyles.detected(in: file.units.map(\.source))
        if file.kind == .stringCatalog, unit.source == unit.id, FormatSpecifier.parse(unit.id).isEmpty { return nil }
        if unit.category != nil {
            let other = file.units.first { $0.pluralGroup == unit.pluralGroup && $0.category == .other }?.source
            return styles.formMismatch([unit.source, other].compactMap { $0 }, text)
        }
        if case .stringsDictFormat = unit.address, let problem = PluralVariableOrder.problem(unit.source, text) {
            return problem
        }
        return styles.mismatch(unit.source, text)
    }

    /// Writes `bytes` beside `path` and renames it into place, keeping the file's permissions.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let manager = FileManager.default
        let directory = (path as NSString).deletingLastPathComponent
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let temporary = directory + "/." + (path as NSString).lastPathComponent + ".l10nctl-import"
        guard manager.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw InterchangeError("\(temporary): cannot be created")
        }
        if let mode = try? manager.attributesOfItem(atPath: path)[.posixPermissions] {
            try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: temporary)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? manager.removeItem(atPath: temporary)
            throw InterchangeError("\(path): cannot be replaced: \(reason)")
        }
    }
}
