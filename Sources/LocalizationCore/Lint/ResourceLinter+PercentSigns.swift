extension ResourceLinter {
    /// Translations with more lone `%` than the development language's text, when that text
    /// is a format (it has a conversion or a `%%`): `%d% erledigt` for `%d%% done`, `100%
    /// sicher` for `100%% sure`. printf reads a lone `%` as the start of a conversion (`% e`
    /// is a float with a space flag), so the percent sign is lost or an argument is read that
    /// was never passed. Checked for the value (whose plural variables stand as their `other`
    /// forms) and every other plural form (against the original's form of the same category,
    /// else its `other`).
    static func percentFindings(
        _ key: String, _ translated: TableEntry, of original: TableEntry, styles: PlaceholderStyles,
        at variableLocations: [String: SourceLocation], else location: SourceLocation, suffix: String,
        related: SourceLocation? = nil
    ) -> [LintFinding] {
        guard styles.contains(.printf) else { return [] }
        var findings: [LintFinding] = []
        if let problem = percentProblem(original.value, translated.value, styles: styles) {
            findings.append(
                LintFinding(
                    .percentSign, at: location, "\(LintQuoting.quoted(key))\(suffix): \(problem)", related: related))
        }
        for (name, variable) in (translated.plural?.variables ?? [:]).sorted(by: { $0.key < $1.key }) {
            let reference = original.plural?.variables[name]
            // `other` is in the entry's value, checked above.
            for (category, form) in variable.forms.sorted(by: { $0.key.rawValue < $1.key.rawValue })
            where category != .other {
                let source = reference?.forms[category] ?? reference?.forms[.other] ?? original.value
                guard let problem = percentProblem(source, form, styles: styles) else { continue }
                findings.append(
                    LintFinding(
                        .percentSign, at: variableLocations[name] ?? location,
                        "\(LintQuoting.quoted(key))\(suffix): plural variable \(LintQuoting.quoted(name)) form \(category.rawValue): \(problem)",
                        related: related))
            }
        }
        return findings
    }

    /// Why `translation`'s percent signs break where `original`'s do not, or `nil`.
    static func percentProblem(_ original: String, _ translation: String, styles: PlaceholderStyles) -> String? {
        let source = percentSigns(original, styles: styles)
        guard source.isFormat else { return nil }
        let found = percentSigns(translation, styles: styles)
        guard found.lone > source.lone else { return nil }
        let sign = found.lone == 1 ? "a lone '%'" : "\(found.lone) lone '%'"
        return source.escapes > 0
            ? "\(sign) where the development language writes '%%' (\(source.escapes)); printf reads a lone '%' "
                + "as the start of a conversion: write '%%' for a percent sign"
            : "\(sign) in a format string; printf reads it as the start of a conversion: write '%%' for a percent sign"
    }

    /// How `text`'s `%` read under printf: `%%` escapes, lone `%` (a `%` that starts no
    /// conversion, or a prose percent such as `% erledigt`, which printf would take for
    /// `% e`), and whether it is a format at all.
    static func percentSigns(_ text: String, styles: PlaceholderStyles) -> (escapes: Int, lone: Int, isFormat: Bool) {
        func percents(_ text: String) -> Int { text.unicodeScalars.count { $0 == "%" } }
        let written = styles.contains(.percentNumber) ? PlaceholderStyles.removingNumberedPercents(text) : text
        let printf = PlaceholderStyles.removingProsePercents(written)
        var escapes = 0
        var lone = percents(written) - percents(printf)
        var specifiers = 0
        for segment in FormatSpecifier.segments(printf) {
            switch segment {
            case .percent: escapes += 1
            case .specifier: specifiers += 1
            case .literal(let text): lone += percents(text)
            }
        }
        return (escapes, lone, escapes + specifiers > 0)
    }
}
