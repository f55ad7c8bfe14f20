/// A string that is not a language tag, and why.
public struct LanguageTagError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable code for programs: always `bad_language`.
    public var code: String { "bad_language" }
    /// The rejected input (cut short if it was long, so a log line stays readable).
    public var input: String
    /// Why it was rejected.
    public var reason: String

    /// Creates an error for `input`.
    public init(input: String, reason: String) {
        self.input = input.count > 40 ? String(input.prefix(40)) + "…" : input
        self.reason = reason
    }

    /// A message for a person.
    public var description: String { "'\(input)' is not a language tag: \(reason)" }
}
