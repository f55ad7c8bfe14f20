/// Whether a translated `NSStringLocalizedFormatKey` gives its plural variables the same
/// arguments as the development language's: each `%#@name@` without a position takes the
/// next argument, so `%#@folders@中有%#@files@` for `%#@files@ in %#@folders@` counts the
/// files by the folders' number. The conversions' own checks skip variables, and the text
/// still reads well, so nothing else notices the swap.
package enum PluralVariableOrder {
    /// The argument each variable at the top level of `format` takes, as
    /// ``PluralFormat``'s expansion assigns them (positionless conversions count apart).
    /// A String Catalog substitution's `argNum` (in `variables`) takes the place of the
    /// position, as the expansion gives it.
    static func arguments(of format: String, variables: [String: PluralFormat.Variable] = [:]) -> [String: Int] {
        var arguments: [String: Int] = [:]
        var next = 1
        for specifier in FormatSpecifier.parse(format) {
            let position = specifier.position ?? next
            if specifier.position == nil { next += 1 }
            if specifier.kind == .pluralVariable, arguments[specifier.conversion] == nil {
                arguments[specifier.conversion] = variables[specifier.conversion]?.argumentNumber ?? position
            }
        }
        return arguments
    }

    /// Why `translation`'s String Catalog substitutions (or `.stringsdict` variables) take
    /// other arguments than `original`'s: a substitution's `argNum` says which argument it
    /// counts by, so `folders` with `argNum` 1 in German where English gives it 2 counts the
    /// folders by the files' number. `nil` when every variable both have takes the same one.
    package static func problem(_ original: PluralFormat, _ translation: PluralFormat) -> String? {
        let expected = arguments(of: original.format, variables: original.variables)
        let actual = arguments(of: translation.format, variables: translation.variables)
        let moved = actual.filter { name, argument in expected[name].map { $0 != argument } ?? false }
        guard !moved.isEmpty else { return nil }
        guard moved.keys.contains(where: { translation.variables[$0]?.argumentNumber != nil }) else {
            return problem(original.format, translation.format)
        }
        let names = moved.keys.sorted().map { "'\($0)' takes argument \(actual[$0]!), not \(expected[$0]!)" }
        let fix = moved.keys.sorted().map { "argNum \(expected[$0]!) for '\($0)'" }
        return "the substitutions take other arguments than in the development language ("
            + names.joined(separator: ", ") + "): each counts by another number; write "
            + fix.joined(separator: ", ")
    }

    /// Why `translation`'s variables take other arguments than `original`'s, with the
    /// format that fixes it (`%2$#@folders@ … %1$#@files@`), or `nil` when every variable
    /// both formats have takes the same argument.
    package static func problem(_ original: String, _ translation: String) -> String? {
        let expected = arguments(of: original)
        let actual = arguments(of: translation)
        let moved = actual.filter { name, argument in expected[name].map { $0 != argument } ?? false }
        guard !moved.isEmpty else { return nil }
        // The fix names every variable in the translation's order, at the source's argument.
        let fix = FormatSpecifier.parse(translation).filter { $0.kind == .pluralVariable }
            .map { specifier in
                expected[specifier.conversion].map { "%\($0)$#@\(specifier.conversion)@" } ?? specifier.text
            }
            .joined(separator: " … ")
        let names = moved.keys.sorted().map { "'\($0)' takes argument \(actual[$0]!), not \(expected[$0]!)" }
        return "the plural variables take other arguments than in the development language ("
            + names.joined(separator: ", ") + "): each counts by another number; write \(fix)"
    }
}
