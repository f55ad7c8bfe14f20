/// A plural-aware string: a format with `%#@name@` variables, each with one form per
/// plural category.
///
/// This is the shape of a `.stringsdict` entry (`NSStringLocalizedFormatKey` plus its
/// variables) and of an `.xcstrings` entry with `variations.plural` or `substitutions`.
/// A String Catalog's top-level plural variation is stored as a format `%#@_@` with one
/// variable named `_`, so both formats share one model.
public struct PluralFormat: Sendable, Hashable, Codable {
    /// A variable of the format: its printf value type (`d`, `ld`, `f`…) and its forms.
    public struct Variable: Sendable, Hashable, Codable {
        /// `NSStringFormatValueTypeKey`: the printf conversion the count is formatted with.
        public var valueType: String?
        /// One string per plural category present in the file; `other` should be there.
        public var forms: [PluralCategory: String]
        /// For a String Catalog substitution, the positional argument number it takes.
        public var argumentNumber: Int?

        /// Creates a variable from its value type and forms.
        public init(valueType: String? = nil, forms: [PluralCategory: String], argumentNumber: Int? = nil) {
            self.valueType = valueType
            self.forms = forms
            self.argumentNumber = argumentNumber
        }

        /// The category whose form stands in for a missing `other`: the most general one the
        /// forms have (`many`, else `few`, `two`, `one`, `zero`), as Foundation serves a
        /// variable without `other`; `nil` when there is no form at all. Both readers use it,
        /// since Xcode compiles a catalog's plural variation into the same stringsdict form.
        public static func otherStandIn(among forms: [PluralCategory: String]) -> PluralCategory? {
            [PluralCategory.many, .few, .two, .one, .zero].first { forms[$0] != nil }
        }

        /// Whether the count is formatted as an integer: by `NSStringFormatValueTypeKey`
        /// (`d`, `ld`, `lu`…), or, without one (a String Catalog's variation), by the first
        /// conversion of the `other` form. Such a variable selects by the count's integral
        /// part, the number `%d` prints (C's conversion of a `double` to `long`, as gettext's
        /// `ngettext` takes it): Foundation reads a `Double` given to `%d` from a register it
        /// never went to, so it has no answer to copy. docs/PLURALS.md.
        public var takesInteger: Bool {
            let specifiers = FormatSpecifier.parse(valueType.map { "%" + $0 } ?? form(for: .other) ?? "")
            return specifiers.first { $0.kind != .pluralVariable }?.kind == .integer
        }

        /// The form for `category`, falling back to `other` as Foundation does.
        public func form(for category: PluralCategory) -> String? {
            forms[category] ?? forms[.other]
        }
    }

    /// `NSStringLocalizedFormatKey`: the string with `%#@name@` placeholders.
    public var format: String
    /// The variables by name.
    public var variables: [String: Variable]

    /// Creates a plural format.
    public init(format: String, variables: [String: Variable]) {
        self.format = format
        self.variables = variables
    }

    /// The format with every variable replaced by its `other` form: the string a plain
    /// (count-less) lookup returns.
    public var otherFormString: String {
        var result = format
        for (name, variable) in variables {
            result = result.replacing("%#@\(name)@", with: variable.form(for: .other) ?? "")
        }
        return result
    }
}
