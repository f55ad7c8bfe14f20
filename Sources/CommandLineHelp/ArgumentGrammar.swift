/// The options one command line takes: what ``ArgumentParser`` reads it by.
///
/// `l10nd` has one grammar; `l10nctl` has two, read one after the other: its global
/// options, which hand every other option on, then the command's own.
package struct ArgumentGrammar: Sendable {
    /// The options that take a value, without `--`, in the order a suggestion prefers them.
    package var valueOptions: [String]
    /// The options that take no value, without `--`.
    package var flags: [String]
    /// Single-dash spellings of flags: `-h` for `help`.
    package var shortFlags: [String: String]
    /// Whether an option the grammar does not know is handed on as given (for a second
    /// grammar to read) instead of refused.
    package var passesUnknownOptions: Bool

    /// A grammar of `valueOptions` and `flags`.
    package init(
        valueOptions: [String], flags: [String], shortFlags: [String: String] = [:], passesUnknownOptions: Bool = false
    ) {
        self.valueOptions = valueOptions
        self.flags = flags
        self.shortFlags = shortFlags
        self.passesUnknownOptions = passesUnknownOptions
    }
}
