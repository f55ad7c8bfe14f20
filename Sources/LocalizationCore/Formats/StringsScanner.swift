/// The old-style property list scanner behind `StringsParser`, over UTF-8 text; its result
/// is the spans of a ``StringsTable`` into a buffer that is the text itself.
///
/// It walks bytes, never `Character`s: every byte that matters to the grammar is ASCII, and
/// a UTF-8 continuation byte can never be mistaken for one. Lines are counted in the same
/// pass. Text known to be valid UTF-8 is not checked again: text transcoded from UTF-16, and
/// a UTF-8 file that passed `UTF8Validation` (nearly every one). In any other, UTF-8 is
/// checked where it is read, which finds the first bad byte: comments and whitespace as they
/// are skipped, strings that hold a byte over 0x7F once they end. Runs of plain bytes are
/// skipped a block at a time (`ByteSearch`: 64 bytes with AVX-512 BW, 32
/// with AVX2, sixteen elsewhere).
///
/// A string without escapes is its own bytes in the buffer, so it costs nothing to keep; a
/// string with escapes is decoded into ``DecodedStrings``, which the caller writes over the
/// strings' own bytes in the buffer once the scan is done (decoding never makes a string
/// longer). The text stays as it is while it is read, so every error is located in the text
/// as written, and a buffer that is the caller's alone (UTF-16 transcoded for this parse) is
/// written in place instead of copied.
struct StringsScanner {
    /// The entries of a scanned file and the strings still to write into its buffer.
    struct Result {
        var spans: [StringsTable.Span]
        var decoded: DecodedStrings
        /// Where the parse ended early, as CoreFoundation's does, at a character that cannot
        /// start a key or at a comment never closed (``StringsTable/EarlyEnd``); `nil` when
        /// it read the whole text.
        var earlyEnd: StringsTable.EarlyEnd? = nil
        /// The entries whose value is no string, which the table leaves out.
        var nonStringValues: [StringsTable.NonStringValue] = []
    }

    /// Strings with escapes, decoded, and where each goes in the buffer.
    struct DecodedStrings {
        /// Every decoded string, one after another.
        fileprivate var bytes: [UInt8] = []
        /// Where each one goes in the buffer (its source's first bytes), in the same order.
        fileprivate var places: [BufferSpan] = []

        /// Writes every decoded string over its source in `buffer` (the text the scanner
        /// read, with whatever came before it); nothing happens, and nothing is copied, when
        /// no string had an escape.
        func write(into buffer: inout [UInt8]) {
            guard !places.isEmpty else { return }
            bytes.withUnsafeBufferPointer { decoded in
                buffer.withUnsafeMutableBufferPointer { buffer in
                    guard var source = decoded.baseAddress, let destination = buffer.baseAddress else { return }
                    for place in places {
                        let count = Int(place.length)
                        (destination + Int(place.start)).update(from: source, count: count)
                        source += count
                    }
                }
            }
        }
    }

    private let text: UnsafeBufferPointer<UInt8>
    private let file: String?
    /// Where `text` starts in the buffer the spans point into (after a byte order mark).
    private let base: Int
    /// Whether `text` is known to be valid UTF-8 (transcoded from UTF-16).
    private let validUTF8: Bool
    /// How strings and comments are searched (asked once per file, not per search).
    private let searchKernel = ByteSearch.Kernel.best
    private var position = 0
    /// The line `position` is on, and the offset where that line starts.
    private var line = 1
    private var lineStart = 0
    /// The file's strings with escapes, decoded (one growing buffer for all of them).
    private var decoded = DecodedStrings()
    /// Where a `/*` comment that runs to the end of the text starts: CoreFoundation takes the
    /// end of such a comment for the end of the file (``StringsTable/EarlyEnd``).
    private var unclosedComment: Int?
    /// The entries read so far whose value is no string.
    private var nonStringValues: [StringsTable.NonStringValue] = []
    /// How deep the non-string value being skipped is nested.
    private var nesting = 0

    /// A scanner of `text`, which is its buffer from `base` on (the same bytes, not a copy);
    /// `validUTF8` when `text` needs no UTF-8 check.
    init(text: UnsafeBufferPointer<UInt8>, base: Int, validUTF8: Bool, file: String?) {
        self.text = text
        self.base = base
        self.validUTF8 = validUTF8
        self.file = file
    }

    /// Parses the whole text: an optional outer `{ }` around `key = value;` pairs.
    mutating func parseFile() throws(ResourceParseError) -> Result {
        // Real files hold about one entry per 100 bytes (the IINA corpus: 103); reserving for
        // that avoids most regrowth.
        var spans: [StringsTable.Span] = []
        spans.reserveCapacity(text.count / 100)
        var openingBrace: Int?
        if try skipWhitespace(), text[position] == Byte.openBrace {
            openingBrace = position
            position += 1
        }
        while try skipWhitespace() {
            let byte = text[position]
            if Self.startsString(byte) {
                if let span = try parseEntry(entriesRead: spans.count) { spans.append(span) }
                continue
            }
            if byte == Byte.closeBrace, openingBrace != nil {
                position += 1
                if try skipWhitespace() {
                    throw error(at: position, "unexpected \(describe(at: position)) after the closing '}'")
                }
                return result(spans)
            }
            // CoreFoundation reads the next key only while one can start
            // (`parsePlistDictContent`): outside braces, any other character ends its parse as
            // a success, keeping every entry before it (`"a" = "b";=`, an extra `;`). So do we,
            // saying where, for lint; inside braces it wants the `}`, and before any entry
            // Foundation refuses the file: both fail.
            guard openingBrace == nil, !spans.isEmpty || !nonStringValues.isEmpty else {
                throw keyExpected(insideBraces: openingBrace != nil)
            }
            return result(
                spans,
                earlyEnd: StringsTable.EarlyEnd(
                    location: SourceLocation(
                        file: file, line: line, column: Int(currentLineColumn(of: position))),
                    found: describe(at: position)))
        }
        if let openingBrace {
            throw endError(error(at: position, "missing '}' to close the '{' at \(lineAndColumn(openingBrace))"))
        }
        // Where a key could start, a comment never closed ends CoreFoundation's parse as the
        // end of the file does: a success, said here.
        return result(
            spans,
            earlyEnd: unclosedComment.map {
                StringsTable.EarlyEnd(
                    location: StringsParser.location(of: $0, in: text, file: file), found: "'/*'",
                    cause: .unclosedComment)
            })
    }

    /// The result of a parse that read `spans`.
    private func result(_ spans: [StringsTable.Span], earlyEnd: StringsTable.EarlyEnd? = nil) -> Result {
        Result(spans: spans, decoded: decoded, earlyEnd: earlyEnd, nonStringValues: nonStringValues)
    }

    /// Parses `key = value;` or `key;`, starting at the key; the value's source range is
    /// its token, quotes included (empty, just after the key, for `key;`). `nil` for an
    /// entry whose value is no string (noted in ``nonStringValues``).
    private mutating func parseEntry(entriesRead: Int) throws(ResourceParseError) -> StringsTable.Span? {
        let keyStart = position
        // Located before the key is read: a line break inside the key moves the current line.
        let keyLine = UInt32(truncatingIfNeeded: line)
        let keyColumn = currentLineColumn(of: keyStart)
        let key = try parseString()
        let keyEnd = position
        guard try skipWhitespace() else {
            throw endError(
                error(
                    at: position,
                    "expected '=' or ';' after the key that starts at \(lineAndColumn(keyStart)), but the file ends"))
        }
        switch text[position] {
        case Byte.semicolon:
            position += 1
            return StringsTable.Span(
                keyStart: key.start, keyLength: key.length, valueStart: key.start, valueLength: key.length,
                source: source(keyLine, keyColumn, keyStart, keyEnd, keyEnd))
        case Byte.equals:
            let equals = position
            position += 1
            guard try skipWhitespace() else {
                throw endError(
                    error(at: position, "missing value after the '=' at \(lineAndColumn(equals)): the file ends"))
            }
            let valueStart = position
            let kind = StringsTable.NonStringValue.Kind(opening: text[position])
            guard kind != nil || Self.startsString(text[position]) else { throw valueExpected(afterEquals: equals) }
            var value: BufferSpan = (0, 0)
            if kind == nil { value = try parseString() } else { try skipNonStringValue() }
            let valueEnd = position
            guard try skipWhitespace(), text[position] == Byte.semicolon else {
                throw endError(
                    error(at: valueEnd, "missing ';' after the value that starts at \(lineAndColumn(valueStart))"))
            }
            position += 1
            if let kind {
                nonStringValues.append(
                    StringsTable.NonStringValue(
                        keyStart: key.start, keyLength: key.length,
                        location: SourceLocation(file: file, line: Int(keyLine), column: Int(keyColumn)), kind: kind,
                        entriesBefore: entriesRead))
                return nil
            }
            return StringsTable.Span(
                keyStart: key.start, keyLength: key.length, valueStart: value.start, valueLength: value.length,
                source: source(keyLine, keyColumn, keyStart, valueStart, valueEnd))
        default:
            throw error(
                at: position,
                "expected '=' or ';' after the key that starts at \(lineAndColumn(keyStart)), "
                    + "found \(describe(at: position))")
        }
    }

    // MARK: Whitespace and comments

    /// Skips whitespace (ASCII, U+2028, U+2029) and comments; `false` at the end of the text.
    @inline(__always)
    private mutating func skipWhitespace() throws(ResourceParseError) -> Bool {
        // Most often the next byte is already a token ('=', ';', a quote or a letter), or one
        // space comes before it: those need no call.
        let end = text.count
        if position < end {
            let byte = text[position]
            if Self.isToken(byte) { return true }
            if byte == 0x20, position + 1 < end, Self.isToken(text[position + 1]) {
                position += 1
                return true
            }
        }
        return try skipWhitespaceAndComments()
    }

    /// Whether `byte` is surely not whitespace or the start of a comment.
    @inline(__always)
    private static func isToken(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x80 && byte != Byte.slash
    }

    private mutating func skipWhitespaceAndComments() throws(ResourceParseError) -> Bool {
        let end = text.count
        while position < end {
            let byte = text[position]
            switch byte {
            case 0x0A, 0x0D:
                noteLineBreak(at: position)
                position += 1
            case 0x09, 0x0B, 0x0C, 0x20:
                position += 1
            case Byte.slash:
                guard position + 1 < end else { return true }
                let next = text[position + 1]
                if next == Byte.slash {
                    position += 2
                    while position < end, !isLineEnd(at: position) {
                        position += text[position] < 0x80 ? 1 : try utf8SequenceLength(at: position)
                    }
                } else if next == Byte.star {
                    try skipBlockComment()
                } else {
                    return true  // an unquoted string starting with '/'
                }
            case 0xE2 where isUnicodeSeparator(at: position):
                position += 3
            case 0x80...:
                // Not whitespace, so the caller reports it; but bad UTF-8 is reported as such.
                _ = try utf8SequenceLength(at: position)
                return true
            default:
                return true
            }
        }
        return false
    }

    private mutating func skipBlockComment() throws(ResourceParseError) {
        let start = position
        let end = text.count
        position += 2
        while position < end {
            // Bytes over 0x7F stop the search to be checked, unless the text is valid already.
            var unused = false
            position = ByteSearch.firstStop(
                in: text, from: position, at: Byte.star, Byte.star, orNonASCII: !validUTF8, sawNonASCII: &unused,
                kernel: searchKernel)
            guard position < end else { break }
            let byte = text[position]
            switch byte {
            case Byte.star:
                if position + 1 < end, text[position + 1] == Byte.slash {
                    position += 2
                    return
                }
                position += 1
            case 0x0A, 0x0D:
                noteLineBreak(at: position)
                position += 1
            case 0x80...:
                position += try utf8SequenceLength(at: position)
            default:
                position += 1
            }
        }
        // CoreFoundation reads to the end of the text as the comment: where a key may start
        // that is a success (``parseFile()``); anywhere else the error names the comment.
        if unclosedComment == nil { unclosedComment = start }
    }

    /// `error`, a failure at the end of the text, as the failure it is when a comment never
    /// closed took the rest of the text.
    private func endError(_ error: ResourceParseError) -> ResourceParseError {
        guard let start = unclosedComment else { return error }
        return self.error(at: start, "unterminated comment that starts at \(lineAndColumn(start))")
    }

    /// Counts the line break at `index` (`\n` or `\r`; the `\n` of `\r\n` only moves the
    /// line start).
    @inline(__always)
    private mutating func noteLineBreak(at index: Int) {
        if !(text[index] == 0x0A && index > 0 && text[index - 1] == 0x0D) { line += 1 }
        lineStart = index + 1
    }

    /// The column of `offset`, which must be on the current line.
    private func currentLineColumn(of offset: Int) -> UInt32 {
        var column: UInt32 = 1
        var index = lineStart
        while index < offset {
            if text[index] & 0xC0 != 0x80 { column &+= 1 }
            index += 1
        }
        return column
    }

    /// Where an entry was written (offsets in `text`; `StringsParser` keeps files under 4 GiB).
    @inline(__always)
    private func source(
        _ line: UInt32, _ column: UInt32, _ keyOffset: Int, _ valueStart: Int, _ valueEnd: Int
    ) -> StringsTable.Source {
        StringsTable.Source(
            line: line, column: column, keyOffset: UInt32(truncatingIfNeeded: keyOffset),
            valueStart: UInt32(truncatingIfNeeded: valueStart), valueEnd: UInt32(truncatingIfNeeded: valueEnd))
    }

    /// The length of the UTF-8 sequence at `index`, or an "invalid UTF-8" error there.
    @inline(__always)
    private func utf8SequenceLength(at index: Int) throws(ResourceParseError) -> Int {
        guard let length = StringsTextDecoder.utf8SequenceLength(at: index, in: text) else {
            throw invalidUTF8(at: index)
        }
        return length
    }

    /// U+2028 LINE SEPARATOR or U+2029 PARAGRAPH SEPARATOR, which CoreFoundation skips as
    /// whitespace.
    private func isUnicodeSeparator(at index: Int) -> Bool {
        index + 2 < text.count && text[index] == 0xE2 && text[index + 1] == 0x80
            && (text[index + 2] == 0xA8 || text[index + 2] == 0xA9)
    }

    private func isLineEnd(at index: Int) -> Bool {
        let byte = text[index]
        return byte == 0x0A || byte == 0x0D || (byte == 0xE2 && isUnicodeSeparator(at: index))
    }

    // MARK: Values that are no strings

    /// The deepest nesting of arrays and dictionaries read: CoreFoundation recurses without
    /// a limit (and would overflow its stack); a file this deep is refused instead.
    private static let maximumNesting = 512

    /// Reads the array, dictionary or data value at `position` as CoreFoundation's old-style
    /// parser does (`parsePlistObject`), to the character after it, keeping nothing: any
    /// string inside is decoded and then dropped.
    private mutating func skipNonStringValue() throws(ResourceParseError) {
        let kept = (bytes: decoded.bytes.count, places: decoded.places.count)
        try skipValue()
        decoded.bytes.removeSubrange(kept.bytes...)
        decoded.places.removeSubrange(kept.places...)
    }

    /// Reads any value at `position`: a string, or an array, dictionary or data.
    private mutating func skipValue() throws(ResourceParseError) {
        let opening = position
        guard let kind = StringsTable.NonStringValue.Kind(opening: text[opening]) else {
            _ = try parseString()
            return
        }
        guard nesting < Self.maximumNesting else {
            throw error(at: opening, "values nested more than \(Self.maximumNesting) deep")
        }
        nesting += 1
        defer { nesting -= 1 }
        position += 1
        switch kind {
        case .array: try skipArrayContent(opening: opening)
        case .dictionary: try skipDictionaryContent(opening: opening)
        case .data: try skipDataContent(opening: opening)
        }
    }

    /// Whether a value can start at `position` (the text has a byte there).
    private func startsValue() -> Bool {
        StringsTable.NonStringValue.Kind(opening: text[position]) != nil || Self.startsString(text[position])
    }

    /// `a, b, c` (a trailing `,` allowed, an empty array too) and the `)`.
    private mutating func skipArrayContent(opening: Int) throws(ResourceParseError) {
        var expectsValue = true
        while true {
            guard try skipWhitespace() else {
                throw endError(error(at: position, "missing ')' to close the '(' at \(lineAndColumn(opening))"))
            }
            if expectsValue, startsValue() {
                try skipValue()
                expectsValue = false
            } else if !expectsValue, text[position] == UInt8(ascii: ",") {
                position += 1
                expectsValue = true
            } else if text[position] == UInt8(ascii: ")") {
                position += 1
                return
            } else {
                throw error(
                    at: position,
                    "unexpected \(describe(at: position)) in the array that starts at \(lineAndColumn(opening)): "
                        + "expected \(expectsValue ? "a value or ')'" : "',' or ')'")")
            }
        }
    }

    /// `key = value;` and `key;` entries, and the `}`.
    private mutating func skipDictionaryContent(opening: Int) throws(ResourceParseError) {
        while true {
            guard try skipWhitespace() else {
                throw endError(error(at: position, "missing '}' to close the '{' at \(lineAndColumn(opening))"))
            }
            if text[position] == Byte.closeBrace {
                position += 1
                return
            }
            guard Self.startsString(text[position]) else {
                throw error(
                    at: position,
                    "unexpected \(describe(at: position)) in the dictionary that starts at "
                        + "\(lineAndColumn(opening)): expected a key or '}'")
            }
            let keyStart = position
            _ = try parseString()
            guard try skipWhitespace() else {
                throw endError(
                    error(at: position, "expected '=' or ';' after the key that starts at \(lineAndColumn(keyStart))"))
            }
            if text[position] == Byte.equals {
                let equals = position
                position += 1
                guard try skipWhitespace() else {
                    throw endError(error(at: position, "missing value after the '=' at \(lineAndColumn(equals))"))
                }
                guard startsValue() else { throw valueExpected(afterEquals: equals) }
                let valueStart = position
                try skipValue()
                guard try skipWhitespace(), text[position] == Byte.semicolon else {
                    throw endError(
                        error(at: position, "missing ';' after the value that starts at \(lineAndColumn(valueStart))"))
                }
            } else if text[position] != Byte.semicolon {
                throw error(
                    at: position,
                    "expected '=' or ';' after the key that starts at \(lineAndColumn(keyStart)), "
                        + "found \(describe(at: position))")
            }
            position += 1
        }
    }

    /// Pairs of hex digits, with the whitespace CoreFoundation allows between them (space,
    /// tab, line breaks, U+2028, U+2029: no comments), and the `>`.
    private mutating func skipDataContent(opening: Int) throws(ResourceParseError) {
        let end = text.count
        while position < end {
            let byte = text[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                return
            }
            if Self.isHexDigit(byte) {
                guard position + 1 < end, Self.isHexDigit(text[position + 1]) else {
                    throw error(
                        at: position, "an odd number of hex digits in the data that starts at \(lineAndColumn(opening))"
                    )
                }
                position += 2
            } else if byte == 0x0A || byte == 0x0D {
                noteLineBreak(at: position)
                position += 1
            } else if byte == 0x20 || byte == 0x09 {
                position += 1
            } else if isUnicodeSeparator(at: position) {
                position += 3
            } else {
                throw error(
                    at: position,
                    "unexpected \(describe(at: position)) in the data that starts at \(lineAndColumn(opening)): "
                        + "expected hex digits or '>'")
            }
        }
        throw error(at: position, "missing '>' to close the '<' at \(lineAndColumn(opening))")
    }

    @inline(__always)
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x46, 0x61...0x66: true
        default: false
        }
    }

    // MARK: Strings

    /// Whether `byte` can start a string: a quote or an unquoted-string character.
    @inline(__always)
    private static func startsString(_ byte: UInt8) -> Bool {
        byte == Byte.doubleQuote || byte == Byte.singleQuote || isUnquoted(byte)
    }

    /// CoreFoundation's unquoted-string characters: `A-Z a-z 0-9 _ $ / : . -`.
    @inline(__always)
    private static func isUnquoted(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x5F, 0x24, 0x2F, 0x3A, 0x2E, 0x2D: true
        default: false
        }
    }

    /// Where a string's decoded bytes are in the buffer.
    fileprivate typealias BufferSpan = (start: UInt32, length: UInt32)

    /// Parses a quoted or unquoted string starting at `position`.
    private mutating func parseString() throws(ResourceParseError) -> BufferSpan {
        let first = text[position]
        if first == Byte.doubleQuote || first == Byte.singleQuote {
            return try parseQuotedString(quote: first)
        }
        let start = position
        let end = text.count
        while position < end, Self.isUnquoted(text[position]) { position += 1 }
        return span(start, position - start)
    }

    /// The span of `length` bytes at `start` in `text`, as offsets in the buffer.
    @inline(__always)
    private func span(_ start: Int, _ length: Int) -> BufferSpan {
        (UInt32(truncatingIfNeeded: base &+ start), UInt32(truncatingIfNeeded: length))
    }

    private mutating func parseQuotedString(quote: UInt8) throws(ResourceParseError) -> BufferSpan {
        let opening = position
        position += 1
        let contentStart = position
        let end = text.count
        var nonASCII = false
        // A local index, not `position`, so the loop keeps it in a register.
        var index = contentStart
        while true {
            index = ByteSearch.firstStop(
                in: text, from: index, at: quote, Byte.backslash, orNonASCII: false, sawNonASCII: &nonASCII,
                kernel: searchKernel)
            guard index < end else { break }
            let byte = text[index]
            if byte == quote {
                if nonASCII && !validUTF8,
                    let bad = StringsTextDecoder.firstInvalidUTF8(
                        in: UnsafeBufferPointer(rebasing: text[contentStart..<index]))
                {
                    throw invalidUTF8(at: contentStart + bad)
                }
                position = index + 1
                return span(contentStart, index - contentStart)
            }
            if byte == Byte.backslash {
                position = index
                return try parseEscapedRest(opening: opening, contentStart: contentStart, quote: quote)
            }
            if byte == 0x0A || byte == 0x0D { noteLineBreak(at: index) }
            index += 1
        }
        // Bad UTF-8 inside comes first in the file, so it is the error to report.
        if let bad = StringsTextDecoder.firstInvalidUTF8(in: UnsafeBufferPointer(rebasing: text[contentStart...])) {
            throw invalidUTF8(at: contentStart + bad)
        }
        throw unterminatedString(opening)
    }

    /// The rest of a quoted string from its first backslash on, decoded into `decoded`, to be
    /// written over the string's own bytes in the buffer.
    private mutating func parseEscapedRest(
        opening: Int, contentStart: Int, quote: UInt8
    ) throws(ResourceParseError) -> BufferSpan {
        // The bytes before the first backslash were only scanned, not checked: check them now
        // (unless the whole text is valid), since the string is built from `decoded`, not
        // from them.
        if !validUTF8,
            let bad = StringsTextDecoder.firstInvalidUTF8(
                in: UnsafeBufferPointer(rebasing: text[contentStart..<position]))
        {
            throw invalidUTF8(at: contentStart + bad)
        }
        let decodedStart = decoded.bytes.count
        // A high surrogate from `\U` waiting for its low half; 0 when none.
        var pendingHigh: UInt16 = 0
        var mark = contentStart
        let end = text.count
        while true {
            // Every byte that is not ASCII stops the search too, to be checked, unless the
            // whole text is valid.
            var unused = false
            position = ByteSearch.firstStop(
                in: text, from: position, at: quote, Byte.backslash, orNonASCII: !validUTF8, sawNonASCII: &unused,
                kernel: searchKernel)
            guard position < end else { break }
            let byte = text[position]
            if byte == quote {
                appendRaw(from: mark, to: position, pendingHigh: &pendingHigh)
                flush(&pendingHigh)
                position += 1
                return noteDecoded(at: contentStart, from: decodedStart)
            }
            guard byte == Byte.backslash else {
                if byte >= 0x80 {
                    position += try utf8SequenceLength(at: position)
                    continue
                }
                if byte == 0x0A || byte == 0x0D { noteLineBreak(at: position) }
                position += 1
                continue
            }
            appendRaw(from: mark, to: position, pendingHigh: &pendingHigh)
            position += 1
            guard position < end else { break }
            let escaped = text[position]
            if escaped == 0x0A || escaped == 0x0D { noteLineBreak(at: position) }
            position += 1
            switch escaped {
            case 0x30...0x37:
                flush(&pendingHigh)
                appendScalar(octalEscape(firstDigit: escaped))
            case UInt8(ascii: "U"):
                appendUTF16Unit(hexEscape(), pendingHigh: &pendingHigh)
            default:
                flush(&pendingHigh)
                switch escaped {
                case UInt8(ascii: "a"): decoded.bytes.append(0x07)
                case UInt8(ascii: "b"): decoded.bytes.append(0x08)
                case UInt8(ascii: "f"): decoded.bytes.append(0x0C)
                case UInt8(ascii: "n"): decoded.bytes.append(0x0A)
                case UInt8(ascii: "r"): decoded.bytes.append(0x0D)
                case UInt8(ascii: "t"): decoded.bytes.append(0x09)
                case UInt8(ascii: "v"): decoded.bytes.append(0x0B)
                default:
                    // Any other character stands for itself, all of its UTF-8 bytes.
                    let length = escaped < 0x80 ? 1 : try utf8SequenceLength(at: position - 1)
                    decoded.bytes.append(
                        contentsOf: UnsafeBufferPointer(rebasing: text[(position - 1)..<(position - 1 + length)]))
                    position += length - 1
                }
            }
            mark = position
        }
        throw unterminatedString(opening)
    }

    /// `\ooo`: up to three octal digits as one byte (wrapping as CoreFoundation's `uint8_t`
    /// does), read as NeXTSTEP Latin from 0o200 up.
    private mutating func octalEscape(firstDigit: UInt8) -> UInt32 {
        var value = firstDigit &- 0x30
        for _ in 0..<2 {
            guard position < text.count, (0x30...0x37).contains(text[position]) else { break }
            value = value &<< 3 &+ (text[position] &- 0x30)
            position += 1
        }
        return value < 0x80 ? UInt32(value) : UInt32(Self.nextStepHighHalf[Int(value) - 0x80])
    }

    /// `\U`: up to four hex digits, stopping at the first other character.
    private mutating func hexEscape() -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard position < text.count else { break }
            let byte = text[position]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return value
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private mutating func appendUTF16Unit(_ unit: UInt16, pendingHigh: inout UInt16) {
        switch unit {
        case 0xD800...0xDBFF:
            flush(&pendingHigh)
            pendingHigh = unit
        case 0xDC00...0xDFFF:
            if pendingHigh != 0 {
                appendScalar(0x10000 + (UInt32(pendingHigh & 0x3FF) << 10 | UInt32(unit & 0x3FF)))
                pendingHigh = 0
            } else {
                appendScalar(0xFFFD)
            }
        default:
            flush(&pendingHigh)
            appendScalar(UInt32(unit))
        }
    }

    /// A high surrogate that found no low half becomes U+FFFD, as it does when CoreFoundation's
    /// string reaches Swift.
    @inline(__always)
    private mutating func flush(_ pendingHigh: inout UInt16) {
        if pendingHigh != 0 {
            appendScalar(0xFFFD)
            pendingHigh = 0
        }
    }

    private mutating func appendRaw(from start: Int, to end: Int, pendingHigh: inout UInt16) {
        guard start < end else { return }
        flush(&pendingHigh)
        decoded.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<end]))
    }

    private mutating func appendScalar(_ scalar: UInt32) {
        StringsTextDecoder.appendUTF8(scalar, to: &decoded.bytes)
    }

    /// Notes where the string decoded from `decodedStart` on in `decoded` goes: over its
    /// source bytes from `start` (it is never longer than them).
    private mutating func noteDecoded(at start: Int, from decodedStart: Int) -> BufferSpan {
        let place = span(start, decoded.bytes.count - decodedStart)
        decoded.places.append(place)
        return place
    }

    // MARK: Errors

    private func invalidUTF8(at offset: Int) -> ResourceParseError {
        let byte = String(text[offset], radix: 16, uppercase: true)
        return error(
            at: offset, "invalid UTF-8 (byte 0x\(byte)); save the file as UTF-8, or as UTF-16 with a byte order mark")
    }

    private func error(at offset: Int, _ message: String) -> ResourceParseError {
        ResourceParseError(location: StringsParser.location(of: offset, in: text, file: file), message: message)
    }

    private func lineAndColumn(_ offset: Int) -> String {
        let location = StringsParser.location(of: offset, in: text, file: nil)
        return "\(location.line):\(location.column)"
    }

    private func unterminatedString(_ opening: Int) -> ResourceParseError {
        error(at: opening, "unterminated string that starts at \(lineAndColumn(opening))")
    }

    private static let allowedUnquoted = "A-Z a-z 0-9 _ $ / : . -"

    private func keyExpected(insideBraces: Bool) -> ResourceParseError {
        switch text[position] {
        case Byte.openBrace:
            if insideBraces { return error(at: position, "unexpected '{' (nested braces are not allowed)") }
            return error(at: position, "unexpected '{' (braces may only surround the whole file)")
        case Byte.closeBrace:
            return error(at: position, "unexpected '}' without a matching '{'")
        case Byte.semicolon:
            return error(at: position, "unexpected ';' where a key was expected (one ';' too many?)")
        default:
            return error(
                at: position,
                "unexpected \(describe(at: position)) where a key was expected; quote keys that contain "
                    + "characters other than \(Self.allowedUnquoted)")
        }
    }

    private func valueExpected(afterEquals equals: Int) -> ResourceParseError {
        switch text[position] {
        case Byte.semicolon:
            return error(at: position, "missing value after the '=' at \(lineAndColumn(equals))")
        default:
            return error(
                at: position,
                "unexpected \(describe(at: position)) after the '=' at \(lineAndColumn(equals)); quote values that "
                    + "contain characters other than \(Self.allowedUnquoted)")
        }
    }

    /// The character at `offset` as a translator would want it named: `'x'`, `'é' (U+00E9)`
    /// or `U+0000` for invisible ones.
    private func describe(at offset: Int) -> String {
        guard offset < text.count else { return "the end of the file" }
        let lead = text[offset]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        let slice = UnsafeBufferPointer(rebasing: text[offset..<min(offset + length, text.count)])
        guard let scalar = String(decoding: slice, as: UTF8.self).unicodeScalars.first else { return "?" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if scalar.isASCII {
            return (0x21...0x7E).contains(scalar.value) ? "'\(scalar)'" : code
        }
        return scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            || scalar.properties.generalCategory == .format ? code : "'\(scalar)' (\(code))"
    }

    /// CoreFoundation's NeXTSTEP Latin table for bytes 0x80...0xFF, which octal escapes from
    /// 0o200 up go through (0 where the byte has no character, as CoreFoundation gives).
    private static let nextStepHighHalf: [UInt16] = [
        0x00A0, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C7,
        0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD, 0x00CE, 0x00CF,
        0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D9,
        0x00DA, 0x00DB, 0x00DC, 0x00DD, 0x00DE, 0x00B5, 0x00D7, 0x00F7,
        0x00A9, 0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7,
        0x00A4, 0x2019, 0x201C, 0x00AB, 0x2039, 0x203A, 0xFB01, 0xFB02,
        0x00AE, 0x2013, 0x2020, 0x2021, 0x00B7, 0x00A6, 0x00B6, 0x2022,
        0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030, 0x00AC, 0x00BF,
        0x00B9, 0x02CB, 0x00B4, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9,
        0x00A8, 0x00B2, 0x02DA, 0x00B8, 0x00B3, 0x02DD, 0x02DB, 0x02C7,
        0x2014, 0x00B1, 0x00BC, 0x00BD, 0x00BE, 0x00E0, 0x00E1, 0x00E2,
        0x00E3, 0x00E4, 0x00E5, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB,
        0x00EC, 0x00C6, 0x00ED, 0x00AA, 0x00EE, 0x00EF, 0x00F0, 0x00F1,
        0x0141, 0x00D8, 0x0152, 0x00BA, 0x00F2, 0x00F3, 0x00F4, 0x00F5,
        0x00F6, 0x00E6, 0x00F9, 0x00FA, 0x00FB, 0x0131, 0x00FC, 0x00FD,
        0x0142, 0x00F8, 0x0153, 0x00DF, 0x00FE, 0x00FF, 0x0000, 0x0000,
    ]

    /// The ASCII bytes the grammar is made of.
    private enum Byte {
        static let openBrace = UInt8(ascii: "{")
        static let closeBrace = UInt8(ascii: "}")
        static let semicolon = UInt8(ascii: ";")
        static let equals = UInt8(ascii: "=")
        static let slash = UInt8(ascii: "/")
        static let star = UInt8(ascii: "*")
        static let backslash = UInt8(ascii: "\\")
        static let doubleQuote = UInt8(ascii: "\"")
        static let singleQuote = UInt8(ascii: "'")
    }
}
