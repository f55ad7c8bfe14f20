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
public struct HelpPage: Sendable {
    /// The program or file name, as the manual page's title (`l10nd`, `l10nd.conf`).
    public var name: String
    /// The manual section: 1 commands, 5 file formats, 8 system daemons.
    public var section: Int
    /// One line saying what it is, without a final full stop.
    public var summary: String
    /// The command lines it takes, one per line.
    public var synopsis: [String]
    /// DESCRIPTION, OPTIONS, FILES…, in order.
    public var sections: [HelpSection]

    /// A page with every part given.
    public init(name: String, section: Int, summary: String, synopsis: [String], sections: [HelpSection]) {
        self.name = name
        self.section = section
        self.summary = summary
        self.synopsis = synopsis
        self.sections = sections
    }

    /// The section titled `title`, if the page has one.
    public func section(_ title: String) -> HelpSection? { sections.first { $0.title == title } }
}

/// One titled part of a ``HelpPage``: paragraphs, then term–text entries, then subsections.
public struct HelpSection: Sendable {
    /// The heading, in capitals in the manual page (`OPTIONS`).
    public var title: String
    /// Running text, one string per paragraph.
    public var paragraphs: [String]
    /// Options, commands, keys: each a term and what it means.
    public var entries: [HelpEntry]
    /// Nested parts (a command each, in `l10nctl(1)`).
    public var subsections: [HelpSection]

    /// A section; every part but the title may be left out.
    public init(
        _ title: String, paragraphs: [String] = [], entries: [HelpEntry] = [], subsections: [HelpSection] = []
    ) {
        self.title = title
        self.paragraphs = paragraphs
        self.entries = entries
        self.subsections = subsections
    }
}

/// A term (`--socket PATH`) and what it means.
public struct HelpEntry: Sendable {
    /// What is written: an option with its value, a command, a key.
    public var term: String
    /// What it does, as one paragraph.
    public var text: String

    /// An entry.
    public init(_ term: String, _ text: String) {
        self.term = term
        self.text = text
    }
}
