/// Reads `.stringsdict` files: Apple's plural (and device-specific) string tables.
///
/// A `.stringsdict` is a property list (XML, as Xcode writes it, or binary) whose top-level
/// dictionary maps each key to a rule:
///
/// - **Plural:** a dictionary with `NSStringLocalizedFormatKey`, a format using `%#@name@`
///   variables, and for each variable a dictionary with `NSStringFormatSpecTypeKey` =
///   `NSStringPluralRuleType`, an optional `NSStringFormatValueTypeKey` (`d`, `ld`, `f`…)
///   and its forms `zero one two few many other`. Forms may use further variables of the
///   same entry, as Foundation allows. A variable should have an `other` form: it is what
///   a category without a form of its own takes, and what a plain lookup returns. One
///   without it is still served, as Foundation serves it, from the forms it has (a Russian
///   21 takes its `one`); its `other` is then its most general form (`many`, else `few`,
///   `two`, `one`, `zero`), and ``read(_:file:)`` reports it.
/// - **Device-specific:** a dictionary with `NSStringDeviceSpecificRuleType`, whose value
///   maps device names (`iphone`, `mac`…) to a string or to a plural rule as above. The
///   entry's value is the ``DevicePreference`` device's.
/// - **Variable width:** a dictionary with `NSStringVariableWidthRuleType`, mapping widths
///   to strings; the widest is kept, since there is no screen to measure on a server.
/// - A plain string value is a plain entry, as in a `.strings` file.
///
/// Anything else is an error naming the key, and costs that entry only: every other entry of
/// the file is served. For XML files the error points at the key's `<key>` element (found
/// by searching the bytes: Foundation gives no positions); for binary files it says 1:1.
///
/// ```swift
/// let entries = try StringsDictReader.parse(Array(data), file: "ru.lproj/Localizable.stringsdict")
/// entries["%d files"]?.plural?.variables["files"]?.forms[.few]  // "%d файла"
/// ```
public enum StringsDictReader {
    /// Reads a .stringsdict (XML or binary plist) into entries by key, leaving out any
    /// entry that breaks the rules above (``read(_:file:)`` says which and why).
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - file: the path to name in errors.
    /// - Throws: ``ResourceParseError`` for bytes that are not a property list, or a top
    ///   level that is not a dictionary.
    public static func parse(_ bytes: [UInt8], file: String? = nil) throws(ResourceParseError) -> [String: TableEntry] {
        try read(bytes, file: file).entries
    }

    /// Reads a .stringsdict into entries by key, and every problem of its entries, in key
    /// order: each entry left out (``ResourceParseError/isEntryLost``) and each served
    /// with a stand-in (a variable without `other`).
    ///
    /// - Throws: ``ResourceParseError`` when the file as a whole is not a `.stringsdict`.
    public static func read(_ bytes: [UInt8], file: String? = nil) throws(ResourceParseError) -> (
        entries: [String: TableEntry], problems: [ResourceParseError]
    ) {
        let reader = EntryReader(bytes: bytes, file: file)
        guard bytes.contains(where: { !isWhitespace($0) }) else {
            throw reader.failure(
                "the file is empty; a .stringsdict is a property list whose top level is a dictionary", at: [])
        }
        let root = try PropertyListValue.parse(bytes, file: file)
        guard case .dictionary(let dictionary) = root else {
            throw reader.failure("the top level is \(root.kindDescription), expected a dictionary of keys", at: [])
        }
        var entries: [String: TableEntry] = [:]
        var problems: [ResourceParseError] = []
        for key in dictionary.keys.sorted() {
            do {
                entries[key] = try reader.entry(key, from: dictionary[key]!)
            } catch {
                problems.append(error)
            }
            problems += reader.takeWarnings()
        }
        return (entries, problems)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x00
    }
}

/// The keys Foundation defines for `.stringsdict` rules.
private enum RuleKey {
    static let format = "NSStringLocalizedFormatKey"
    static let specType = "NSStringFormatSpecTypeKey"
    static let valueType = "NSStringFormatValueTypeKey"
    static let pluralRule = "NSStringPluralRuleType"
    static let deviceRule = "NSStringDeviceSpecificRuleType"
    static let widthRule = "NSStringVariableWidthRuleType"
}

/// Turns one top-level value into an entry, and failures into located errors.
private final class EntryReader {
    let bytes: [UInt8]
    let file: String?
    /// Problems of the entry being read that did not cost it.
    private var warnings: [ResourceParseError] = []

    init(bytes: [UInt8], file: String?) {
        self.bytes = bytes
        self.file = file
    }

    /// The warnings gathered since the last call.
    func takeWarnings() -> [ResourceParseError] {
        defer { warnings = [] }
        return warnings
    }

    func failure(_ message: String, at path: [String], entryLost: Bool = true) -> ResourceParseError {
        let isBinary = bytes.starts(with: BinaryPropertyListReader.magic)
        let location =
            isBinary || path.isEmpty
            ? SourceLocation(file: file, line: 1, column: 1)
            : KeyPathLocator(bytes: bytes, syntax: .xmlPropertyList, file: file).location(of: path)
        return ResourceParseError(location: location, message: message, isEntryLost: entryLost)
    }

    func entry(_ key: String, from value: PropertyListValue) throws(ResourceParseError) -> TableEntry {
        switch value {
        case .string(let string):
            return TableEntry(value: string)
        case .dictionary(let rule):
            if rule[RuleKey.format] != nil {
                return try pluralEntry(key, rule: rule, path: [key])
            }
            if let devices = rule[RuleKey.deviceRule] {
                return try deviceEntry(key, devices: devices)
            }
            if let widths = rule[RuleKey.widthRule] {
                return try widthEntry(key, widths: widths)
            }
            throw failure(
                "\(quoted(key)) has no \(RuleKey.format) (nor \(RuleKey.deviceRule) or \(RuleKey.widthRule))",
                at: [key])
        default:
            throw failure("\(quoted(key)) is \(value.kindDescription), expected a string or a dictionary", at: [key])
        }
    }

    /// A `NSStringLocalizedFormatKey` rule; `path` leads to its dictionary.
    private func pluralEntry(
        _ key: String,
        rule: [String: PropertyListValue],
        path: [String]
    ) throws(ResourceParseError) -> TableEntry {
        guard case .string(let written) = rule[RuleKey.format] else {
            let found = rule[RuleKey.format]?.kindDescription ?? "nothing"
            throw failure(
                "\(RuleKey.format) of \(quoted(key)) is \(found), expected a string", at: path + [RuleKey.format])
        }
        let format = Self.withoutVariableWidths(written)
        var variables: [String: PluralFormat.Variable] = [:]
        var pending = FormatPlaceholders.variableNames(in: format).map { (name: $0, usedBy: RuleKey.format) }
        while !pending.isEmpty {
            let (name, usedBy) = pending.removeFirst()
            guard variables[name] == nil else { continue }
            let variable = try self.variable(name, of: key, usedBy: usedBy, rule: rule, path: path)
            variables[name] = variable
            for form in variable.forms.values {
                pending += FormatPlaceholders.variableNames(in: form).map { ($0, "variable \(quoted(name))") }
            }
        }
        guard !variables.isEmpty else { return TableEntry(value: format) }
        let plural = PluralFormat(format: format, variables: variables)
        return TableEntry(
            value: FormatPlaceholders.expandingOtherForms(of: format, variables: variables),
            plural: plural)
    }

    /// `format` with the width of each variable dropped: `%1#@count@` is `%#@count@`.
    /// CoreFoundation's format parser reads digits not followed by `$` as a width and goes
    /// on to the `#@` (issue 25: 500 selections of one app's files); the variable's text
    /// replaces the whole conversion, so the width changes nothing. `%1$#@count@` (digits
    /// then `$`) is a position, and stays.
    static func withoutVariableWidths(_ format: String) -> String {
        guard format.utf8.contains(UInt8(ascii: "#")) else { return format }
        var bytes = Array(format.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            if end > index + 1, end + 1 < bytes.count, bytes[end] == UInt8(ascii: "#"),
                bytes[end + 1] == UInt8(ascii: "@")
            {
                bytes.removeSubrange((index + 1)..<end)
                index += 3
            } else {
                // `%%` and every other conversion: past the `%` and whatever digits followed.
                index = max(end, index + 2)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func variable(
        _ name: String,
        of key: String,
        usedBy: String,
        rule: [String: PropertyListValue],
        path: [String]
    ) throws(ResourceParseError) -> PluralFormat.Variable {
        let variablePath = path + [name]
        guard let definition = rule[name] else {
            throw failure("\(quoted(key)): variable \(quoted(name)) used in \(usedBy) is not defined", at: path)
        }
        guard case .dictionary(let fields) = definition else {
            throw failure(
                "\(quoted(key)): variable \(quoted(name)) is \(definition.kindDescription), expected a dictionary",
                at: variablePath)
        }
        switch fields[RuleKey.specType] {
        case .string(RuleKey.pluralRule):
            break
        case .string(let other):
            throw failure(
                "\(quoted(key)): variable \(quoted(name)) has rule type \(quoted(other)); only \(RuleKey.pluralRule) is supported for variables",
                at: variablePath + [RuleKey.specType])
        case nil:
            throw failure("\(quoted(key)): variable \(quoted(name)) has no \(RuleKey.specType)", at: variablePath)
        case let value?:
            throw failure(
                "\(quoted(key)): \(RuleKey.specType) of variable \(quoted(name)) is \(value.kindDescription), expected a string",
                at: variablePath + [RuleKey.specType])
        }
        var valueType: String?
        switch fields[RuleKey.valueType] {
        case .string(let type): valueType = type
        case nil: valueType = nil
        case let value?:
            throw failure(
                "\(quoted(key)): \(RuleKey.valueType) of variable \(quoted(name)) is \(value.kindDescription), expected a string",
                at: variablePath + [RuleKey.valueType])
        }
        var forms: [PluralCategory: String] = [:]
        for category in PluralCategory.allCases {
            switch fields[category.rawValue] {
            case .string(let form): forms[category] = Self.withoutVariableWidths(form)
            case nil: break
            case let value?:
                throw failure(
                    "\(quoted(key)): form \(quoted(category.rawValue)) of variable \(quoted(name)) is \(value.kindDescription), expected a string",
                    at: variablePath + [category.rawValue])
            }
        }
        if forms[.other] == nil {
            // Foundation still serves the forms there are; the most general one stands in.
            guard let standIn = PluralFormat.Variable.otherStandIn(among: forms) else {
                throw failure("\(quoted(key)): variable \(quoted(name)) has no plural form at all", at: variablePath)
            }
            forms[.other] = forms[standIn]
            warnings.append(
                failure(
                    "\(quoted(key)): variable \(quoted(name)) has no \"other\" form; served from its forms, with \"\(standIn.rawValue)\" for other",
                    at: variablePath, entryLost: false))
        }
        return PluralFormat.Variable(valueType: valueType, forms: forms)
    }

    private func deviceEntry(_ key: String, devices: PropertyListValue) throws(ResourceParseError) -> TableEntry {
        let path = [key, RuleKey.deviceRule]
        guard case .dictionary(let byDevice) = devices else {
            throw failure(
                "\(quoted(key)): \(RuleKey.deviceRule) is \(devices.kindDescription), expected a dictionary of devices",
                at: path)
        }
        guard !byDevice.isEmpty else {
            throw failure("\(quoted(key)): \(RuleKey.deviceRule) names no device", at: path)
        }
        var variants: [String: TableEntry] = [:]
        for device in byDevice.keys.sorted() {
            switch byDevice[device]! {
            case .string(let string):
                variants[device] = TableEntry(value: string)
            case .dictionary(let rule):
                variants[device] = try pluralEntry(key, rule: rule, path: path + [device])
            case let value:
                throw failure(
                    "\(quoted(key)): device \(quoted(device)) is \(value.kindDescription), expected a string or a plural rule",
                    at: path + [device])
            }
        }
        let chosen = variants[DevicePreference.preferredDevice(among: variants.keys)!]!
        return TableEntry(value: chosen.value, plural: chosen.plural, deviceVariants: variants.mapValues(\.value))
    }

    private func widthEntry(_ key: String, widths: PropertyListValue) throws(ResourceParseError) -> TableEntry {
        let path = [key, RuleKey.widthRule]
        guard case .dictionary(let byWidth) = widths else {
            throw failure(
                "\(quoted(key)): \(RuleKey.widthRule) is \(widths.kindDescription), expected a dictionary", at: path)
        }
        var widest: (width: Int, value: String)?
        for width in byWidth.keys.sorted() {
            guard let value = byWidth[width], let number = Int(width), case .string(let string) = value else {
                throw failure(
                    "\(quoted(key)): width variant \(quoted(width)) must be a number naming a string",
                    at: path + [width])
            }
            if widest == nil || number > widest!.width { widest = (number, string) }
        }
        guard let widest else {
            throw failure("\(quoted(key)): \(RuleKey.widthRule) is empty", at: path)
        }
        return TableEntry(value: widest.value)
    }

    private func quoted(_ text: String) -> String {
        "\"\(text)\""
    }
}
