extension HelpPage {
    /// Columns of the plain-text help: a terminal's default width.
    package static let textWidth = 80
    /// Where an entry's text starts in the plain-text help.
    package static let termColumn = 30

    /// The page as `--help` prints it: the summary, the usage lines, then every section,
    /// wrapped at 80 columns.
    package var text: String {
        var lines = ["\(name): \(summary).", ""]
        lines += synopsis.enumerated().map { $0.offset == 0 ? "Usage: \($0.element)" : "       \($0.element)" }
        for section in sections { lines += [""] + section.textLines(indent: 0) }
        return lines.joined(separator: "\n")
    }
}

extension HelpSection {
    /// This section as plain text, its heading as `Title:` and its body indented under it.
    package func textLines(indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines = [margin + Self.heading(title) + ":"]
        for paragraph in paragraphs {
            lines += HelpText.wrap(paragraph, width: HelpPage.textWidth - indent - 2).map { margin + "  " + $0 }
        }
        if !paragraphs.isEmpty, !entries.isEmpty { lines.append("") }
        for entry in entries {
            let textWidth = HelpPage.textWidth - HelpPage.termColumn
            let wrapped = HelpText.wrap(entry.text, width: textWidth)
            let term = margin + "  " + entry.term
            if term.count + 2 > HelpPage.termColumn {
                lines.append(term)
                lines += wrapped.map { String(repeating: " ", count: HelpPage.termColumn) + $0 }
            } else {
                let padded = term + String(repeating: " ", count: HelpPage.termColumn - term.count)
                lines += wrapped.enumerated().map {
                    ($0.offset == 0 ? padded : String(repeating: " ", count: HelpPage.termColumn)) + $0.element
                }
            }
        }
        for subsection in subsections { lines += [""] + subsection.textLines(indent: indent + 2) }
        return lines
    }

    /// `GLOBAL OPTIONS` as `Global options`: capitals are the manual page's convention.
    static func heading(_ title: String) -> String {
        guard title == title.uppercased() else { return title }
        return title.prefix(1) + title.dropFirst().lowercased()
    }
}

/// Word wrapping for plain-text help.
package enum HelpText {
    /// `text` cut into lines of at most `width` characters at spaces (a longer word keeps
    /// its own line); a newline in `text` always starts a new line.
    package static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for given in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in given.split(separator: " ") {
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }
}
