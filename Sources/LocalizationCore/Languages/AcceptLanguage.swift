/// Reads an HTTP `Accept-Language` value (`de-DE,de;q=0.9,en;q=0.8`, RFC 9110 §12.5.4) as a
/// list of preferred languages, most preferred first.
///
/// Languages are ordered by their `q` weight (default 1), keeping the header's order
/// among equal weights. `q=0` means "not this one" and is left out, as is `*` (any
/// language: the lookup's own fallback already covers it). A part that is not a language
/// tag, or whose weight is not a number from 0 to 1, is skipped, so one bad part never
/// costs the rest. Each language appears once, at its best weight.
///
/// ```swift
/// AcceptLanguage.preferences("de-DE,de;q=0.9,en;q=0.8").map(\.identifier)  // ["de-DE", "de", "en"]
/// ```
public enum AcceptLanguage {
    /// The most parts read: a real header has a handful, and a list is never unbounded.
    public static let maximumParts = 32

    /// The languages `header` names, most preferred first; empty when none is usable.
    public static func preferences(_ header: String) -> [LanguageTag] {
        var weighted: [(tag: LanguageTag, weight: Double, position: Int)] = []
        for (position, part) in header.split(separator: ",").prefix(maximumParts).enumerated() {
            let fields = part.split(separator: ";", omittingEmptySubsequences: false)
            let name = fields[0].trimmingSpaces
            guard name != "*", let tag = try? LanguageTag(name), let weight = weight(fields.dropFirst()), weight > 0
            else { continue }
            weighted.append((tag, weight, position))
        }
        weighted.sort { ($0.weight, -$0.position) > ($1.weight, -$1.position) }
        var seen = Set<LanguageTag>()
        return weighted.map(\.tag).filter { seen.insert($0).inserted }
    }

    /// Whether `header` accepts any language: it has a `*` part with a weight above 0
    /// (`*`, `*;q=0.5`, `de;q=0, *`). Such a list is usable even when it names no language:
    /// "anything" is what the chain's own tail (`Base`, the development language) serves.
    public static func acceptsAnyLanguage(_ header: String) -> Bool {
        header.split(separator: ",").prefix(maximumParts).contains { part in
            let fields = part.split(separator: ";", omittingEmptySubsequences: false)
            guard fields[0].trimmingSpaces == "*", let weight = weight(fields.dropFirst()) else { return false }
            return weight > 0
        }
    }

    /// Whether `text` is a list rather than one tag: it has a `,` or a `;`, or is `*`.
    public static func isList(_ text: String) -> Bool {
        text.contains(",") || text.contains(";") || text.trimmingSpaces == "*"
    }

    /// The `q` of a part's parameters, 1 without one; `nil` when malformed.
    private static func weight(_ parameters: ArraySlice<Substring>) -> Double? {
        var weight = 1.0
        for parameter in parameters {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(\.trimmingSpaces)
            guard pair.count == 2, pair[0].lowercased() == "q" else { return nil }
            guard pair[1].count <= 5, let value = Double(pair[1]), (0...1).contains(value) else { return nil }
            weight = value
        }
        return weight
    }
}
