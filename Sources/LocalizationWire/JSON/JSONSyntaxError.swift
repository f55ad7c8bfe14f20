/// Why a JSON text could not be parsed, and where.
struct JSONSyntaxError: Error, CustomStringConvertible {
    /// The byte offset of the problem in the text.
    var offset: Int
    /// What was wrong there.
    var reason: String

    var description: String { "malformed JSON at byte \(offset): \(reason)" }
}
