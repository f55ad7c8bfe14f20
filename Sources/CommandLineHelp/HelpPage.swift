/// A program's help as data: what `--help` prints and what its manual page says, so the
/// two cannot disagree.
///
/// ```swift
/// let page = HelpPage(
///     name: "l10nd", section: 8, summary: "serve localized strings",
///     synopsis: ["l10nd [--config FILE]"], sections: [HelpSection("OPTIONS", entries: […])])
/// print(page.text)   // --help
/// print(page.roff)   // l10nd.8
/// ```
package struct HelpPage: Sendable {
    /// The program or file name, as the manual page's title (`l10nd`, `l10nd.conf`).
    package var name: String
    /// The manual section: 1 commands, 5 file formats, 8 system daemons.
    package var section: Int
    /// One line saying what it is, without a final full stop.
    package var summary: String
    /// The command lines it takes, one per line.
    package var synopsis: [String]
    /// DESCRIPTION, OPTIONS, FILES…, in order.
    package var sections: [HelpSection]

    /// A page with every part given.
    package init(name: String, section: Int, summary: String, synopsis: [String], sections: [HelpSection]) {
        self.name = name
        self.section = section
        self.summary = summary
        self.synopsis = synopsis
        self.sections = sections
    }

    /// The section titled `title`, if the page has one.
    package func section(_ title: String) -> HelpSection? { sections.first { $0.title == title } }
}

/// One titled part of a ``HelpPage``: paragraphs, then term–text entries, then subsections.
package struct HelpSection: Sendable {
    /// The heading, in capitals in the manual page (`OPTIONS`).
    package var title: String
    /// Running text, one string per paragraph.
    package var paragraphs: [String]
    /// Options, commands, keys: each a term and what it means.
    package var entries: [HelpEntry]
    /// Nested parts (a command each, in `l10nctl(1)`).
    package var subsections: [HelpSection]

    /// A section; every part but the title may be left out.
    package init(
        _ title: String, paragraphs: [String] = [], entries: [HelpEntry] = [], subsections: [HelpSection] = []
    ) {
        self.title = title
        self.paragraphs = paragraphs
        self.entries = entries
        self.subsections = subsections
    }
}

/// A term (`--socket PATH`) and what it means.
package struct HelpEntry: Sendable {
    /// What is written: an option with its value, a command, a key.
    package var term: String
    /// What it does, as one paragraph.
    package var text: String

    /// An entry.
    package init(_ term: String, _ text: String) {
        self.term = term
        self.text = text
    }
}
