import Foundation

/// Resource directories made up for the benchmark: `languages` × `keys`, with realistic
/// lengths, Japanese and English text, escapes and comments, written to a temp directory.
struct SyntheticResources {
    /// The root directory holding `xx.lproj/Localizable.strings`.
    let root: String
    /// Bytes of keys and values as UTF-8, the raw size the daemon's memory is compared with.
    let rawBytes: Int
    /// Total size of the files written.
    let fileBytes: Int
    /// The language directories' tags.
    let languages: [String]

    /// Writes the files; `keys` entries per language.
    init(languages count: Int, keys: Int, under parent: String) {
        root = parent + "/resources"
        var tags: [String] = ["en", "ja"]
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var index = 0
        // Two letters while they last (676), then three: thousands of distinct languages.
        var taken = Set(tags)
        while tags.count < count {
            let tag =
                index < 676
                ? "\(letters[index / 26])\(letters[index % 26])"
                : "\(letters[(index - 676) / 676 % 26])\(letters[(index - 676) / 26 % 26])\(letters[(index - 676) % 26])"
            index += 1
            if taken.insert(tag).inserted { tags.append(tag) }
        }
        languages = Array(tags.prefix(count))
        var raw = 0
        var written = 0
        for (languageIndex, tag) in languages.enumerated() {
            var text = "/* \(tag): synthetic strings for l10nd-bench */\n"
            text.reserveCapacity(keys * 64)
            for key in 0..<keys {
                let name = "screen\(key % 97).label\(key)"
                let value = Self.value(key: key, language: languageIndex)
                raw += name.utf8.count + value.utf8.count
                if key % 50 == 0 { text += "// section \(key / 50)\n" }
                text += "\"\(name)\" = \"\(Self.escaped(value))\";\n"
            }
            let directory = root + "/\(tag).lproj"
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let data = Data(text.utf8)
            written += data.count
            _ = FileManager.default.createFile(atPath: directory + "/Localizable.strings", contents: data)
        }
        rawBytes = raw
        fileBytes = written
    }

    /// A value of 10–60 characters; odd languages Japanese, even ones English, some with a
    /// quote, a newline or a format specifier to escape.
    static func value(key: Int, language: Int) -> String {
        let english = [
            "Open the file", "Save changes before closing?", "Multilingualization", "Preferences",
            "%@ has %d new messages", "Playback speed: \"fast\"",
        ]
        let japanese = [
            "ファイルを開く", "閉じる前に変更を保存しますか？", "多言語化", "環境設定",
            "%@さんに新しいメッセージが%d件あります", "再生速度：「速い」\n",
        ]
        let pool = language % 2 == 0 ? english : japanese
        return pool[key % pool.count] + " \(key)"
    }

    static func escaped(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
    }
}
