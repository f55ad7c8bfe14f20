/// The keys a dictionary read is measured with, against the in-place lookups (`--only
/// compiled`, `--only mapped`), made as a program and a parser make them.
///
/// A dictionary filled from a file holds keys decoded from its bytes: exactly sized,
/// flagged ASCII. Keys built by string interpolation are neither (spare capacity, no flags),
/// which costs a dictionary read up to twice as much on 100,000 keys for reasons no real
/// table has. And a caller holds keys of its own (a literal, a decoded request): given the
/// dictionary's own key instances, Swift's `==` answers from the shared storage pointer
/// without reading the key's bytes, one memory access fewer than any caller pays.
enum CallerKeys {
    /// `key` in storage of its own, as decoding its bytes makes it.
    static func copy(_ key: String) -> String {
        String(decoding: Array(key.utf8), as: UTF8.self)
    }

    /// `dictionaryKeys` in a random order twice: as copies of their own (what a caller holds)
    /// and as the dictionary's own instances (for comparison).
    static func shuffled(_ dictionaryKeys: [String]) -> (own: [String], dictionarys: [String]) {
        var generator = SystemRandomNumberGenerator()
        let shared = dictionaryKeys.shuffled(using: &generator)
        return (shared.map(copy), shared)
    }
}
