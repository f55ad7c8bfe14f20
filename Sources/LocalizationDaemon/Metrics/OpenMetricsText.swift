/// Writes metric families as the text Prometheus scrapes: `# HELP`, `# TYPE`, the samples,
/// and a closing `# EOF`.
///
/// The format is Prometheus' text exposition format 0.0.4, ended with OpenMetrics' `# EOF`:
/// counters are declared under their `_total` name, as that format requires, because it is
/// what `promtool check metrics` and node_exporter's textfile collector read (both take the
/// `# EOF` line as a comment). docs/DAEMON.md says how to scrape it.
package enum OpenMetricsText {
    /// The content type to serve it with over HTTP.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition of `families`, in the order given.
    package static func render(_ families: [MetricFamily]) -> String {
        var text = ""
        for family in families {
            text += "# HELP \(family.name) \(escapeHelp(family.help))\n"
            text += "# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                text += family.name + sample.suffix
                if !sample.labels.isEmpty {
                    text += "{"
                    text += sample.labels.map { "\($0.name)=\"\(escapeLabelValue($0.value))\"" }.joined(separator: ",")
                    text += "}"
                }
                text += " \(number(sample.value))\n"
            }
        }
        return text + "# EOF\n"
    }

    /// A value as the format spells it: whole numbers without a fraction, `+Inf`, `-Inf`, `NaN`.
    package static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Help text with `\` and newlines escaped.
    static func escapeHelp(_ text: String) -> String {
        text.replacingAll([("\\", "\\\\"), ("\n", "\\n")])
    }

    /// A label value with `\`, `"` and newlines escaped.
    static func escapeLabelValue(_ text: String) -> String {
        text.replacingAll([("\\", "\\\\"), ("\"", "\\\""), ("\n", "\\n")])
    }
}

extension String {
    /// The string with each character of `replacements` replaced, in one pass.
    fileprivate func replacingAll(_ replacements: [(Character, String)]) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if let replacement = replacements.first(where: { $0.0 == character }) {
                result += replacement.1
            } else {
                result.append(character)
            }
        }
        return result
    }
}
