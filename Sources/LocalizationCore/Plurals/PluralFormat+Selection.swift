extension PluralFormat {
    /// How deep forms may name further variables; a cycle must not hang.
    static let maximumSelectionNesting = 8

    /// The format with every variable replaced by the form its count selects: the string
    /// to format with the caller's arguments.
    ///
    /// Each `%#@name@` (or `%2$#@name@`) takes an argument like any conversion; `count`
    /// gives that argument's number (by 1-based position), and `rules` its category.
    /// Apple's zero case applies first: a count of exactly 0 takes a `zero` form when the
    /// variable has one, whatever the language's rules (English "No unread messages").
    /// A missing form falls back to `other`.
    ///
    /// When the format takes more than one argument, every conversion in the result is
    /// made positional (`%d file in %d folders` → `%1$d file in %2$d folders`), so the
    /// arguments still line up however the forms are worded.
    ///
    /// ```swift
    /// format.resolved(rules: .cldr(for: ru)) { _ in PluralOperands(21) }   // "%d файл"
    /// ```
    public func resolved(rules: PluralRules, count: (_ position: Int) -> PluralOperands?) -> String {
        let segments = FormatSpecifier.segments(format)
        let consuming = segments.filter { if case .specifier = $0 { true } else { false } }.count
        return expand(segments, rules: rules, count: count, positional: consuming > 1, inherited: nil, nesting: 0)
    }

    /// The format with every variable's form chosen by `counts`: one count for every
    /// variable (the daemon's `count` field, `l10nctl get --count`), or each variable's
    /// by the count of its own argument, `counts[n - 1]` for argument `n` (the daemon's
    /// `counts` field). A variable without a count takes the `other` form, as one whose
    /// argument is not a number does.
    ///
    /// ```swift
    /// format.resolved(.counts([PluralOperands(3), PluralOperands(1)]), rules: .cldr(for: fr))
    /// // "%1$d fichiers dans %2$d dossier"
    /// ```
    public func resolved(_ counts: PluralCounts, rules: PluralRules) -> String {
        resolved(rules: rules, count: counts.count(ofArgument:))
    }

    /// The form of `variable` for `operands`, Apple's zero case first. A variable that
    /// formats its count as an integer (``Variable/takesInteger``) selects by the count's
    /// integral part, the number it prints: 1.5 and 1.0 are "1 file", not "1 files".
    static func form(of variable: Variable, for operands: PluralOperands?, rules: PluralRules) -> String {
        guard var operands else { return variable.form(for: .other) ?? "" }
        if operands.visibleFractionDigits > 0, variable.takesInteger {
            operands = PluralOperands(Int(clamping: operands.integer))
        }
        if operands.integer == 0, operands.isWhole, let zero = variable.forms[.zero] { return zero }
        return variable.form(for: rules.category(for: operands)) ?? ""
    }

    private func expand(
        _ segments: [FormatSegment], rules: PluralRules, count: (Int) -> PluralOperands?, positional: Bool,
        inherited: Int?, nesting: Int
    ) -> String {
        var result = ""
        // The next argument of a conversion without a position: CoreFoundation counts those
        // apart from numbered ones (`%2$@ has %#@c@`: the variable takes argument 1, not 3).
        var next = 1
        for segment in segments {
            guard case .specifier(let specifier) = segment else {
                result += segment.text
                continue
            }
            // Inside a form, conversions without a position take the variable's argument.
            let position = specifier.position ?? inherited ?? next
            if inherited == nil, specifier.position == nil { next += 1 }
            if specifier.kind == .pluralVariable, let variable = variables[specifier.conversion],
                nesting < Self.maximumSelectionNesting
            {
                let argument = variable.argumentNumber ?? position
                let form = Self.form(of: variable, for: count(argument), rules: rules)
                result += expand(
                    FormatSpecifier.segments(form), rules: rules, count: count, positional: positional,
                    inherited: argument, nesting: nesting + 1)
            } else if positional && specifier.position == nil {
                result += specifier.at(position: position).text
            } else {
                result += specifier.text
            }
        }
        return result
    }
}
