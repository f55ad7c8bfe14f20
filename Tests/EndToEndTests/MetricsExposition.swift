import Foundation

/// `l10nctl metrics` output read back by the tests: families with their `# HELP`/`# TYPE`,
/// samples by name and labels. Strict: a sample of an undeclared family, a family without
/// help, a line after `# EOF` or a missing `# EOF` is an error.
struct MetricsExposition {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// Family name → type (`counter`, `gauge`, `histogram`).
    var types: [String: String] = [:]
    /// `name{labels}` as written → value.
    var samples: [String: Double] = [:]

    init(_ text: String) throws {
        var helped = Set<String>()
        var ended = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if ended {
                guard line.isEmpty else { throw Malformed(description: "text after # EOF: \(line)") }
                continue
            }
            if line == "# EOF" {
                ended = true
                continue
            }
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            if line.hasPrefix("# HELP ") {
                guard words.count == 4 else { throw Malformed(description: "help without text: \(line)") }
                helped.insert(words[2])
            } else if line.hasPrefix("# TYPE ") {
                guard words.count == 4, ["counter", "gauge", "histogram"].contains(words[3]) else {
                    throw Malformed(description: "bad type line: \(line)")
                }
                guard helped.contains(words[2]) else { throw Malformed(description: "type before help: \(line)") }
                guard types.updateValue(words[3], forKey: words[2]) == nil else {
                    throw Malformed(description: "family declared twice: \(line)")
                }
            } else {
                guard let space = line.lastIndex(of: " "),
                    let value = Double(line[line.index(after: space)...])
                        ?? (line.hasSuffix(" +Inf") ? Double.infinity : nil)
                else { throw Malformed(description: "bad sample: \(line)") }
                let series = String(line[..<space])
                let name = String(series.prefix { $0 != "{" })
                guard let family = Self.family(of: name, in: types) else {
                    throw Malformed(description: "sample of an undeclared family: \(line)")
                }
                if types[family] == "counter" {
                    guard name.hasSuffix("_total") else {
                        throw Malformed(description: "counter without _total: \(line)")
                    }
                }
                guard samples.updateValue(value, forKey: series) == nil else {
                    throw Malformed(description: "sample written twice: \(line)")
                }
            }
        }
        guard ended else { throw Malformed(description: "no # EOF line") }
    }

    /// The declared family a sample name belongs to (a histogram's `_bucket`, `_sum`, `_count`).
    static func family(of name: String, in types: [String: String]) -> String? {
        if types[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return nil
    }

    /// The value of `series` (`name` or `name{label="value",…}` as written).
    subscript(series: String) -> Double? { samples[series] }
}
