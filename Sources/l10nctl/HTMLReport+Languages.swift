import LocalizationCore
import LocalizationWire

extension HTMLReport {
    /// A section per language, for the translator or vendor who owns it: strings and words
    /// translated, per table; its plural entries and the forms they lack; its lint findings
    /// by rule; what its users hit untranslated.
    static func languages(_ report: ResourceReport) -> String {
        var html = "<section id=\"languages\"><h2>Languages</h2>\n"
        let plurals = Dictionary(report.plurals.languages.map { ($0.language, $0) }) { first, _ in first }
        let findings = Dictionary(grouping: report.findings) { language(of: $0) }
        var misses: [String: Int] = [:]
        if case .entries(let entries, _, _) = report.untranslated {
            for entry in entries { misses[entry["lang"]?.stringValue ?? "", default: 0] += 1 }
        }
        for language in report.coverage.languages {
            let name = language.language
            let words = report.words.total(name)
            html += "<section class=\"lang\" id=\"lang-\(escape(name))\"><h3>\(escape(name))</h3>\n<p>"
            html += "\(language.translated) of \(language.total) strings, \(words.translated) of \(words.total) words "
            html += "translated; \(language.sameAsSource) the same as the source"
            let review = reviewMarks(language)
            html += review.isEmpty ? "" : "; \(escape(review))"
            html += misses[name].map { "; users hit \($0) keys untranslated" } ?? ""
            html += ".</p>\n\(tableStart)<thead><tr><th>Table</th><th>Strings</th><th>Words</th></tr></thead><tbody>\n"
            for table in language.tables {
                let count = report.words.counts[name]?[table.name] ?? ReportWordCounts.Count()
                let fraction = count.total == 0 ? 1 : Double(count.translated) / Double(count.total)
                html += "<tr><th scope=\"row\">\(escape(table.name))</th><td>\(bar(table.fraction)) "
                html +=
                    "\(table.translated)/\(table.total)</td><td>\(bar(fraction)) \(count.translated)/\(count.total)</td></tr>\n"
            }
            html += "</tbody>\(tableEnd)\n"
            if let plural = plurals[name] {
                let categories = escape(plural.categories.map(\.rawValue).joined(separator: " "))
                html += "<p>Plurals: \(plural.entries) \(plural.entries == 1 ? "entry" : "entries"), "
                html += "each needing the forms \(categories); "
                html +=
                    plural.gaps.isEmpty
                    ? "<span class=\"ok\">no form missing</span>"
                    : "<span class=\"bad\">\(plural.gaps.count) with forms missing</span> (see <a href=\"#plurals\">Plural completeness</a>)"
                html += ".</p>\n"
            }
            let own = Dictionary(grouping: findings[name] ?? [], by: \.rule)
            html +=
                own.isEmpty
                ? "<p class=\"ok\">No lint findings.</p>\n"
                : "<p>Lint: "
                    + own.keys.sorted().map {
                        "<a href=\"#rule-\($0.rawValue)\"><code>\($0.rawValue)</code></a> \(own[$0]!.count)"
                    }.joined(separator: ", ") + ".</p>\n"
            html += "</section>\n"
        }
        return html + "</section>\n"
    }
}
