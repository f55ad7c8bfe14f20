import Foundation

/// Where each string value of a structured file is written, by key path, so one value can
/// be replaced and every other byte kept (comments, order, indentation, escapes).
///
/// Built by ``ValueSpans/propertyList(_:)`` for XML property lists and ``ValueSpans/json(_:)``
/// for JSON; both read only as much syntax as finding values needs, and give up (`nil`) on
/// what they do not understand rather than guess.
package struct ValueSpans: Sendable {
    /// One string value's place.
    package struct Span: Sendable, Hashable {
        /// The bytes to replace: the text between `<string>` and `</string>` (or the whole
        /// `<string/>`), or a JSON string literal with its quotes.
        package var range: Range<Int>
        /// Whether the value is `<string/>`, so a replacement must write the tags too.
        package var isEmptyElement: Bool
    }

    /// Each string value by key path (JSON arrays count as their index).
    package var strings: [[String]: Span] = [:]
    /// Each dictionary or object by key path: where its closing `</dict>` or `}` starts.
    package var containerEnds: [[String]: Int] = [:]
    /// The keys of each dictionary in file order.
    package var keys: [[String]: [String]] = [:]
    /// Each JSON object member by key path: from its key's opening quote to the end of its
    /// value, so a member can be added before or after it.
    package var members: [[String]: Range<Int>] = [:]

    /// The spans of an XML property list, or `nil` when it is not one this reads.
    package static func propertyList(_ bytes: [UInt8]) -> ValueSpans? {
        var spans = ValueSpans()
        var path: [String] = []
        var pendingKey: String?
        // Each open container's path; a key inside an array has no name, so arrays count.
        var stack: [(isDict: Bool, path: [String], count: Int)] = []
        var index = 0
        func find(_ needle: String, from start: Int) -> Int? {
            let target = Array(needle.utf8)
            var cursor = start
            while cursor + target.count <= bytes.count {
                if bytes[cursor] == target[0], bytes[cursor..<(cursor + target.count)].elementsEqual(target) {
                    return cursor
                }
                cursor += 1
            }
            return nil
        }
        func childPath() -> [String]? {
            guard let top = stack.last else { return [] }
            if top.isDict { return pendingKey.map { top.path + [$0] } }
            return top.path + [String(top.count)]
        }
        func closeChild() {
            pendingKey = nil
            if !stack.isEmpty { stack[stack.count - 1].count += 1 }
        }
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            let tag = String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
            index = close + 1
            if tag.hasPrefix("!--") {
                guard let end = find("-->", from: open + 4) else { return nil }
                index = end + 3
                continue
            }
            if tag.hasPrefix("?") || tag.hasPrefix("!") || tag.hasPrefix("plist") || tag == "/plist" { continue }
            switch tag {
            case "dict", "array":
                guard let here = childPath() else { return nil }
                stack.append((tag == "dict", here, 0))
                pendingKey = nil
                path = here
                if tag == "dict" { spans.keys[here] = [] }
            case "/dict", "/array":
                guard let top = stack.popLast() else { return nil }
                if top.isDict { spans.containerEnds[top.path] = open }
                closeChild()
                path = stack.last?.path ?? []
            case "key":
                guard let end = find("</key>", from: index), let top = stack.last, top.isDict else { return nil }
                let key = PropertyListText.unescaped(String(decoding: bytes[index..<end], as: UTF8.self))
                pendingKey = key
                spans.keys[top.path, default: []].append(key)
                index = end + 6
            case "string":
                guard let end = find("</string>", from: index), let here = childPath() else { return nil }
                spans.strings[here] = Span(range: index..<end, isEmptyElement: false)
                index = end + 9
                closeChild()
            case "string/":
                guard let here = childPath() else { return nil }
                spans.strings[here] = Span(range: open..<(close + 1), isEmptyElement: true)
                closeChild()
            case "dict/", "array/", "true/", "false/":
                closeChild()
            default:
                // <integer>, <real>, <date>, <data>: skipped to their end.
                guard !tag.hasPrefix("/"), let end = find("</\(tag)>", from: index) else { return nil }
                index = end + tag.utf8.count + 3
                closeChild()
            }
        }
        _ = path
        return stack.isEmpty ? spans : nil
    }

    /// The spans of a JSON document, or `nil` when it does not parse as this reads it.
    package static func json(_ bytes: [UInt8]) -> ValueSpans? {
        var reader = JSONSpanReader(bytes: bytes)
        guard reader.value(at: []), reader.skipWhitespace() == bytes.count else { return nil }
        return reader.spans
    }
}

/// A minimal JSON walk that records where strings and objects are.
private struct JSONSpanReader {
    let bytes: [UInt8]
    var position = 0
    var spans = ValueSpans()

    mutating func skipWhitespace() -> Int {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        return position
    }

    /// Reads one value at `path`; `false` on anything malformed.
    mutating func value(at path: [String]) -> Bool {
        guard skipWhitespace() < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            spans.keys[path] = []
            if skipWhitespace() < bytes.count, bytes[position] == UInt8(ascii: "}") {
                spans.containerEnds[path] = position
                position += 1
                return true
            }
            while true {
                guard skipWhitespace() < bytes.count, let (key, keyRange) = string() else { return false }
                spans.keys[path, default: []].append(key)
                guard skipWhitespace() < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
                position += 1
                guard value(at: path + [key]) else { return false }
                spans.members[path + [key]] = keyRange.lowerBound..<position
                guard skipWhitespace() < bytes.count else { return false }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "}") else { return false }
                spans.containerEnds[path] = position
                position += 1
                return true
            }
        case UInt8(ascii: "["):
            position += 1
            var index = 0
            if skipWhitespace() < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                return true
            }
            while true {
                guard value(at: path + [String(index)]), skipWhitespace() < bytes.count else { return false }
                index += 1
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else { return false }
                position += 1
                return true
            }
        case UInt8(ascii: "\""):
            guard let (_, range) = string() else { return false }
            spans.strings[path] = ValueSpans.Span(range: range, isEmptyElement: false)
            return true
        default:
            // Numbers, true, false, null: up to the next delimiter.
            let start = position
            while position < bytes.count, !",}] \t\r\n".utf8.contains(bytes[position]) { position += 1 }
            return position > start
        }
    }

    /// A string literal at the current position: its decoded text and its byte range.
    mutating func string() -> (String, Range<Int>)? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        let start = position
        position += 1
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
            position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard position < bytes.count else { return nil }
        position += 1
        let literal = Array(bytes[start..<position])
        guard let decoded = JSONText.decode(literal) else { return nil }
        return (decoded, start..<position)
    }
}

/// JSON string literals, as String Catalogs write them.
package enum JSONText {
    /// `text` as a JSON string literal, quotes included: `"`, `\` and control characters
    /// escaped, `/` and everything else as it is (Xcode's style).
    package static func literal(_ text: String) -> String {
        "\"" + TextEscaping.escaped(text, TextEscaping.backslashed) { String(format: "\\u%04x", $0) } + "\""
    }

    /// The text of a JSON string literal (quotes included), or `nil` when it is not one.
    static func decode(_ literal: [UInt8]) -> String? {
        guard let tape = try? JSONTape(literal), tape.nodes.first?.kind == .string else { return nil }
        return tape.validString(at: 0)
    }
}

/// XML text as property lists write it.
package enum PropertyListText {
    /// `text` with `&`, `<` and `>` escaped.
    package static func escaped(_ text: String) -> String {
        TextEscaping.escaped(text, TextEscaping.xml)
    }

    /// `text` with the five XML entities and numeric character references resolved.
    package static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let number =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += rest[amp...semicolon]
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
