/// A `.stringsdict` file as the tests write one: each entry a format of one plural variable,
/// laid out with the indentation asked for, so that the suites that check what is added to
/// such a file (import, the editor, interchange) share one writer of it.
public enum StringsDictFixture {
    /// An XML property list of `entries` (key, then its variable's forms as `(category, text)`
    /// in order), each `%#@VARIABLE@` with `valueType` as its `NSStringFormatValueTypeKey`
    /// (none when `nil`); every level `step` deeper than the one above, the root `<dict>` at
    /// `root`, and a DOCTYPE line when `doctype`.
    public static func file(
        _ entries: [(key: String, forms: [(String, String)])], variable: String = "n", valueType: String? = "d",
        step: String = "    ", root: String = "", doctype: Bool = false
    ) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        if doctype {
            text +=
                "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
                + "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
        }
        text += "<plist version=\"1.0\">\n\(root)<dict>\n"
        let (one, two, three) = (root + step, root + step + step, root + step + step + step)
        func pair(_ indent: String, _ key: String, _ value: String) {
            text += "\(indent)<key>\(key)</key>\n\(indent)<string>\(value)</string>\n"
        }
        for (key, forms) in entries {
            text += "\(one)<key>\(key)</key>\n\(one)<dict>\n"
            pair(two, "NSStringLocalizedFormatKey", "%#@\(variable)@")
            text += "\(two)<key>\(variable)</key>\n\(two)<dict>\n"
            pair(three, "NSStringFormatSpecTypeKey", "NSStringPluralRuleType")
            if let valueType { pair(three, "NSStringFormatValueTypeKey", valueType) }
            for (category, form) in forms { pair(three, category, form) }
            text += "\(two)</dict>\n\(one)</dict>\n"
        }
        return text + "\(root)</dict>\n</plist>\n"
    }
}
