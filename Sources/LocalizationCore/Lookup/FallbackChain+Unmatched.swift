extension FallbackChain {
    /// The tags among `languages` (tags or `Accept-Language` lists, as lookups take them)
    /// that none of the `available` languages matches, not even through the fallback rules —
    /// a misspelling such as `jp` for `ja`, whose lookups quietly fall back to `Base` and the
    /// development language. Empty when every tag matches or nothing is available at all.
    package static func unmatched(_ languages: [String], available: [LanguageTag]) -> [String] {
        let served = Set(available)
        guard !served.isEmpty else { return [] }
        return languages.filter { language in
            let tags = (try? LanguageTag.preferences(language)) ?? []
            return !tags.contains { tag in
                tag.isBase
                    || matchingFolders(for: tag, expansion: expansion(of: tag), available: available).contains {
                        served.contains($0)
                    }
            }
        }
    }
}
