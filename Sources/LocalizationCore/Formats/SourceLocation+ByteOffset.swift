extension SourceLocation {
    /// The location of byte `offset` in UTF-8 text.
    ///
    /// Parsers that only know a byte offset (Foundation's JSON errors, a search through the
    /// bytes) use this to give a translator a line and a column. Lines end at `\n`, `\r\n`
    /// or a lone `\r`; the column counts Unicode scalars, so continuation bytes are skipped.
    /// An offset past the end points just after the last byte.
    init(byteOffset offset: Int, in bytes: [UInt8], file: String?) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        var index = 0
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte == UInt8(ascii: "\r") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                    index += 1
                    if index == end { break }
                }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        self.init(file: file, line: line, column: column)
    }
}
