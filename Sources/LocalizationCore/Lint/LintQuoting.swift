/// Text from a translator's file in lint's messages: keys and names quoted as `.strings`
/// literals (`"q\"uo"`, `"line\n"`, `"\U001B]0;…"`), and no control character left in a
/// printed line, so a file cannot move the cursor, retitle or recolour the terminal that
/// reads lint's output, and every quoted key reads as it is written in a `.strings` file.
enum LintQuoting {
    /// DEL and the C1 controls (a terminal reads U+009B as CSI): `\U007F`…`\U009F`, beside
    /// the C0 controls `TextEscaping` escapes.
    private static let otherControls: [Unicode.Scalar: String] = Dictionary(
        uniqueKeysWithValues: (0x7F...0x9F).map { (Unicode.Scalar(UInt8($0)), escape($0)) })

    /// `text` as a quoted `.strings` literal.
    static func quoted(_ text: String) -> String {
        "\"" + TextEscaping.escaped(text, TextEscaping.backslashed.merging(otherControls) { $1 }, control: escape)
            + "\""
    }

    /// `line` with every control character written `\U001B`, quotes and backslashes as they are.
    static func printable(_ line: String) -> String {
        TextEscaping.escaped(line, otherControls, control: escape)
    }

    private static func escape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "\\U" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
