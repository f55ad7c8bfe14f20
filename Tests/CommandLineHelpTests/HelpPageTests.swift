import CommandLineHelp
import Testing

/// The two renderings of one ``HelpPage``: `--help` text and the roff of a manual page.
@Suite struct HelpPageTests {
    let page = HelpPage(
        name: "demo", section: 8, summary: "a demo daemon", synopsis: ["demo [--flag N]", "demo --help"],
        sections: [
            HelpSection("DESCRIPTION", paragraphs: [".starts with a dot, has a back\\slash and a -dash"]),
            HelpSection(
                "OPTIONS",
                entries: [
                    HelpEntry("--flag N", "Sets N."),
                    HelpEntry("--a-very-long-option-name VALUE", "Its text goes under it."),
                ]),
        ])

    @Test func textHasTheSummaryUsageAndEveryEntry() {
        let lines = page.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "demo: a demo daemon.")
        #expect(lines.contains("Usage: demo [--flag N]"))
        #expect(lines.contains("       demo --help"))
        #expect(lines.contains("Options:"))
        #expect(lines.contains("  --flag N" + String(repeating: " ", count: 30 - 10) + "Sets N."))
        #expect(lines.contains("  --a-very-long-option-name VALUE"))
        #expect(lines.contains(String(repeating: " ", count: 30) + "Its text goes under it."))
    }

    @Test func wrappingKeepsLinesWithinTheWidth() {
        let text = Array(repeating: "word", count: 40).joined(separator: " ")
        let lines = HelpText.wrap(text, width: 20)
        #expect(lines.allSatisfy { $0.count <= 20 })
        #expect(lines.joined(separator: " ") == text)
        #expect(HelpText.wrap("one\ntwo", width: 80) == ["one", "two"])
    }

    @Test func roffEscapesWhatGroffWouldReadAsMarkup() {
        let roff = page.roff(version: "demo 1.0")
        #expect(roff.contains(".TH \"DEMO\" 8 \"\" \"demo 1.0\" \"l10nd\""))
        #expect(roff.contains(".SH NAME\ndemo \\- a demo daemon"))
        #expect(roff.contains("\\&.starts with a dot, has a back\\eslash and a \\-dash"))
        #expect(roff.contains(".TP\n\\fB\\-\\-flag N\\fR\nSets N."))
        #expect(roff.contains(".B demo [\\-\\-flag N]\n.br\n.B demo \\-\\-help"))
    }

    @Test func suggestionFindsTyposOnly() {
        #expect(Suggestion.closest(to: "stauts", among: ["status", "reload"]) == "status")
        #expect(Suggestion.closest(to: "bogus", among: ["status", "reload"]) == nil)
    }
}
