import Foundation
import LocalizationCore
import LocalizationWire

/// ``ResourceReport`` as one self-contained HTML page: inline CSS, no scripts, no fonts,
/// images or anything else fetched (its Content-Security-Policy forbids it), so it opens
/// the same from a mail attachment, a CI artifact or a file share.
enum HTMLReport {
    static func render(_ report: ResourceReport) -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Localization report</title>
            <style>\(style)</style>
            </head>
            <body>
            <h1>Localization report</h1>
            <p class="meta">\(escape(report.roots.joined(separator: ", "))) · reference language <b>\(escape(report.coverage.reference))</b> · \(escape(ISO8601DateFormatter().string(from: report.generated)))</p>

            """
        page += summary(report)
        page += coverage(report.coverage, words: report.words)
        page += plurals(report.plurals, languages: report.coverage.languages.map(\.language))
        page += untranslated(report.untranslated)
        page += findings(report.findings)
        page += languages(report)
        page += "</body>\n</html>\n"
        return page
    }

    static func summary(_ report: ResourceReport) -> String {
        let errors = report.findings.filter { $0.severity == .error }.count
        let gaps = report.plurals.languages.reduce(0) { $0 + $1.gaps.count }
        var cards = [
            ("languages", "\(report.coverage.languages.count)", ""),
            ("lint errors", "\(errors)", errors > 0 ? "bad" : "good"),
            ("lint warnings", "\(report.findings.count { $0.severity == .warning })", ""),
            ("lint notes", "\(report.findings.count { $0.severity == .note })", ""),
            ("plural forms missing", "\(gaps)", gaps > 0 ? "bad" : "good"),
        ]
        if case .entries(let entries, _, _) = report.untranslated {
            cards.append(("keys users hit untranslated", "\(entries.count)", entries.isEmpty ? "good" : "bad"))
        }
        return "<div class=\"cards\">"
            + cards.map { "<div class=\"card \($0.2)\"><b>\(escape($0.1))</b>\(escape($0.0))</div>" }.joined()
            + "</div>\n"
    }

    /// One row per language, a few columns (the tables are in each language's section, so
    /// the table never grows wider than the page, however many tables there are).
    static func coverage(_ coverage: TranslationCoverage, words: ReportWordCounts) -> String {
        var html = "<section id=\"coverage\"><h2>Coverage</h2>\n"
        html += "<p>The share of the \(escape(coverage.reference)) strings and words each language translates; "
        html += "each language's section below has it per table.</p>\n"
        html += "\(tableStart)<thead><tr><th>Language</th><th>Strings</th><th>Words</th><th>Same as source</th>"
        html += "<th>Review</th></tr></thead><tbody>\n"
        for language in coverage.languages {
            let count = words.total(language.language)
            let fraction = count.total == 0 ? 1 : Double(count.translated) / Double(count.total)
            html += "<tr><th scope=\"row\"><a href=\"#lang-\(escape(language.language))\">"
            html += "\(escape(language.language))</a></th><td>\(bar(language.fraction))"
            html += " \(language.translated)/\(language.total)</td>"
            html += "<td>\(bar(fraction)) \(count.translated)/\(count.total)</td><td>\(language.sameAsSource)</td>"
            html += "<td>\(escape(reviewMarks(language)))</td></tr>\n"
        }
        html += "</tbody>\(tableEnd)"
        // A language in a folder of no language tag is in no row: named here, with why.
        if !coverage.skipped.isEmpty {
            html +=
                "<p class=\"skipped\">Skipped for their names, so none of their files is served or counted:</p><ul>\n"
            for skipped in coverage.skipped {
                html += "<li>\(escape(DisplayText.escaped(skipped.message)))</li>\n"
            }
            html += "</ul>\n"
        }
        return html + "</section>\n"
    }

    /// `2 needs review, 1 new`.
    static func reviewMarks(_ language: TranslationCoverage.Language) -> String {
        [(language.needsReview, "needs review"), (language.new, "new"), (language.stale, "stale")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// A row for every language: its plural entries and the forms they lack, or, where it
    /// has none, its CLDR categories and that it has no plural entry.
    static func plurals(_ plurals: PluralCompleteness, languages names: [String]) -> String {
        var html = "<section id=\"plurals\"><h2>Plural completeness</h2>\n"
        html +=
            "<p>Forms each plural entry lacks among its language's CLDR categories (<code>zero</code> is optional).</p>\n"
        html +=
            "\(tableStart)<thead><tr><th>Language</th><th>Categories</th><th>Plural entries</th><th>Missing forms</th></tr></thead><tbody>\n"
        typealias Row = (language: String, categories: [PluralCategory], entries: Int, gaps: [PluralCompleteness.Gap])
        let known = Set(plurals.languages.map(\.language))
        let none: [Row] = names.filter { !known.contains($0) }.compactMap { name in
            (try? LanguageTag(name)).map { (name, PluralRules.cldr(for: $0).categories, 0, []) }
        }
        let rows: [Row] = plurals.languages.map { ($0.language, $0.categories, $0.entries, $0.gaps) } + none
        for language in rows.sorted(by: { $0.language < $1.language }) {
            let categories = language.categories.map(\.rawValue).joined(separator: " ")
            html += "<tr><th scope=\"row\">\(escape(language.language))</th><td>\(escape(categories))</td>"
            html += "<td>\(language.entries)</td><td>"
            if language.entries == 0 {
                html += "<span class=\"note\">no plural entries</span>"
            } else if language.gaps.isEmpty {
                html += "<span class=\"ok\">complete</span>"
            } else {
                html +=
                    "<ul>"
                    + language.gaps.map { gap in
                        "<li><code>\(escape(gap.table))</code> · <code>\(escape(gap.key))</code>"
                            + (gap.variable == "_" ? "" : " · <code>\(escape(gap.variable))</code>")
                            + ": <span class=\"bad\">\(escape(gap.missing.map(\.rawValue).joined(separator: ", ")))</span></li>"
                    }.joined() + "</ul>"
            }
            html += "</td></tr>\n"
        }
        return html + "</tbody>\(tableEnd)</section>\n"
    }

    static func untranslated(_ untranslated: ResourceReport.Untranslated) -> String {
        var html = "<section id=\"untranslated\"><h2>What users hit untranslated</h2>\n"
        switch untranslated {
        case .unavailable(let reason):
            return html
                + "<p class=\"note\">Not measured: \(escape(reason)). Run l10nd, or give --socket.</p></section>\n"
        case .entries(let entries, let dropped, let socket):
            html +=
                "<p>Keys users asked for in a language that lacks them, from the daemon at <code>\(escape(socket))</code>"
            html += dropped > 0 ? " (\(dropped) more not kept: the report was full)." : "."
            html += " Fill them in with <code>l10nctl missing --lang TAG --format strings</code>.</p>\n"
            guard !entries.isEmpty else {
                return html + "<p class=\"ok\">None since the daemon started.</p></section>\n"
            }
            html +=
                "\(tableStart)<thead><tr><th>Language</th><th>Table</th><th>Key</th><th>Asked</th><th>Users saw</th></tr></thead><tbody>\n"
            for entry in entries {
                let from = entry["from"]?.stringValue.map { "the \($0) string" } ?? "the key (found in no language)"
                html += "<tr><td>\(escape(entry["lang"]?.stringValue ?? ""))</td>"
                html += "<td>\(escape(entry["table"]?.stringValue ?? ""))</td>"
                html += "<td><code>\(escape(entry["key"]?.stringValue ?? ""))</code></td>"
                html += "<td>\(entry["count"]?.integerValue ?? 0)</td><td>\(escape(from))</td></tr>\n"
            }
            return html + "</tbody>\(tableEnd)</section>\n"
        }
    }

    /// Findings by rule, then by language, each group's lines in a collapsed list (all of
    /// them: nothing is left out).
    static func findings(_ findings: [LintFinding]) -> String {
        var html = "<section id=\"lint\"><h2>Lint findings</h2>\n"
        guard !findings.isEmpty else { return html + "<p class=\"ok\">None.</p></section>\n" }
        html += "<p>By rule, then by language, as <code>l10nctl lint</code> reports them.</p>\n"
        let byRule = Dictionary(grouping: findings, by: \.rule)
        // Errors first, notes last: what breaks the app is what a reader must not scroll past.
        let rules = byRule.keys.sorted { (byRule[$0]![0].severity, $0) < (byRule[$1]![0].severity, $1) }
        for rule in rules {
            let group = byRule[rule]!
            html += "<h3 id=\"rule-\(rule.rawValue)\"><code>\(rule.rawValue)</code> · \(group.count) "
            html += "\(escape(group[0].severity.rawValue))\(group.count == 1 ? "" : "s")</h3>"
            html += "<p class=\"note\">\(escape(rule.summary))</p>\n"
            html += "\(tableStart)<thead><tr><th>Language</th><th>Findings</th></tr></thead><tbody>\n"
            let byLanguage = Dictionary(grouping: group) { language(of: $0) }
            for language in byLanguage.keys.sorted() {
                let lines = byLanguage[language]!
                html += "<tr class=\"\(lines[0].severity.rawValue)\"><th scope=\"row\">\(escape(language))</th><td>"
                html += "<details><summary>\(lines.count)</summary><ul>"
                html += lines.map {
                    "<li><code>\(escape($0.location.description))</code> \(escape($0.message))</li>"
                }.joined()
                html += "</ul></details></td></tr>\n"
            }
            html += "</tbody>\(tableEnd)\n"
        }
        return html + "</section>\n"
    }

    /// The language a finding is about: its file's `.lproj`, else its String Catalog's.
    static func language(of finding: LintFinding) -> String {
        let components = (finding.location.file ?? "").split(separator: "/")
        if let lproj = components.last(where: { $0.hasSuffix(".lproj") }) { return String(lproj.dropLast(6)) }
        return "String Catalogs"
    }

    /// Every table stands in a box of its own that scrolls sideways when the window is
    /// narrower than the table, so no column is ever out of reach past the page's edge.
    static let tableStart = "<div class=\"scroll\"><table>"
    static let tableEnd = "</table></div>"

    /// A bar filled to `fraction`, with its percentage.
    static func bar(_ fraction: Double) -> String {
        let percent = (fraction * 1000).rounded() / 10
        let level = fraction >= 0.999 ? "full" : fraction >= 0.8 ? "high" : "low"
        return "<span class=\"bar\"><span class=\"\(level)\" style=\"width:\(percent)%\"></span></span>"
            + "<span class=\"pct\">\(percent)%</span>"
    }

    /// Text made safe for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d2330;background:#fff}
        h1{margin:0 0 .25rem}h2{margin-top:2rem;border-bottom:1px solid #dde;padding-bottom:.25rem}
        .meta,.note{color:#5a6272}code{overflow-wrap:anywhere;font:13px ui-monospace,monospace;background:#f3f4f8;padding:0 .2em;border-radius:3px}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eef;vertical-align:top}
        thead th{background:#f6f7fb;font-size:13px}ul{margin:0;padding-left:1.1rem}
        .cards{display:flex;flex-wrap:wrap;gap:.75rem;margin:1rem 0}.card{border:1px solid #dde;border-radius:6px;padding:.5rem .9rem;min-width:9rem}
        .card b{display:block;font-size:1.6rem}.card.bad b,.bad{color:#b42318}.card.good b,.ok{color:#18794e}
        .scroll{overflow-x:auto}.bar{display:inline-block;width:4.5rem;height:.6rem;background:#eceef4;border-radius:3px;overflow:hidden;vertical-align:middle}
        .bar span{display:block;height:100%}.bar .full{background:#2e9e6a}.bar .high{background:#e0a31a}.bar .low{background:#d9534f}
        .pct{display:inline-block;min-width:3.6rem;text-align:right;font-variant-numeric:tabular-nums;margin-right:.3rem}
        tr.error th{color:#b42318}tr.warning th{color:#a15c00}h3{margin:1.2rem 0 .2rem;font-size:1rem}
        details summary{cursor:pointer}details li{white-space:normal;word-break:break-word}td{white-space:normal}
        .lang{border-top:2px solid #dde;margin-top:2rem}
        """
}
