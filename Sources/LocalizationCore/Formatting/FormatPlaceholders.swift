/// Reads the printf-style placeholders of a localized format string.
///
/// Both plural formats name their variables with `%#@name@` (or positionally,
/// `%1$#@name@`), and both readers need the same three things from a format: which
/// variables it uses, the string with each variable replaced by its `other` form, and the
/// printf conversion a count is formatted with.
enum FormatPlaceholders {
    /// One `%#@name@` reference and where it is written.
    struct VariableReference: Hashable {
        /// The characters of the whole placeholder, `%` to the closing `@`.
        var range: Range<String.Index>
        /// The variable's name.
        var name: String
    }

    /// How deep variables may refer to variables: Foundation nests them, a cycle must not hang.
    static let maximumNesting = 8

    /// The variable references of `format`, in order of appearance.
    static func variableReferences(in format: String) -> [VariableReference] {
        var references: [VariableReference] = []
        let scalars = format.unicodeScalars
        forEachPercent(in: scalars) { start, afterPercent in
            let cursor = skippingPosition(in: scalars, from: afterPercent)
            guard let (name, end) = variableName(in: scalars, from: cursor) else { return afterPercent }
            references.append(VariableReference(range: start..<end, name: name))
            return end
        }
        return references
    }

    /// Calls `body` with each `%` of `scalars` that is not half of a `%%` and the index after
    /// it; scanning goes on where `body` says.
    static func forEachPercent(
        in scalars: String.UnicodeScalarView,
        _ body: (_ start: String.Index, _ afterPercent: String.Index) -> String.Index
    ) {
        var index = scalars.startIndex
        while index < scalars.endIndex {
            guard scalars[index] == "%" else {
                index = scalars.index(after: index)
                continue
            }
            let cursor = scalars.index(after: index)
            if cursor < scalars.endIndex, scalars[cursor] == "%" {
                index = scalars.index(after: cursor)
                continue
            }
            index = body(index, cursor)
        }
    }

    /// The names `format` uses, each once, in order of first appearance.
    static func variableNames(in format: String) -> [String] {
        var seen: Set<String> = []
        return variableReferences(in: format).map(\.name).filter { seen.insert($0).inserted }
    }

    /// `format` with every known variable replaced by its `other` form, nested variables too.
    ///
    /// `PluralFormat.otherFormString` handles the common `%#@name@` spelling; this also
    /// replaces positional references (`%1$#@name@`) and variables inside forms, which
    /// `.stringsdict` files use.
    static func expandingOtherForms(
        of format: String,
        variables: [String: PluralFormat.Variable],
        nesting: Int = 0
    ) -> String {
        guard nesting < maximumNesting else { return format }
        var result = ""
        var copiedUpTo = format.startIndex
        for reference in variableReferences(in: format) {
            guard let form = variables[reference.name]?.form(for: .other) else { continue }
            result += format[copiedUpTo..<reference.range.lowerBound]
            result += expandingOtherForms(of: form, variables: variables, nesting: nesting + 1)
            copiedUpTo = reference.range.upperBound
        }
        result += format[copiedUpTo...]
        return result
    }

    /// The printf conversion of the first numeric placeholder, with its length modifier
    /// (`d`, `lld`, `f`…): the `NSStringFormatValueTypeKey` the string implies.
    static func firstNumericValueType(in format: String) -> String? {
        let scalars = format.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            guard scalars[index] == "%" else {
                index = scalars.index(after: index)
                continue
            }
            var cursor = scalars.index(after: index)
            if cursor < scalars.endIndex, scalars[cursor] == "%" {
                index = scalars.index(after: cursor)
                continue
            }
            cursor = skippingPosition(in: scalars, from: cursor)
            cursor = skipping(in: scalars, from: cursor) { "-+ #0'".unicodeScalars.contains($0) }
            cursor = skipping(in: scalars, from: cursor) { $0 == "*" || isDigit($0) }
            if cursor < scalars.endIndex, scalars[cursor] == "." {
                cursor = skipping(in: scalars, from: scalars.index(after: cursor)) { $0 == "*" || isDigit($0) }
            }
            let lengthStart = cursor
            cursor = skipping(in: scalars, from: cursor) { "hlqLzjt".unicodeScalars.contains($0) }
            if cursor < scalars.endIndex, "diouxXfFeEgGaA".unicodeScalars.contains(scalars[cursor]) {
                return String(scalars[lengthStart...cursor])
            }
            index = cursor
        }
        return nil
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    private static func skipping(
        in scalars: String.UnicodeScalarView,
        from start: String.Index,
        while predicate: (Unicode.Scalar) -> Bool
    ) -> String.Index {
        var cursor = start
        while cursor < scalars.endIndex, predicate(scalars[cursor]) {
            cursor = scalars.index(after: cursor)
        }
        return cursor
    }

    /// Past a `12$` argument position, if one starts at `start`.
    private static func skippingPosition(in scalars: String.UnicodeScalarView, from start: String.Index) -> String.Index
    {
        let afterDigits = skipping(in: scalars, from: start, while: isDigit)
        if afterDigits > start, afterDigits < scalars.endIndex, scalars[afterDigits] == "$" {
            return scalars.index(after: afterDigits)
        }
        return start
    }

    /// The name of a `#@name@` starting at `start`, and the index after its closing `@`.
    private static func variableName(
        in scalars: String.UnicodeScalarView,
        from start: String.Index
    ) -> (String, String.Index)? {
        var cursor = start
        for expected: Unicode.Scalar in ["#", "@"] {
            guard cursor < scalars.endIndex, scalars[cursor] == expected else { return nil }
            cursor = scalars.index(after: cursor)
        }
        let nameStart = cursor
        while cursor < scalars.endIndex, scalars[cursor] != "@" {
            if scalars[cursor].properties.isWhitespace { return nil }
            cursor = scalars.index(after: cursor)
        }
        guard cursor < scalars.endIndex, cursor > nameStart else { return nil }
        return (String(scalars[nameStart..<cursor]), scalars.index(after: cursor))
    }
}
