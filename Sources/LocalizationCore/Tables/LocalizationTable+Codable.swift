extension LocalizationTable: Codable {
    private enum CodingKeys: String, CodingKey {
        case entries
    }

    /// Decodes `{"entries": {key: entry}}`, the shape ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(entries: try container.decode([String: TableEntry].self, forKey: .entries))
    }

    /// Encodes `{"entries": {key: entry}}`, whichever store holds each entry.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entries, forKey: .entries)
    }
}
