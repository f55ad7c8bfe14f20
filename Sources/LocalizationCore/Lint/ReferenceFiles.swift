import Foundation

/// The files lint compares translations with, per resource directory: for each file name
/// (`Localizable.strings`), the development language's file of that name, else `Base.lproj`'s.
/// Each directory is listed once per lint run.
struct ReferenceFiles {
    /// The language whose files are the reference (`en`); `Base` stands in where it has none.
    let developmentLanguage: LanguageTag
    /// The reference files of each resource directory already listed, by file name.
    private var listed: [String: [String: ResourceFile]] = [:]

    init(developmentLanguage: LanguageTag) {
        self.developmentLanguage = developmentLanguage
    }

    /// The reference for `file` (an `.lproj` file): the development language's (else Base's)
    /// file with the same name in the same resource directory.
    mutating func file(for file: ResourceFile) -> ResourceFile? {
        let lproj = (file.path as NSString).deletingLastPathComponent
        return files(in: (lproj as NSString).deletingLastPathComponent)[(file.path as NSString).lastPathComponent]
    }

    /// Every reference file of the resource directory `resources` (the one holding the
    /// `.lproj` directories), by file name; the development language's win over Base's.
    mutating func files(in resources: String) -> [String: ResourceFile] {
        if let known = listed[resources] { return known }
        let manager = FileManager.default
        var found: [String: ResourceFile] = [:]
        let directories = (try? manager.contentsOfDirectory(atPath: resources))?.sorted() ?? []
        for language in [developmentLanguage.identifier, LanguageTag.base.identifier] {
            for directory in directories where ResourceFile.language(ofDirectory: directory)?.identifier == language {
                let lproj = resources + "/" + directory
                for name in (try? manager.contentsOfDirectory(atPath: lproj))?.sorted() ?? [] where found[name] == nil {
                    if let reference = ResourceFile(path: lproj + "/" + name), reference.kind != .stringCatalog {
                        found[name] = reference
                    }
                }
            }
        }
        listed[resources] = found
        return found
    }
}
