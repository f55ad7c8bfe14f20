/// A parsed `.strings` file held as one byte buffer: every key and value is a span of UTF-8
/// in ``buffer`` (escapes already decoded, UTF-16 files already transcoded), with a compact
/// index of the keys. No `String` is made until a caller asks for one.
///
/// The parser's result used to be two `String`s, a dictionary insert and, later, a free per
/// entry, which cost more than reading the file; here an entry is a ``Span`` with its
/// ``Source`` (nine 32-bit numbers, appended to one array) and a slot in ``StringsKeyIndex``.
/// Keys are compared byte for byte, as CoreFoundation does;
/// ``ParsedStrings`` (built from this by ``ParsedStrings/init(_:)``) compares them as Swift
/// strings, as it always did.
///
/// ```swift
/// let table = try StringsParser.parseTable(bytes, file: "ja.lproj/Localizable.strings")
/// let value = table.value(forKey: "Hello")
/// ```
package struct StringsTable: Sendable {
    /// Where one entry's key and value are in ``buffer``.
    package struct Span: Sendable {
        /// The offset of the key's first byte.
        package var keyStart: UInt32
        /// The key's length in bytes.
        package var keyLength: UInt32
        /// The offset of the value's first byte.
        package var valueStart: UInt32
        /// The value's length in bytes.
        package var valueLength: UInt32
        /// Where the entry was written in the file (kept beside the offsets, so each entry is
        /// one append and each table one array).
        package var source: Source
    }

    /// Where one entry was written in the file, for ``StringsEntry``'s location and ranges.
    package struct Source: Sendable {
        /// The 1-based line and column of the key.
        package var line: UInt32
        package var column: UInt32
        /// ``StringsEntry/keyOffset`` and ``StringsEntry/valueRange``; ``none`` for property
        /// list files.
        package var keyOffset: UInt32
        package var valueStart: UInt32
        package var valueEnd: UInt32

        /// The offset of a property list file's entries, which have none.
        package static let none = UInt32.max
    }

    /// The bytes every span points into: the file itself (or its UTF-8 transcoding) with each
    /// escaped string decoded in place, or, for a property list file, the keys and values
    /// one after the other.
    package let buffer: [UInt8]
    /// Every entry in file order, duplicates included.
    package let spans: [Span]
    /// The entry each distinct key's value comes from (the last of its duplicates).
    package let index: StringsKeyIndex
    /// The path errors and locations name.
    package let file: String?
    /// Where the file's parse ended before its end, as CoreFoundation's does; `nil` when
    /// every byte was read.
    package let earlyEnd: EarlyEnd?

    /// The entries whose value is an array, a dictionary or data, in file order: Foundation
    /// reads them, but they are no strings, so the table leaves them out (and with them an
    /// earlier string of the same key, which Foundation's last-wins replaces too).
    package let nonStringValues: [NonStringValue]

    /// Where, and at what, a parse ended early: a character that cannot start a key
    /// (`"New Drive…" = "Nouveau lecteur…";=`, an extra `;`, a stray `@`), or a `/*` comment
    /// never closed (`"a" = "b";` then `/* note` to the end). CoreFoundation stops there and
    /// succeeds with the entries before it, and so does the parser, so the app shows what
    /// Foundation shows; lint warns of it (``LintRule/ignoredRest``) and the table lists it
    /// among its ``problems``, since the rest of the file is lost.
    package struct EarlyEnd: Sendable, Equatable {
        /// Why the parse ended there.
        package enum Cause: Sendable, Equatable {
            /// A character that cannot start a key.
            case keyCannotStart
            /// A `/*` comment that runs to the end of the file.
            case unclosedComment
        }

        /// The character's place (the comment's `/*`).
        package var location: SourceLocation
        /// The character, as a translator would want it named (`'='`, `U+0000`, `'/*'`).
        package var found: String
        /// Why the parse ended.
        package var cause: Cause = .keyCannotStart
    }

    /// A table of `spans` into `buffer`, indexing their keys; the entries with a value that
    /// is no string (`nonStringValues`) take their key out of it.
    init(
        buffer: [UInt8], spans: [Span], file: String?, earlyEnd: EarlyEnd? = nil,
        nonStringValues: [NonStringValue] = []
    ) {
        self.buffer = buffer
        self.spans = Self.removingKeys(of: nonStringValues, from: spans, in: buffer)
        self.file = file
        self.earlyEnd = earlyEnd
        self.nonStringValues = nonStringValues
        index = buffer.withUnsafeBufferPointer { [spans = self.spans] in StringsKeyIndex(spans: spans, in: $0) }
    }

    /// A table of a property list file's `dictionary`, its entries sorted by key and all
    /// located at 1:1, with no offsets in the file.
    init(sortedEntriesOf dictionary: [String: String], file: String?) {
        var buffer: [UInt8] = []
        let none = Source(line: 1, column: 1, keyOffset: Source.none, valueStart: Source.none, valueEnd: Source.none)
        var spans: [Span] = []
        spans.reserveCapacity(dictionary.count)
        for key in dictionary.keys.sorted() {
            let keyStart = UInt32(truncatingIfNeeded: buffer.count)
            buffer += key.utf8
            let valueStart = UInt32(truncatingIfNeeded: buffer.count)
            buffer += dictionary[key]!.utf8
            spans.append(
                Span(
                    keyStart: keyStart, keyLength: valueStart - keyStart, valueStart: valueStart,
                    valueLength: UInt32(truncatingIfNeeded: buffer.count) - valueStart, source: none))
        }
        self.init(buffer: buffer, spans: spans, file: file)
    }

    /// The number of distinct keys (byte for byte).
    package var count: Int { index.count }

    /// Whether the file has no entries.
    package var isEmpty: Bool { spans.isEmpty }

    /// The key of the entry at `position` in ``spans``.
    package func key(at position: Int) -> String {
        string(spans[position].keyStart, spans[position].keyLength)
    }

    /// The value of the entry at `position` in ``spans``.
    package func value(at position: Int) -> String {
        string(spans[position].valueStart, spans[position].valueLength)
    }

    /// Calls `body` with the UTF-8 bytes of every entry's key and value, in file order,
    /// duplicates included.
    package func forEachEntryBytes(
        _ body: (_ key: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void
    ) {
        buffer.withUnsafeBufferPointer { buffer in
            for span in spans {
                body(
                    UnsafeBufferPointer(rebasing: buffer[Int(span.keyStart)..<Int(span.keyStart + span.keyLength)]),
                    UnsafeBufferPointer(
                        rebasing: buffer[Int(span.valueStart)..<Int(span.valueStart + span.valueLength)]))
            }
        }
    }

    /// The value for `key` (the last one when the file has the key twice), if any.
    package func value(forKey key: String) -> String? {
        var key = key
        let position = key.withUTF8 { bytes in
            buffer.withUnsafeBufferPointer { index.position(of: bytes, spans: spans, in: $0) }
        }
        return position.map(value(at:))
    }

    /// The location of the entry at `position` in ``spans``.
    package func location(at position: Int) -> SourceLocation {
        SourceLocation(file: file, line: Int(spans[position].source.line), column: Int(spans[position].source.column))
    }

    /// Calls `body` with the position in ``spans`` of each entry that gives its key's value
    /// (every entry but those a later duplicate replaces), in file order.
    package func forEachWinningEntry(_ body: (_ position: Int) throws -> Void) rethrows {
        if index.replaced.isEmpty {
            for position in spans.indices { try body(position) }
            return
        }
        let replaced = Set(index.replaced)
        for position in spans.indices where !replaced.contains(position) { try body(position) }
    }

    /// The entry at `position` in ``spans`` as a ``StringsEntry``, with its offsets in the
    /// file (none for a property list file).
    package func entry(at position: Int) -> StringsEntry {
        let source = spans[position].source
        let located = source.keyOffset != Source.none
        return StringsEntry(
            key: key(at: position), value: value(at: position), location: location(at: position),
            keyOffset: located ? Int(source.keyOffset) : nil,
            valueRange: located ? Int(source.valueStart)..<Int(source.valueEnd) : nil)
    }

    /// The table as a dictionary (later duplicates win, keys compared as Swift strings).
    package var dictionary: [String: String] {
        var table: [String: String] = Dictionary(minimumCapacity: count)
        for position in spans.indices {
            table[key(at: position)] = value(at: position)
        }
        return table
    }

    private func string(_ start: UInt32, _ length: UInt32) -> String {
        buffer.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(start + length)]), as: UTF8.self)
        }
    }
}
