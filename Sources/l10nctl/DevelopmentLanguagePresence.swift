import Foundation
import LocalizationCore

/// `lint`, `coverage` and `report` refuse a development language the project has no table in
/// (an outside tester's find: `--development-language de` over a tree without German measured
/// every language against nothing, 100.0% 0/0, exit 0): an error naming it and the languages
/// that do have tables.
enum DevelopmentLanguagePresence {
    /// Throws unless `development` has a table under `roots`: its own `.lproj` file, a `Base`
    /// one (its text, Xcode's Base internationalization, a storyboard-only `Base.lproj` too),
    /// or a String Catalog (which names its own source language). Nothing is said of a tree
    /// with no table at all, nor of a file or an `.lproj` linted alone (a part of a project).
    static func check(_ development: LanguageTag, roots: [String]) throws {
        var isDirectory: ObjCBool = false
        for root in roots {
            let trimmed = root.hasSuffix("/") ? String(root.dropLast()) : root
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue,
                !trimmed.hasSuffix(".lproj")
            else { return }
        }
        let files = ResourceScanner.scan(roots: roots)
        let languages = Set(files.compactMap(\.language))
        guard !files.isEmpty, !languages.contains(development), !languages.contains(where: \.isBase),
            !files.contains(where: { $0.kind == .stringCatalog })
        else { return }
        // A storyboard-only Base.lproj beside a language's folder is the development language's text.
        let parents = Set(
            files.map { (($0.path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent })
        guard !parents.contains(where: { FileManager.default.fileExists(atPath: $0 + "/Base.lproj") }) else { return }
        let names = languages.map(\.identifier).sorted().joined(separator: ", ")
        throw CommandFailure(
            "the development language \(development.identifier) has no table here (no \(development.identifier).lproj, "
                + "Base.lproj or String Catalog); the languages with tables are \(names): give "
                + "--development-language the one the source strings are in")
    }
}
