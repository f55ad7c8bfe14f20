/// A plural rule from CLDR's data that could not be read.
public struct PluralRuleSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule's condition as written.
    public var rule: String
    /// What was wrong.
    public var message: String

    /// Creates an error.
    public init(rule: String, message: String) {
        self.rule = rule
        self.message = message
    }

    /// `plural rule "…": message`.
    public var description: String { "plural rule \"\(rule)\": \(message)" }
}
