/// A command line that does not say what to do: both executables exit with status 2.
package struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the line, and where it helps, what to type instead.
    package var description: String

    /// An error that says `description`.
    package init(_ description: String) { self.description = description }
}
