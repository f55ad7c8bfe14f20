/// How an XML property list indents its dictionaries, so that what l10nd adds to one is
/// indented as the file is (tabs, 2 or 4 spaces, the root's keys at any column).
struct PropertyListIndentation {
    /// The whitespace before the file's first `<key>` (its top-level keys).
    let base: String
    /// What a key one level deeper adds to `base`; `nil` when no key is deeper.
    let step: String?

    /// The indentation of the file `bytes`: a file without keys has `base` a tab.
    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var base: String?
        for line in text.split(separator: "\n") where line.contains("<key>") {
            let indent = String(line.prefix { $0 == " " || $0 == "\t" })
            guard let base else {
                base = indent
                continue
            }
            if indent.count > base.count, indent.hasPrefix(base) {
                (self.base, step) = (base, String(indent.dropFirst(base.count)))
                return
            }
        }
        (self.base, step) = (base ?? "\t", nil)
    }
}
