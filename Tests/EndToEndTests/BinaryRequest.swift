/// Binary requests (docs/PROTOCOL.md, "Binary frames") built byte by byte, and the replies
/// the soak test reads back: a lookup's value and language, a table's entries.
enum BinaryRequest {
    /// A lookup of `key` in `language`, in `table`, without a count.
    static func lookup(id: UInt32, key: String, language: String, table: String) -> [UInt8] {
        frame([0x02] + integer(id) + string(key) + integer(1) + string(language) + string(table) + [0])
    }

    /// The whole resolved `table` in `language`.
    static func table(id: UInt32, language: String, table: String) -> [UInt8] {
        frame([0x04] + integer(id) + integer(1) + string(language) + string(table))
    }

    /// A lookup reply: value, language (when the daemon said one), generation and whether
    /// the key was found; nil when the payload is anything else.
    static func lookupReply(_ payload: [UInt8]) -> (
        value: String, language: String?, generation: UInt64, found: Bool
    )? {
        var reader = Reader(bytes: payload, offset: 5)
        guard payload.first == 0x81, let flags = reader.byte(), let value = reader.string() else { return nil }
        let language = flags & 2 != 0 ? reader.string() : nil
        guard flags & 2 == 0 || language != nil, let generation = reader.integer64() else { return nil }
        return (value, language, generation, flags & 1 != 0)
    }

    /// A table reply: key → (value, language) and generation; nil for anything else.
    static func tableReply(_ payload: [UInt8]) -> (
        entries: [String: (value: String, language: String)], generation: UInt64
    )? {
        var reader = Reader(bytes: payload, offset: 5)
        guard payload.first == 0x83, let generation = reader.integer64(), let count = reader.integer32() else {
            return nil
        }
        var entries: [String: (value: String, language: String)] = [:]
        for _ in 0..<count {
            guard let key = reader.string(), let value = reader.string(), let language = reader.string() else {
                return nil
            }
            entries[key] = (value, language)
        }
        return (entries, generation)
    }

    private static func frame(_ payload: [UInt8]) -> [UInt8] {
        [0xA5, 0x01] + integer(UInt32(payload.count)) + payload
    }

    private static func integer(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian, Array.init)
    }

    private static func string(_ text: String) -> [UInt8] {
        integer(UInt32(text.utf8.count)) + Array(text.utf8)
    }

    /// Big-endian fields read one after the other; nil past the end.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }

        mutating func byte() -> UInt8? { take(1)?.first }

        mutating func integer32() -> UInt32? {
            take(4)?.reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func integer64() -> UInt64? {
            take(8)?.reduce(0) { $0 << 8 | UInt64($1) }
        }

        mutating func string() -> String? {
            guard let length = integer32(), let body = take(Int(length)) else { return nil }
            return String(validating: body, as: UTF8.self)
        }
    }
}
