/// A command that could not do its job: exit code 1.
///
/// A bad command line is a `UsageError` (from `CommandLineHelp`, shared with `l10nd`): exit code 2.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
