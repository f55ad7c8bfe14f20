public import Foundation

/// What the import suites start from: a resource directory `r` in a fresh temporary
/// directory, holding an English `Localizable.strings` and, when given, its German
/// translation; the interchange files a test writes stand beside it. One place for the
/// set-up the XLIFF, conflict and two-target suites each wrote out.
public struct ImportProject {
    /// The temporary directory holding the resources and the interchange files.
    public let directory: TemporaryDirectory
    /// The resource directory: `import`'s and `export`'s first argument.
    public let resources: String
    /// The German `.strings` file's path (written only when `german` was given).
    public let german: String

    /// Writes `english` to `r/en.lproj/Localizable.strings` and, unless nil, `german` to
    /// `r/de.lproj/Localizable.strings`.
    public init(english: String, german: String? = nil) throws {
        directory = try TemporaryDirectory()
        resources = directory.path + "/r"
        try directory.write(english, to: "r/en.lproj/Localizable.strings")
        self.german = resources + "/de.lproj/Localizable.strings"
        if let german { try directory.write(german, to: "r/de.lproj/Localizable.strings") }
    }

    /// Writes `text` to `name` beside the resources; its path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try directory.write(text, to: name)
    }

    /// `l10nctl import RESOURCES ARGUMENTS…`.
    public func importing(_ arguments: String...) throws -> ProcessOutput {
        try L10nctl.run(arguments: ["import", resources] + arguments)
    }

    /// `l10nctl export RESOURCES ARGUMENTS…`.
    public func exporting(_ arguments: String...) throws -> ProcessOutput {
        try L10nctl.run(arguments: ["export", resources] + arguments)
    }

    /// The German file's text as it is now.
    public func germanText() throws -> String {
        try String(contentsOfFile: german, encoding: .utf8)
    }

    /// An XLIFF 1.2 document of one `<file>` (`en.lproj/Localizable.strings` into `target`)
    /// whose `<body>` holds `units`, as Xcode and translation tools write it.
    public static func xliff(
        _ units: String, original: String = "en.lproj/Localizable.strings", target: String = "de"
    ) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
          <file original="\(original)" source-language="en" target-language="\(target)" datatype="plaintext">
            <body>
        \(units)
            </body>
          </file>
        </xliff>

        """
    }
}
