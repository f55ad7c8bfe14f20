/// A file that holds localized strings, and what its path says about it.
///
/// `xx.lproj/Table.strings` and `xx.lproj/Table.stringsdict` belong to language `xx` and
/// table `Table`; `Table.xcstrings` anywhere holds table `Table` in every language it lists.
/// Outside an `.lproj`, `xx.lproj_Table.strings` (and `.stringsdict`) is the same as
/// `xx.lproj/Table.strings`: the flat layout of a ConfigMap volume, whose keys may not hold a
/// `/` (docs/DEPLOY.md, `scripts/configmap-from-resources`).
public struct ResourceFile: Sendable, Hashable {
    /// The format, which also sets precedence within one language and table.
    public enum Kind: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// A String Catalog (`.xcstrings`): overridden by `.lproj` files.
        case stringCatalog = 0
        /// A `.strings` file.
        case strings = 1
        /// A `.stringsdict` file: overrides `.strings` of the same key, as Apple merges them.
        case stringsDict = 2

        /// Orders kinds by precedence, lowest first.
        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The file's path.
    public var path: String
    /// Its format.
    public var kind: Kind
    /// The `.lproj`'s language; `nil` for a String Catalog, which holds many.
    public var language: LanguageTag?
    /// The table name: the file name without its extension.
    public var table: String
    /// The position of the root directory it was found under; earlier roots take precedence.
    public var rootIndex: Int

    /// Creates a description of a resource file.
    public init(path: String, kind: Kind, language: LanguageTag?, table: String, rootIndex: Int = 0) {
        self.path = path
        self.kind = kind
        self.language = language
        self.table = table
        self.rootIndex = rootIndex
    }

    /// Classifies `path` by its name and its directory's name; `nil` when it is not a
    /// resource (another extension, a hidden or editor temp name, or an `.lproj` whose name
    /// is not a language tag).
    public init?(path: String, rootIndex: Int = 0) {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let name = components.last, !name.hasPrefix("."),
            let dot = name.lastIndex(of: ".")
        else { return nil }
        let table = String(name[..<dot])
        guard !table.isEmpty else { return nil }
        let directory = components.dropLast().last
        switch name[name.index(after: dot)...] {
        case "xcstrings":
            self.init(path: path, kind: .stringCatalog, language: nil, table: table, rootIndex: rootIndex)
        case let ext where ext == "strings" || ext == "stringsdict":
            let kind: Kind = ext == "strings" ? .strings : .stringsDict
            if let directory, let language = Self.language(ofDirectory: directory) {
                self.init(path: path, kind: kind, language: language, table: table, rootIndex: rootIndex)
            } else if let (language, flatTable) = Self.flattened(table) {
                self.init(path: path, kind: kind, language: language, table: flatTable, rootIndex: rootIndex)
            } else {
                return nil
            }
        default:
            return nil
        }
    }

    /// Classifies `path` by its extension alone, for a file named on a command line that
    /// may sit outside any `.lproj` (its language is then `nil`).
    public init?(anyPath path: String) {
        if let file = ResourceFile(path: path) {
            self = file
            return
        }
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let table = String(name[..<dot])
        switch name[name.index(after: dot)...] {
        case "strings": self.init(path: path, kind: .strings, language: nil, table: table)
        case "stringsdict": self.init(path: path, kind: .stringsDict, language: nil, table: table)
        case "xcstrings": self.init(path: path, kind: .stringCatalog, language: nil, table: table)
        default: return nil
        }
    }

    /// The language and table of a flattened name (`ja.lproj_Localizable` without its
    /// extension), split at the first `.lproj_`; `nil` when it is not one. What comes before
    /// the language and a `.` is not read (`0003.ja.lproj_Localizable`): a packer numbers
    /// files of one language and table that came from several directories so that their
    /// names sort as their paths did, which sets their precedence.
    static func flattened(_ name: String) -> (LanguageTag, String)? {
        guard let separator = name.firstRange(of: ".lproj_") else { return nil }
        let table = String(name[separator.upperBound...])
        let head = name[..<separator.lowerBound]
        let directory = (head.split(separator: ".", omittingEmptySubsequences: false).last ?? head) + ".lproj"
        guard !table.isEmpty, let language = language(ofDirectory: directory) else { return nil }
        return (language, table)
    }

    /// The language an `xx.lproj` directory name stands for, or `nil` if it names none.
    public static func language(ofDirectory name: some StringProtocol) -> LanguageTag? {
        guard name.hasSuffix(".lproj") else { return nil }
        let tag = name.dropLast(".lproj".count)
        // `qaa-x-26.lproj`: a requested tag drops its private-use part, a folder name keeps
        // it, so forty such folders are not all served as `qaa` (status lists them instead).
        guard !LanguageTag.hasExtension(tag) else { return nil }
        return try? LanguageTag(String(tag))
    }
}
