import CommandLineHelp
import LocalizationCore

/// `--table NAME` as `get` and `missing` take it: a table's name (`Localizable`, `Settings`),
/// the file name without `.strings`, never a path.
enum TableArgument {
    /// `name`, checked: one with a path separator (`../../etc/passwd`), a NUL, or that is `.`
    /// or `..` names no table, and is a usage error rather than a table quietly not found.
    static func checked(_ name: String?) throws(UsageError) -> String? {
        guard let name else { return nil }
        if name.isEmpty || name == "." || name == ".." || name.contains("/") || name.contains("\0") {
            throw UsageError(
                "--table takes a table's name, the file name without its extension (Localizable, Settings), "
                    + "not '\(name)'")
        }
        return name
    }

    /// `l10nctl: error`'s text for a table no language has: the ones there are, each name
    /// escaped (a table is a file name, and may hold an escape sequence or a newline).
    static func unknown(_ name: String, served: [String], in place: String) -> String {
        "\(place) has no table '\(DisplayText.escaped(name))' in any language "
            + "(its tables: \(served.map(DisplayText.escaped).joined(separator: ", ")))"
    }
}
