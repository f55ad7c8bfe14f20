/// The "did you mean" of an error message: the known word closest to a mistyped one.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a typo.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, best.0.count / 3) ? best.0 : nil
    }

    /// `unknown option '--setle-ms' (did you mean '--settle-ms'?)`: `what` and `word`, and
    /// the closest of `candidates` when one is close enough.
    package static func unknown(_ what: String, _ word: String, among candidates: [String]) -> String {
        let suggestion = closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown \(what) '\(word)'\(suggestion)"
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
