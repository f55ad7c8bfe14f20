import Foundation

/// An entry under a resource directory that is skipped for its name alone: an `.lproj`
/// folder named for no language l10nd serves (`qaa-x-26.lproj`, `de_DE-typo.lproj`, a
/// newline in the name), or an entry whose name is not UTF-8 (``UndecodableName``).
///
/// None of its files is ever served, however good they are, and only renaming it fixes it.
/// The one rule that decides it, read by the scanner (``ResourceSurvey/skipped``) and the
/// daemon's watcher alike, so `l10nctl lint`, `coverage`, `report`, `l10nd --check-config`,
/// the daemon's log and its `status` all name the same entries.
///
/// ```swift
/// let survey = ResourceScanner.survey(directory: "Resources", rootIndex: 0)
/// for skipped in survey.skipped { print(skipped.message) }
/// // Resources/de_DE-typo.lproj: de_DE-typo is not a language tag l10nd serves, so its files are …
/// ```
public struct SkippedName: Sendable, Hashable {
    /// Why an entry is skipped; the raw values are the daemon's `status` reasons.
    public enum Reason: String, Sendable, Hashable {
        /// An `.lproj` folder whose name is no language tag l10nd serves: a private-use tag
        /// (`qaa-x-26`, which would be served as `qaa` alike with every other), a typo
        /// (`de_DE-typo`), a newline.
        case notALanguage = "not_a_language"
        /// A name that is not UTF-8: it cannot be told apart from others that decode the same.
        case nameNotUTF8 = "name_not_utf8"
    }

    /// Why it is skipped.
    public var reason: Reason
    /// The path as Foundation names it (a name that is not UTF-8 decoded with U+FFFD), as
    /// the watcher's events name it. For a name that is not UTF-8 it names nothing on disk.
    public var path: String
    /// The path for a person: a name that is not UTF-8 with its bytes shown (`\xE9`); other
    /// paths as they are, escaped where they are printed.
    public var displayPath: String
    /// Whether it is a directory (else a file named like a table, with a name that is not UTF-8).
    public var isDirectory: Bool

    /// A path that exists, to report it at: the entry itself, or, when its name cannot be
    /// given (not UTF-8), the directory that holds it.
    public var existingPath: String {
        reason == .nameNotUTF8 ? (path as NSString).deletingLastPathComponent : path
    }

    /// Why it is skipped, in a sentence that names it and says what to do.
    public var message: String {
        switch reason {
        case .notALanguage:
            let name = (path as NSString).lastPathComponent
            return
                "\(displayPath): \(name.dropLast(".lproj".count)) is not a language tag l10nd serves, so its files are "
                + "neither read nor watched (rename it to its language's tag, as de.lproj or pt-BR.lproj)"
        case .nameNotUTF8:
            return
                isDirectory
                ? "\(displayPath): the directory's name is not UTF-8, so it is neither read nor watched (rename it)"
                : "\(displayPath): the file's name is not UTF-8, so it is not read (rename it)"
        }
    }

    /// Creates a description.
    public init(reason: Reason, path: String, displayPath: String, isDirectory: Bool) {
        self.reason = reason
        self.path = path
        self.displayPath = displayPath
        self.isDirectory = isDirectory
    }

    /// The entry whose name is not UTF-8 that `name` describes.
    public init(_ name: UndecodableName) {
        self.init(
            reason: .nameNotUTF8, path: name.decodedPath, displayPath: name.displayPath, isDirectory: name.isDirectory)
    }

    /// Whether the directory `path`, named `name`, is skipped for its name: an `.lproj` whose
    /// name is no language tag (``ResourceFile/language(ofDirectory:)``). `nil` for any other
    /// name, and for a path that is no directory (through links).
    public static func folder(_ path: String, named name: some StringProtocol) -> SkippedName? {
        guard name.hasSuffix(".lproj"), ResourceFile.language(ofDirectory: name) == nil else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return SkippedName(reason: .notALanguage, path: path, displayPath: path, isDirectory: true)
    }

    /// The entries of `directory` whose names are not UTF-8 that may hold tables
    /// (``UndecodableName/entries(in:entersSubdirectories:)``), when Foundation's listing
    /// `names` shows one (a U+FFFD); none otherwise, without listing the directory again.
    public static func undecodable(in directory: String, names: [String], entersSubdirectories: Bool) -> [SkippedName] {
        guard names.contains(where: { $0.contains("\u{FFFD}") }) else { return [] }
        return UndecodableName.entries(in: directory, entersSubdirectories: entersSubdirectories).map(SkippedName.init)
    }
}
