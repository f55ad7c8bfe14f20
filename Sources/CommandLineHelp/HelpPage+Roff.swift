extension HelpPage {
    /// The page as a manual page in roff (`man -l` reads it): NAME and SYNOPSIS from the
    /// summary and usage lines, then every section.
    ///
    /// - Parameter version: shown in the footer, e.g. `l10nd 0.1.0`.
    package func roff(version: String) -> String {
        var lines = [
            ".\\\" Generated from the program's built-in help; edit that, not this file.",
            ".TH \(Self.quoted(name.uppercased())) \(section) \"\" \(Self.quoted(version)) \"l10nd\"",
            // Option names and paths read best unhyphenated and ragged right.
            ".nh",
            ".ad l",
            ".SH NAME",
            "\(Self.escaped(name)) \\- \(Self.escaped(summary))",
            ".SH SYNOPSIS",
        ]
        for (index, line) in synopsis.enumerated() {
            if index > 0 { lines.append(".br") }
            lines.append(".B " + Self.escaped(line))
        }
        for section in sections { lines += section.roffLines(level: 0) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe on a roff line: backslashes written as `\e`, hyphens as `\-` (so options
    /// copy and paste as ASCII), and a leading `.` or `'` kept from being read as a request.
    static func escaped(_ text: String) -> String {
        var result = text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    /// A macro argument in double quotes (a literal quote doubled, as groff reads it).
    static func quoted(_ text: String) -> String { "\"" + escaped(text).replacingAll("\"", with: "\"\"") + "\"" }
}

extension HelpSection {
    /// This section in roff: `.SH` at the top level, `.SS` below it.
    func roffLines(level: Int) -> [String] {
        var lines = [(level == 0 ? ".SH " : ".SS ") + HelpPage.quoted(level == 0 ? title.uppercased() : title)]
        for paragraph in paragraphs {
            lines.append(".PP")
            lines += paragraph.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap {
                $0.offset == 0 ? [HelpPage.escaped(String($0.element))] : [".br", HelpPage.escaped(String($0.element))]
            }
        }
        for entry in entries {
            lines += [".TP", "\\fB" + HelpPage.escaped(entry.term) + "\\fR"]
            lines += entry.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap {
                $0.offset == 0 ? [HelpPage.escaped(String($0.element))] : [".br", HelpPage.escaped(String($0.element))]
            }
        }
        for subsection in subsections { lines += subsection.roffLines(level: level + 1) }
        return lines
    }
}

extension String {
    /// Every `target` replaced, without Foundation (this module has no dependencies).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
