/// The keys of an XML property list's top-level dictionary, in the order they are written,
/// each with the byte offset of its `<key>`.
///
/// Foundation's reader keeps the last of two equal keys and says nothing, so a `.stringsdict`
/// entry written twice is lost without a word; lint scans the text for the keys themselves.
/// Comments, CDATA sections, processing instructions and the DOCTYPE are skipped; the five
/// predefined entities and character references are decoded, as in the key a reader sees.
enum PropertyListTopKeys {
    /// The top-level keys of `bytes` (an XML property list) with their offsets.
    static func scan(_ bytes: [UInt8]) -> [(key: String, offset: Int)] {
        var keys: [(String, Int)] = []
        var depth = 0
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            if let end = skippedMarkup(bytes, at: open) {
                index = end
                continue
            }
            guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let tag = bytes[(open + 1)..<close]
            let name = tag.prefix { !" \t\r\n/".utf8.contains($0) }
            let selfClosing = tag.last == UInt8(ascii: "/")
            switch String(decoding: name, as: UTF8.self) {
            case "dict" where !selfClosing: depth += 1
            case "": if tag.starts(with: "/dict".utf8) { depth -= 1 }
            case "key" where depth == 1 && !selfClosing:
                let textStart = close + 1
                guard let textEnd = firstOffset(of: Array("</key>".utf8), in: bytes, from: textStart) else { break }
                keys.append((decoded(bytes[textStart..<textEnd]), open))
                index = textEnd
                continue
            default: break
            }
            index = close + 1
        }
        return keys
    }

    /// The offset after a comment, CDATA section, processing instruction or declaration
    /// starting at `open`, if one does.
    private static func skippedMarkup(_ bytes: [UInt8], at open: Int) -> Int? {
        for (start, end) in [("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">")]
        where bytes[open...].starts(with: start.utf8) {
            let terminator = Array(end.utf8)
            return firstOffset(of: terminator, in: bytes, from: open + start.utf8.count).map { $0 + terminator.count }
                ?? bytes.count
        }
        return nil
    }

    private static func firstOffset(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Element text with XML's predefined entities and character references decoded.
    private static func decoded(_ text: ArraySlice<UInt8>) -> String {
        let raw = String(decoding: text, as: UTF8.self)
        guard raw.contains("&") else { return raw }
        var result = ""
        var rest = Substring(raw)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
            let name = rest[rest.index(after: ampersand)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"][String(name)]
            let code =
                name.hasPrefix("#x")
                ? UInt32(name.dropFirst(2), radix: 16)
                : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
            if let named {
                result += named
            } else if let code, let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[ampersand...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
