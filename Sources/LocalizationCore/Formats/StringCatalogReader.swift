/// Reads String Catalogs (`.xcstrings`), the JSON files Xcode 15 and later write.
///
/// Each key's `localizations` map a language to one of:
///
/// - `stringUnit {state, value}`: a plain entry with that state.
/// - `variations.plural {one: {stringUnit}, other: …}`: a plural entry. It is stored in the
///   model `.stringsdict` entries use, as the format `%#@_@` with one variable named `_`
///   whose forms are the variation's (so a client formats both kinds the same way); its
///   value type is the first numeric printf conversion of the `other` form.
/// - `variations.device {iphone: …, mac: …, other: …}`: each device a `stringUnit` or a
///   plural variation. ``TableEntry/deviceVariants`` gets every device's plain value; the
///   entry's value and plural are the ``DevicePreference`` device's (`other` first).
/// - `substitutions {NAME: {argNum, formatSpecifier, variations.plural}}` beside any of the
///   above: the text's `%#@NAME@` placeholders become variables of a ``PluralFormat`` whose
///   format is the text, with `formatSpecifier` as value type and `argNum` as argument number.
///   The `%arg` Xcode writes in a substitution's forms becomes `%ARGNUM$SPECIFIER`
///   (`%1$lld`), as Xcode compiles it; without a `formatSpecifier`, `lld` is assumed.
///
/// A plain lookup's value replaces every variable by its `other` form. An entry's
/// ``TableEntry/state`` is the least finished state among its string units (`new`, then
/// `needs_review`, `stale`, any other, `translated`), so one form needing review marks the
/// whole entry. A key without a source-language localization is given the key itself as its
/// source-language value with no state, as Xcode does when it compiles the catalog, marked
/// ``TableEntry/isSourceKeyStandIn`` (lookups pass over it, lint compares nothing with it); this
/// holds for `shouldTranslate: false` keys too, which are also listed in
/// ``StringCatalog/untranslatableKeys``.
///
/// ```swift
/// let catalog = try StringCatalogReader.parse(Array(data), file: "Menu.xcstrings")
/// catalog.tables["ja"]?["Open"]?.value
/// ```
public enum StringCatalogReader {
    /// Reads a String Catalog.
    ///
    /// - Parameters:
    ///   - bytes: the whole file, UTF-8 JSON.
    ///   - file: the path to name in errors.
    /// A localization that breaks the shapes above is left out (its key's other languages
    /// are kept), and so is a key whose own fields are wrong; ``read(_:file:)`` says which.
    ///
    /// - Throws: ``ResourceParseError`` for invalid JSON (at the line and column of the
    ///   fault; a trailing comma or a key given twice in one object is invalid, as `jq` and
    ///   Xcode read it), or a missing `sourceLanguage` or `strings`.
    public static func parse(_ bytes: [UInt8], file: String? = nil) throws(ResourceParseError) -> StringCatalog {
        try read(bytes, file: file).catalog
    }

    /// Reads a String Catalog, and every localization or key it had to leave out, in key
    /// order, each at the line and column where it is written.
    ///
    /// - Throws: ``ResourceParseError`` when the file as a whole is not a String Catalog.
    public static func read(_ bytes: [UInt8], file: String? = nil) throws(ResourceParseError) -> (
        catalog: StringCatalog, problems: [ResourceParseError]
    ) {
        let (catalog, problems) = try CatalogReader(bytes: utf8(bytes, file: file), file: file).catalog()
        return (catalog, problems)
    }

    /// The file's text as UTF-8: a UTF-16 catalog (with a byte order mark, or ASCII first)
    /// is transcoded, as Foundation reads it; UTF-8 is taken as it is.
    private static func utf8(_ bytes: [UInt8], file: String?) throws(ResourceParseError) -> [UInt8] {
        let encoding = bytes.withUnsafeBufferPointer { StringsTextDecoder.detectEncoding($0) }
        guard case .utf16(let bigEndian, let bomLength) = encoding else { return bytes }
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(ResourceParseError) in
                try UTF16Transcoder.utf8(
                    from: UnsafeBufferPointer(rebasing: buffer[bomLength...]), bigEndian: bigEndian, file: file)
            }
        }
        return try result.get()
    }
}

/// What one string unit, plural variation or device variation resolves to.
private struct ResolvedText {
    var value: String
    var plural: PluralFormat?
    var deviceVariants: [String: String] = [:]
    var states: [String] = []
}

/// Problems that cost nothing (a stand-in was used), collected while a key is read.
private final class Warnings {
    var list: [ResourceParseError] = []
}

/// The state of one reading: the bytes (to locate errors) and the JSON walk.
private struct CatalogReader {
    let bytes: [UInt8]
    let file: String?
    private let warnings = Warnings()

    init(bytes: [UInt8], file: String?) {
        self.bytes = bytes
        self.file = file
    }

    /// The variable a top-level plural variation is stored under (see ``StringCatalogReader``).
    static let pluralVariableName = "_"

    func catalog() throws(ResourceParseError) -> (StringCatalog, [ResourceParseError]) {
        guard bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw failure("the file is empty; a String Catalog is a JSON object", at: [])
        }
        if let invalid = bytes.withUnsafeBufferPointer({
            UTF8Validation.isValid($0) ? nil : StringsTextDecoder.firstInvalidUTF8(in: $0)
        }) {
            throw ResourceParseError(
                location: SourceLocation(byteOffset: invalid, in: bytes, file: file),
                message: "invalid JSON: the text is not UTF-8")
        }
        let tape: JSONTape
        do {
            tape = try JSONTape(bytes)
        } catch {
            throw ResourceParseError(
                location: SourceLocation(byteOffset: error.offset, in: bytes, file: file),
                message: "invalid JSON: \(error.message)")
        }
        let root = tape.root
        guard root.kind == .object else {
            throw failure("the top level is \(describe(root)), expected a JSON object", at: [])
        }
        guard let sourceLanguage = root["sourceLanguage"]?.string, !sourceLanguage.isEmpty else {
            throw failure(
                "\"sourceLanguage\" is \(describe(root["sourceLanguage"])), expected a language code",
                at: ["sourceLanguage"])
        }
        var version: String?
        if let written = root["version"] {
            guard let string = written.string else {
                throw failure("\"version\" is \(describe(written)), expected a string", at: ["version"])
            }
            version = string
        }
        guard let strings = root["strings"]?.members else {
            throw failure("\"strings\" is \(describe(root["strings"])), expected an object of keys", at: ["strings"])
        }
        var catalog = StringCatalog(sourceLanguage: sourceLanguage, version: version)
        var problems: [ResourceParseError] = []
        for (key, written) in strings.sorted(by: { $0.key < $1.key }) {
            let path = ["strings", key]
            do throws(ResourceParseError) {
                guard written.kind == .object else {
                    throw failure("\(quoted(key)) is \(describe(written)), expected an object", at: path)
                }
                let definition = written
                try read(key, definition: definition, path: path, into: &catalog, problems: &problems)
            } catch {
                problems.append(error)
            }
            problems += warnings.list
            warnings.list.removeAll()
        }
        return (catalog, problems)
    }

    /// One key's localizations into `catalog`: a bad localization costs only its own
    /// language's entry (added to `problems`); a bad key-level field costs the key.
    private func read(
        _ key: String, definition: JSONTapeValue, path: [String], into catalog: inout StringCatalog,
        problems: inout [ResourceParseError]
    ) throws(ResourceParseError) {
        var untranslatable = false
        if let shouldTranslate = definition["shouldTranslate"] {
            guard shouldTranslate.kind == .true || shouldTranslate.kind == .false else {
                throw failure(
                    "\(quoted(key)): \"shouldTranslate\" is \(describe(shouldTranslate)), expected true or false",
                    at: path + ["shouldTranslate"])
            }
            untranslatable = shouldTranslate.kind == .false
        }
        var localizations: [(key: String, value: JSONTapeValue)] = []
        if let written = definition["localizations"] {
            guard let object = written.members else {
                throw failure(
                    "\(quoted(key)): \"localizations\" is \(describe(written)), expected an object of languages",
                    at: path + ["localizations"])
            }
            localizations = object
        }
        if untranslatable { catalog.untranslatableKeys.insert(key) }
        for (language, written) in localizations.sorted(by: { $0.key < $1.key }) {
            do {
                let entry = try localization(written, key: key, path: path + ["localizations", language])
                catalog.tables[language, default: [:]][key] = entry
            } catch {
                problems.append(error)
            }
        }
        if catalog.tables[catalog.sourceLanguage]?[key] == nil {
            var standIn = TableEntry(value: key)
            standIn.isSourceKeyStandIn = true
            catalog.tables[catalog.sourceLanguage, default: [:]][key] = standIn
        }
    }

    private func localization(_ object: JSONTapeValue, key: String, path: [String]) throws(ResourceParseError)
        -> TableEntry
    {
        guard object.kind == .object else {
            throw failure("\(context(key, path)) is \(describe(object)), expected an object", at: path)
        }
        var substitutions: [String: PluralFormat.Variable] = [:]
        var states: [String] = []
        if let written = object["substitutions"] {
            guard let byName = written.members else {
                throw failure(
                    "\(context(key, path)): \"substitutions\" is \(describe(written)), expected an object",
                    at: path + ["substitutions"])
            }
            for (name, written) in byName.sorted(by: { $0.key < $1.key }) {
                let (variable, formStates) = try substitution(written, key: key, path: path + ["substitutions", name])
                substitutions[name] = variable
                states += formStates
            }
        }
        var resolved = try text(object, key: key, path: path, substitutions: substitutions, allowsDevices: true)
        resolved.states += states
        return TableEntry(
            value: resolved.value,
            plural: resolved.plural,
            deviceVariants: resolved.deviceVariants,
            state: summaryState(resolved.states))
    }

    /// A `stringUnit` or `variations` object.
    private func text(
        _ object: JSONTapeValue,
        key: String,
        path: [String],
        substitutions: [String: PluralFormat.Variable],
        allowsDevices: Bool
    ) throws(ResourceParseError) -> ResolvedText {
        if let unit = object["stringUnit"] {
            let (value, state) = try stringUnit(unit, key: key, path: path + ["stringUnit"])
            var resolved = try substituted(
                format: value, key: key, path: path, substitutions: substitutions, extraVariables: [:])
            resolved.states = state.map { [$0] } ?? []
            return resolved
        }
        guard let written = object["variations"] else {
            throw failure("\(context(key, path)) has neither a \"stringUnit\" nor \"variations\"", at: path)
        }
        guard written.kind == .object else {
            throw failure(
                "\(context(key, path)): \"variations\" is \(describe(written)), expected an object",
                at: path + ["variations"])
        }
        let variations = written
        if let plural = variations["plural"] {
            let pluralPath = path + ["variations", "plural"]
            let (forms, states) = try pluralForms(plural, key: key, path: pluralPath)
            let variable = PluralFormat.Variable(
                valueType: FormatPlaceholders.firstNumericValueType(in: forms[.other]!),
                forms: forms,
                argumentNumber: Self.countArgument(key: key, otherForm: forms[.other]!))
            var resolved = try substituted(
                format: "%#@\(Self.pluralVariableName)@", key: key, path: pluralPath,
                substitutions: substitutions, extraVariables: [Self.pluralVariableName: variable])
            resolved.states = states
            return resolved
        }
        if allowsDevices, let devices = variations["device"] {
            let devicePath = path + ["variations", "device"]
            guard let byDevice = devices.members, !byDevice.isEmpty else {
                throw failure(
                    "\(context(key, path)): \"device\" is \(describe(devices)), expected an object naming devices",
                    at: devicePath)
            }
            var variants: [String: ResolvedText] = [:]
            for (device, deviceObject) in byDevice.sorted(by: { $0.key < $1.key }) {
                guard deviceObject.kind == .object else {
                    throw failure(
                        "\(context(key, path)): device \(quoted(device)) is \(describe(deviceObject)), expected an object",
                        at: devicePath + [device])
                }
                variants[device] = try text(
                    deviceObject, key: key, path: devicePath + [device],
                    substitutions: substitutions, allowsDevices: false)
            }
            var resolved = variants[DevicePreference.preferredDevice(among: variants.keys)!]!
            resolved.deviceVariants = variants.mapValues(\.value)
            resolved.states = variants.keys.sorted().flatMap { variants[$0]!.states }
            return resolved
        }
        let expected = allowsDevices ? "\"plural\" or \"device\"" : "\"plural\" (devices cannot nest)"
        throw failure("\(context(key, path)): \"variations\" has no \(expected)", at: path + ["variations"])
    }

    /// `format` as an entry: with a plural model when it uses substitutions or extra variables.
    private func substituted(
        format: String,
        key: String,
        path: [String],
        substitutions: [String: PluralFormat.Variable],
        extraVariables: [String: PluralFormat.Variable]
    ) throws(ResourceParseError) -> ResolvedText {
        var variables: [String: PluralFormat.Variable] = [:]
        var pending = FormatPlaceholders.variableNames(in: format)
        while !pending.isEmpty {
            let name = pending.removeFirst()
            guard variables[name] == nil else { continue }
            guard let variable = extraVariables[name] ?? substitutions[name] else {
                throw failure(
                    "\(context(key, path)): the text uses %#@\(name)@ but there is no substitution named \(quoted(name))",
                    at: path)
            }
            variables[name] = variable
            pending += variable.forms.values.flatMap(FormatPlaceholders.variableNames(in:))
        }
        guard !variables.isEmpty else { return ResolvedText(value: format) }
        return ResolvedText(
            value: FormatPlaceholders.expandingOtherForms(of: format, variables: variables),
            plural: PluralFormat(format: format, variables: variables))
    }

    /// The argument a top-level plural variation selects by when it is not the first: the
    /// first numeric argument of the key's format (`%@ has %lld items` → 2), else, for a key
    /// that is no format (`cart.count`), of the `other` form. A string argument is never a
    /// count; `nil` means argument 1, as for a one-argument string.
    static func countArgument(key: String, otherForm: String) -> Int? {
        let keyKinds = FormatSpecifier.argumentKinds(of: FormatSpecifier.parse(key))
        let kinds = keyKinds.isEmpty ? FormatSpecifier.argumentKinds(of: FormatSpecifier.parse(otherForm)) : keyKinds
        let numeric = kinds.filter { $0.value == .integer || $0.value == .double }.keys.min()
        return numeric == 1 ? nil : numeric
    }

    private func substitution(
        _ object: JSONTapeValue,
        key: String,
        path: [String]
    ) throws(ResourceParseError) -> (PluralFormat.Variable, [String]) {
        let name = path.last!
        guard object.kind == .object else {
            throw failure(
                "\(context(key, path)): substitution \(quoted(name)) is \(describe(object)), expected an object",
                at: path)
        }
        var argumentNumber: Int?
        if let argNum = object["argNum"] {
            guard let number = argNum.integer, number >= 1 else {
                throw failure(
                    "\(context(key, path)): \"argNum\" of substitution \(quoted(name)) is \(describe(argNum)), expected a positive whole number",
                    at: path + ["argNum"])
            }
            argumentNumber = number
        }
        var formatSpecifier: String?
        if let written = object["formatSpecifier"] {
            guard let string = written.string else {
                throw failure(
                    "\(context(key, path)): \"formatSpecifier\" of substitution \(quoted(name)) is \(describe(written)), expected a string",
                    at: path + ["formatSpecifier"])
            }
            formatSpecifier = string
        }
        guard let plural = object["variations"]?["plural"] else {
            throw failure(
                "\(context(key, path)): substitution \(quoted(name)) has no \"variations\" with a \"plural\"",
                at: path)
        }
        var (forms, states) = try pluralForms(plural, key: key, path: path + ["variations", "plural"])
        // Xcode writes the count as `%arg` in a substitution's forms and fills in the
        // argument and specifier when it compiles; do the same, so forms are printf-ready.
        let conversion = "%" + (argumentNumber.map { "\($0)$" } ?? "") + (formatSpecifier ?? "lld")
        forms = forms.mapValues { $0.replacing("%arg", with: conversion) }
        let variable = PluralFormat.Variable(
            valueType: formatSpecifier ?? FormatPlaceholders.firstNumericValueType(in: forms[.other]!),
            forms: forms,
            argumentNumber: argumentNumber)
        return (variable, states)
    }

    /// A `plural` object's forms, each a `stringUnit`. Without `other`, the most general form
    /// stands in for it and a warning says so: Xcode compiles the variation into a
    /// `.stringsdict` variable, which Foundation serves the same way (``StringsDictReader``).
    private func pluralForms(
        _ written: JSONTapeValue,
        key: String,
        path: [String]
    ) throws(ResourceParseError) -> ([PluralCategory: String], [String]) {
        guard let byCategory = written.members else {
            throw failure(
                "\(context(key, path)): \"plural\" is \(describe(written)), expected an object of plural categories",
                at: path)
        }
        var forms: [PluralCategory: String] = [:]
        var states: [String] = []
        for (name, form) in byCategory.sorted(by: { $0.key < $1.key }) {
            guard let category = PluralCategory(rawValue: name) else {
                throw failure(
                    "\(context(key, path)): \(quoted(name)) is not a plural category (zero, one, two, few, many, other)",
                    at: path + [name])
            }
            guard let unit = form["stringUnit"] else {
                throw failure(
                    "\(context(key, path)): plural form \(quoted(name)) has no \"stringUnit\"",
                    at: path + [name])
            }
            let (value, state) = try stringUnit(unit, key: key, path: path + [name, "stringUnit"])
            forms[category] = value
            if let state { states.append(state) }
        }
        if forms[.other] == nil {
            guard let standIn = PluralFormat.Variable.otherStandIn(among: forms) else {
                throw failure("\(context(key, path)): the plural variation has no form at all", at: path)
            }
            forms[.other] = forms[standIn]
            var warning = failure(
                "\(context(key, path)): the plural variation has no \"other\" form; served from its forms, with \"\(standIn.rawValue)\" for other",
                at: path)
            warning.isEntryLost = false
            warnings.list.append(warning)
        }
        return (forms, states)
    }

    private func stringUnit(_ unit: JSONTapeValue, key: String, path: [String]) throws(ResourceParseError) -> (
        String, String?
    ) {
        guard unit.kind == .object else {
            throw failure("\(context(key, path)): \"stringUnit\" is \(describe(unit)), expected an object", at: path)
        }
        guard let value = unit["value"]?.string else {
            throw failure(
                "\(context(key, path)): \"stringUnit\" has \(describe(unit["value"])) as \"value\", expected a string",
                at: path)
        }
        var state: String?
        if let written = unit["state"] {
            guard let string = written.string else {
                throw failure(
                    "\(context(key, path)): \"state\" is \(describe(written)), expected a string",
                    at: path + ["state"])
            }
            state = string
        }
        return (value, state)
    }

    /// The least finished of `states`; `nil` when no unit gave one.
    private func summaryState(_ states: [String]) -> String? {
        let rank = ["new": 0, "needs_review": 1, "stale": 2, "translated": 4]
        return states.min { (rank[$0] ?? 3, $0) < (rank[$1] ?? 3, $1) }
    }

    /// `"KEY" (ja)`: names the key and, when known, the language, for messages.
    private func context(_ key: String, _ path: [String]) -> String {
        guard path.count >= 4, path[2] == "localizations" else { return quoted(key) }
        return "\(quoted(key)) (\(path[3]))"
    }

    private func quoted(_ text: String) -> String {
        "\"\(text)\""
    }

    /// Names a JSON value's kind for a message.
    private func describe(_ value: JSONTapeValue?) -> String {
        switch value?.kind {
        case nil: "missing"
        case .string: "a string"
        case .object: "an object"
        case .array: "an array"
        case .true, .false: "a boolean"
        case .null: "null"
        case .number: "a number"
        }
    }

    func failure(_ message: String, at path: [String]) -> ResourceParseError {
        let location =
            path.isEmpty
            ? SourceLocation(file: file, line: 1, column: 1)
            : KeyPathLocator(bytes: bytes, syntax: .json, file: file).location(of: path)
        return ResourceParseError(location: location, message: message)
    }
}
