import Foundation

/// Checks resource files the way a translator's reviewer would: syntax errors, duplicate
/// keys, keys the development language has but a translation lacks, and format specifiers
/// that differ from the development language's (`%@` translated as `%d`).
///
/// Translations are compared with the development language's table of the same name in
/// the same resource directory (`en.lproj` next to `ja.lproj`), else with `Base.lproj`. A
/// reference file that was not itself named for linting is read for comparison only.
public enum ResourceLinter {
    /// One file's entries with their locations, as lint needs them.
    struct Entries {
        var values: [String: (value: String, location: SourceLocation)] = [:]
        var order: [String] = []
    }

    /// Every finding for the files and directories in `paths`, sorted by file and line.
    public static func lint(paths: [String], developmentLanguage: LanguageTag = LanguageTag(language: "en"))
        -> [LintFinding]
    {
        var findings: [LintFinding] = []
        var files: [ResourceFile] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                findings.append(
                    LintFinding(
                        location: SourceLocation(file: path, line: 1, column: 1), severity: .error,
                        message: "no such file or directory"))
                continue
            }
            if isDirectory.boolValue {
                files += ResourceScanner.scan(directory: path, rootIndex: 0)
            } else if let file = ResourceFile(anyPath: path) {
                files.append(file)
            } else {
                findings.append(
                    LintFinding(
                        location: SourceLocation(file: path, line: 1, column: 1), severity: .error,
                        message: "not a .strings, .stringsdict or .xcstrings file"))
            }
        }
        var parsed: [String: Entries] = [:]
        for file in files {
            switch entries(of: file) {
            case .success(let result):
                parsed[file.path] = result.entries
                findings += result.findings
            case .failure(let error):
                findings.append(LintFinding(location: error.location, severity: .error, message: error.message))
            }
        }
        for file in files where file.kind != .stringCatalog {
            guard let entries = parsed[file.path], let language = file.language,
                !language.isBase, language != developmentLanguage,
                let reference = referenceFile(for: file, developmentLanguage: developmentLanguage),
                let referenceEntries = parsed[reference.path] ?? (try? Self.entries(of: reference).get().entries)
            else { continue }
            findings += compare(entries, of: file.path, with: referenceEntries, of: reference.path)
        }
        return findings.sorted {
            ($0.location.file ?? "", $0.location.line, $0.location.column) < (
                $1.location.file ?? "", $1.location.line, $1.location.column
            )
        }
    }

    /// The development language's (else Base's) file with the same table and kind.
    static func referenceFile(for file: ResourceFile, developmentLanguage: LanguageTag) -> ResourceFile? {
        let lproj = (file.path as NSString).deletingLastPathComponent
        let resources = (lproj as NSString).deletingLastPathComponent
        let fileName = (file.path as NSString).lastPathComponent
        let manager = FileManager.default
        for language in [developmentLanguage.identifier, "Base"] {
            guard let names = try? manager.contentsOfDirectory(atPath: resources) else { return nil }
            for name in names.sorted() where ResourceFile.language(ofDirectory: name)?.identifier == language {
                let path = resources + "/" + name + "/" + fileName
                if manager.fileExists(atPath: path), let reference = ResourceFile(path: path) {
                    return reference
                }
            }
        }
        return nil
    }

    /// The entries of one file, with their own findings (duplicates, catalog mismatches).
    static func entries(of file: ResourceFile) -> Result<
        (entries: Entries, findings: [LintFinding]), ResourceParseError
    > {
        let bytes: [UInt8]
        switch ResourceFileReader.bytes(of: file.path) {
        case .success(let read): bytes = read
        case .failure(let error): return .failure(error)
        }
        let start = SourceLocation(file: file.path, line: 1, column: 1)
        var entries = Entries()
        var findings: [LintFinding] = []
        do {
            switch file.kind {
            case .strings:
                let parsed = try StringsParser.parse(bytes, file: file.path)
                var first: [String: SourceLocation] = [:]
                for entry in parsed.entries {
                    if let earlier = first[entry.key] {
                        findings.append(
                            LintFinding(
                                location: entry.location, severity: .warning,
                                message:
                                    "duplicate key \"\(entry.key)\" (first at \(earlier.line):\(earlier.column)); the last one wins"
                            ))
                    } else {
                        first[entry.key] = entry.location
                        entries.order.append(entry.key)
                    }
                    entries.values[entry.key] = (entry.value, entry.location)
                }
            case .stringsDict:
                let (read, problems) = try StringsDictReader.read(bytes, file: file.path)
                findings += problems.map(finding)
                // Binary plists carry no positions: their entries stay at 1:1.
                let isBinary = bytes.starts(with: BinaryPropertyListReader.magic)
                let locator = KeyPathLocator(bytes: bytes, syntax: .xmlPropertyList, file: file.path)
                for (key, entry) in read.sorted(by: { $0.key < $1.key }) {
                    entries.values[key] = (entry.value, isBinary ? start : locator.location(of: [key]))
                    entries.order.append(key)
                }
            case .stringCatalog:
                let (catalog, problems) = try StringCatalogReader.read(bytes, file: file.path)
                findings += problems.map(finding)
                findings += catalogFindings(
                    catalog, locator: KeyPathLocator(bytes: bytes, syntax: .json, file: file.path))
            }
        } catch {
            return .failure(error)
        }
        return .success((entries, findings))
    }

    /// String Catalog states that are served (every state is) but want a translator's look.
    static let markedStates: Set<String> = ["new", "needs_review", "stale"]

    /// A reader's problem with one entry: an error when the entry is left out, a warning
    /// when it is served with a stand-in.
    static func finding(_ problem: ResourceParseError) -> LintFinding {
        LintFinding(
            location: problem.location, severity: problem.isEntryLost ? .error : .warning, message: problem.message)
    }

    /// Format mismatches inside one String Catalog, each language against its source, at
    /// the localization's place in the JSON.
    static func catalogFindings(_ catalog: StringCatalog, locator: KeyPathLocator) -> [LintFinding] {
        guard let source = catalog.tables[catalog.sourceLanguage] else { return [] }
        var findings: [LintFinding] = []
        for (language, table) in catalog.tables.sorted(by: { $0.key < $1.key }) where language != catalog.sourceLanguage
        {
            for (key, entry) in table.sorted(by: { $0.key < $1.key }) {
                if let state = entry.state, Self.markedStates.contains(state) {
                    findings.append(
                        LintFinding(
                            location: locator.location(of: ["strings", key, "localizations", language]),
                            severity: .warning,
                            message: "\"\(key)\" in \(language) is marked \(state); it is served as it is"))
                }
                // A key-made source entry is a reference only when the key is itself a format
                // (`%lld items`); a name (`cart.count`) says nothing of the arguments.
                guard let reference = source[key],
                    !reference.isSourceKeyStandIn || !FormatSpecifier.parse(key).isEmpty,
                    let problem = FormatSpecifier.signatureMismatch(reference.value, entry.value)
                else { continue }
                let location = locator.location(of: ["strings", key, "localizations", language])
                findings.append(
                    LintFinding(location: location, severity: .error, message: "\"\(key)\" in \(language): \(problem)"))
            }
        }
        return findings
    }

    /// Missing keys and format mismatches of a translation against its reference.
    static func compare(_ translation: Entries, of path: String, with reference: Entries, of referencePath: String)
        -> [LintFinding]
    {
        var findings: [LintFinding] = []
        let referenceName = shortName(referencePath)
        for key in reference.order {
            guard let original = reference.values[key] else { continue }
            guard let translated = translation.values[key] else {
                findings.append(
                    LintFinding(
                        location: SourceLocation(file: path, line: 1, column: 1), severity: .warning,
                        message: "missing key \"\(key)\" (\(referenceName):\(original.location.line) has it)"))
                continue
            }
            if let problem = FormatSpecifier.signatureMismatch(original.value, translated.value) {
                findings.append(
                    LintFinding(
                        location: translated.location, severity: .error,
                        message: "\"\(key)\": \(problem) (as in \(referenceName))"))
            }
        }
        return findings
    }

    /// `en.lproj/Localizable.strings`: enough of a path to name it in a message.
    static func shortName(_ path: String) -> String {
        let components = path.split(separator: "/")
        return components.suffix(2).joined(separator: "/")
    }
}
