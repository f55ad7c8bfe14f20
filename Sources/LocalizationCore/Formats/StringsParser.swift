import Foundation

/// Reads `.strings` files: the old-style property list subset CoreFoundation reads
/// (`CFOldStylePList.c`), plus XML and binary property lists holding a dictionary of strings.
///
/// The grammar, as CoreFoundation has it:
/// - `key = value;` pairs and the `"key";` shorthand (the value is the key), optionally
///   inside one outer `{ }`; every pair ends with `;`, the last one too.
/// - Strings quoted with `"` or `'`, or unquoted runs of `A-Z a-z 0-9 _ $ / : . -`. A `/`
///   inside an unquoted string is part of it even when `//` or `/*` follows
///   (`url = http://example.com;`): comments start only where whitespace could.
/// - `/* */` and `//` comments wherever whitespace may be.
/// - Escapes `\n \t \r \" \\ \a \b \f \v`, `\U` with up to four hex digits (a UTF-16 unit;
///   consecutive surrogate escapes join, a lone one becomes U+FFFD), octal `\ooo` (bytes from
///   0o200 up read as NeXTSTEP Latin, as CoreFoundation does); any other escaped character
///   stands for itself.
/// - UTF-8 with or without a byte order mark, UTF-16 with one, or UTF-16 without one when
///   the first or second byte is zero.
///
/// Where a key is expected outside braces after an entry, a character that cannot start one (an extra
/// `;`, a stray `@`, `"a" = "b";=`) ends the parse *as a success* keeping every entry
/// before it, as CoreFoundation's does; so does a `/*` comment never closed, which
/// CoreFoundation reads to the end of the file (``StringsTable/earlyEnd`` says where; lint
/// warns and the table lists it among its problems, since the rest of the file is lost): an
/// app shows what Foundation reads. A value may be an array `( … )`, a dictionary `{ … }` or
/// data `<0fbd>`, nested, as CoreFoundation reads them: the file's string keys are kept and
/// those entries are left out, loudly (``StringsTable/nonStringValues``). Anywhere else, a
/// comment never closed is an error naming it. An empty file is an empty table (Foundation
/// rejects zero bytes).
///
/// An XML (`<?xml`, `<plist`) property list is read with Foundation's
/// `PropertyListSerialization`, a binary one (`bplist00`) with `BinaryPropertyListReader`, and
/// must be a dictionary of strings; its entries come sorted by key, all located at 1:1, with
/// no duplicates (the format cannot hold any).
///
/// Errors carry a 1-based line and column (columns count Unicode scalars, lines end at
/// `\n`, `\r` or `\r\n`). "Unterminated" errors point at where the string or comment
/// starts, "missing ';'" just after the value, and every other error at the character the
/// parser could not accept.
///
/// ```swift
/// let parsed = try StringsParser.parse(Array(data), file: "ja.lproj/Localizable.strings")
/// let value = parsed.table["Hello"]
/// ```
public enum StringsParser {
    /// Parses a `.strings` file's bytes (any supported encoding; XML/binary plist too).
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - file: The path to put in locations and errors.
    /// - Returns: The entries in file order, the table (last duplicate wins) and the duplicates.
    /// - Throws: `ResourceParseError` with the line and column of the first problem.
    public static func parse(_ bytes: [UInt8], file: String? = nil) throws(ResourceParseError) -> ParsedStrings {
        ParsedStrings(try parseTable(bytes, file: file))
    }

    /// Parses a `.strings` file's bytes like ``parse(_:file:)``, into one byte buffer with
    /// offsets (``StringsTable``): no `String` is made.
    ///
    /// - Throws: `ResourceParseError` with the line and column of the first problem.
    package static func parseTable(_ bytes: [UInt8], file: String? = nil) throws(ResourceParseError) -> StringsTable {
        let encoding = bytes.withUnsafeBufferPointer { StringsTextDecoder.detectEncoding($0) }
        switch encoding {
        case .utf8(let bomLength):
            return try bytes.withUnsafeBufferPointer { (all) throws(ResourceParseError) -> StringsTable in
                let text = UnsafeBufferPointer(rebasing: all[bomLength...])
                if let table = try propertyListTable(text, original: bytes, file: file) { return table }
                // One check of the whole text spares the scanner a check of every string; a
                // text that fails is scanned with them, which find where it fails.
                let scanned = try scan(text, base: bomLength, validUTF8: UTF8Validation.isValid(text), file: file)
                // The caller's bytes: the decoded strings go into a copy (made only when
                // there are any).
                var buffer = bytes
                scanned.decoded.write(into: &buffer)
                return StringsTable(
                    buffer: buffer, spans: scanned.spans, file: file, earlyEnd: scanned.earlyEnd,
                    nonStringValues: scanned.nonStringValues)
            }
        case .utf16(let bigEndian, let bomLength):
            var utf8 = try bytes.withUnsafeBufferPointer { (all) throws(ResourceParseError) -> [UInt8] in
                try UTF16Transcoder.utf8(
                    from: UnsafeBufferPointer(rebasing: all[bomLength...]), bigEndian: bigEndian, file: file)
            }
            if let table = try utf8.withUnsafeBufferPointer({ (text) throws(ResourceParseError) in
                try propertyListTable(text, original: bytes, file: file)
            }) {
                return table
            }
            let scanned = try utf8.withUnsafeBufferPointer { (text) throws(ResourceParseError) in
                try scan(text, base: 0, validUTF8: true, file: file)
            }
            // The transcoding is this parse's own: the decoded strings are written into it in
            // place, with no copy.
            scanned.decoded.write(into: &utf8)
            return StringsTable(
                buffer: utf8, spans: scanned.spans, file: file, earlyEnd: scanned.earlyEnd,
                nonStringValues: scanned.nonStringValues)
        }
    }

    /// The table of an XML or binary property list (`original` is the file as given, `text`
    /// its UTF-8 text with no byte order mark); `nil` for an old-style one.
    private static func propertyListTable(
        _ text: UnsafeBufferPointer<UInt8>, original: [UInt8], file: String?
    ) throws(ResourceParseError) -> StringsTable? {
        guard original.starts(with: binaryPlistMagic) || startsWithXML(text) else { return nil }
        return try parsePropertyList(original, file: file)
    }

    /// Scans old-style UTF-8 `text` (no byte order mark), which is its buffer from `base` on.
    private static func scan(
        _ text: UnsafeBufferPointer<UInt8>, base: Int, validUTF8: Bool, file: String?
    ) throws(ResourceParseError) -> StringsScanner.Result {
        guard text.count < Int(UInt32.max) - 4 else {
            throw ResourceParseError(
                location: SourceLocation(file: file, line: 1, column: 1), message: "the file is 4 GiB or more")
        }
        var scanner = StringsScanner(text: text, base: base, validUTF8: validUTF8, file: file)
        return try scanner.parseFile()
    }

    private static let binaryPlistMagic: [UInt8] = Array("bplist".utf8)

    /// Whether the first non-whitespace character is `<`: an XML property list (an old-style
    /// one can only start with `<` for a data value, which is no `.strings` file anyway).
    private static func startsWithXML(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text {
            switch byte {
            case 0x09...0x0D, 0x20: continue
            default: return byte == UInt8(ascii: "<")
            }
        }
        return false
    }

    /// Reads an XML or binary property list (``PropertyListValue/parse(_:file:)``: binary ones
    /// with our own reader, which survives damaged input that crashes Foundation's on Linux):
    /// it must be a dictionary of strings. Entries come sorted by key (a dictionary has no
    /// file order) and located at 1:1.
    private static func parsePropertyList(_ bytes: [UInt8], file: String?) throws(ResourceParseError) -> StringsTable {
        let start = SourceLocation(file: file, line: 1, column: 1)
        guard case .dictionary(let dictionary) = try PropertyListValue.parse(bytes, file: file) else {
            throw ResourceParseError(location: start, message: "the property list is not a dictionary of strings")
        }
        var table: [String: String] = [:]
        table.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            guard case .string(let string) = value else {
                throw ResourceParseError(location: start, message: "the value of the key '\(key)' is not a string")
            }
            table[key] = string
        }
        return StringsTable(sortedEntriesOf: table, file: file)
    }

    /// The line and column of the byte at `offset` in UTF-8 `text`, counted from the start:
    /// for error messages, off the fast path.
    static func location(of offset: Int, in text: UnsafeBufferPointer<UInt8>, file: String?) -> SourceLocation {
        var line = 1
        var column = 1
        var index = 0
        while index < offset {
            let byte = text[index]
            if byte == 0x0A || byte == 0x0D {
                // "\r\n" is one line break.
                if byte == 0x0D, index + 1 < offset, text[index + 1] == 0x0A { index += 1 }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}
