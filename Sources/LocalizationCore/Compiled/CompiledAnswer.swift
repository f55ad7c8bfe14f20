/// One answer of compiled tables: spans of their buffer, valid while the buffer is.
///
/// A lookup through ``CompiledTables`` answers what ``ResourceCatalog/lookup(_:in:chain:count:counts:)``
/// answers for a one-language chain: the value (for a plural entry, its `other` forms), the
/// language that served it, and a plural entry's forms with the language whose rules pick them.
package struct CompiledAnswer {
    /// The value's UTF-8 bytes (followed in the buffer by a NUL byte, not part of the span).
    package let value: UnsafeRawBufferPointer
    /// The serving language's identifier, as UTF-8 bytes.
    package let language: UnsafeRawBufferPointer
    /// The plural forms, for a plural entry.
    package let plural: CompiledPlural?

    /// The value as a `String` (a copy).
    package var valueString: String { String(decoding: value, as: UTF8.self) }

    /// The serving language's identifier as a `String` (a copy).
    package var languageIdentifier: String { String(decoding: language, as: UTF8.self) }

    /// The value a lookup with `count` returns: a plural entry's format with each
    /// variable's form chosen by `count` under its rules' language; else ``valueString``.
    ///
    /// - Throws: ``CompiledTablesError/outOfBounds(_:)`` when the plural block is damaged.
    package func value(forCount count: PluralOperands) throws(CompiledTablesError) -> String {
        guard let plural else { return valueString }
        return try plural.format().resolved(.count(count), rules: plural.rules())
    }

    /// The value a lookup with `counts` (one per format argument) returns.
    package func value(forCounts counts: [PluralOperands?]) throws(CompiledTablesError) -> String {
        guard let plural else { return valueString }
        return try plural.format().resolved(.counts(counts), rules: plural.rules())
    }
}

/// A plural block of compiled tables: the format, its variables' forms, and the language
/// whose CLDR rules select them (the development language for `Base`).
package struct CompiledPlural {
    typealias Layout = CompiledTablesLayout

    private let bytes: CompiledBytes
    private let offset: Int
    /// The number of variables.
    package let variableCount: Int
    /// The format with its `%#@name@` variables, as UTF-8 bytes.
    package let formatString: UnsafeRawBufferPointer
    /// The identifier of the language whose rules select the forms.
    package let rulesLanguage: UnsafeRawBufferPointer

    /// The block at `offset` of `bytes`, its fixed part and variables checked to lie in the body.
    init(bytes: CompiledBytes, offset: UInt64) throws(CompiledTablesError) {
        let start = try bytes.range(offset, length: Layout.pluralHeaderSize, "a plural block")
        let count = Int(bytes.u32(start))
        guard count <= (bytes.buffer.count - start) / Layout.pluralVariableSize else {
            throw .outOfBounds("a plural block's \(count) variables")
        }
        _ = try bytes.range(
            offset, length: Layout.pluralHeaderSize + count * Layout.pluralVariableSize, "a plural block")
        self.bytes = bytes
        self.offset = start
        variableCount = count
        formatString = try bytes.string(at: start + 8)
        rulesLanguage = try bytes.string(at: start + 16)
    }

    /// The block as a ``PluralFormat`` (copies of its strings), for selecting forms.
    package func format() throws(CompiledTablesError) -> PluralFormat {
        var variables: [String: PluralFormat.Variable] = [:]
        for index in 0..<variableCount {
            let variable = offset + Layout.pluralHeaderSize + index * Layout.pluralVariableSize
            let name = String(decoding: try bytes.string(at: variable), as: UTF8.self)
            let valueType = try optionalString(at: variable + 8)
            let argument = Int32(bitPattern: bytes.u32(variable + 16))
            var forms: [PluralCategory: String] = [:]
            for (position, category) in Layout.pluralCategories.enumerated() {
                forms[category] = try optionalString(at: variable + 24 + position * Layout.stringReferenceSize)
            }
            variables[name] = PluralFormat.Variable(
                valueType: valueType, forms: forms,
                argumentNumber: argument == Layout.noArgumentNumber ? nil : Int(argument))
        }
        return PluralFormat(format: String(decoding: formatString, as: UTF8.self), variables: variables)
    }

    /// The CLDR rules of ``rulesLanguage``.
    package func rules() throws(CompiledTablesError) -> PluralRules {
        let identifier = String(decoding: rulesLanguage, as: UTF8.self)
        guard let tag = try? LanguageTag(identifier) else { throw .outOfBounds("the plural rules' language") }
        return .cldr(for: tag)
    }

    private func optionalString(at offset: Int) throws(CompiledTablesError) -> String? {
        if bytes.isAbsent(at: offset) { return nil }
        return String(decoding: try bytes.string(at: offset), as: UTF8.self)
    }
}
