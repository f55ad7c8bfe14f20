/// Where a string lies in the strings section: its offset and UTF-8 length in bytes.
struct CompiledStringReference: Hashable {
    var offset: UInt32
    var length: UInt32

    /// The reference of an absent optional string.
    static let absent = CompiledStringReference(
        offset: CompiledTablesLayout.absentString, length: CompiledTablesLayout.absentString)
}

/// The strings section while it is written: each distinct string once, as UTF-8 followed by
/// a NUL byte (not counted in its length), so a C reader can use a value as a C string.
struct CompiledStringPool {
    /// The section's bytes so far.
    private(set) var bytes: [UInt8] = []
    private var known: [String: CompiledStringReference] = [:]

    /// The reference of `string`, adding it when new.
    ///
    /// - Throws: ``CompiledTablesError/tooLarge(_:)`` past 4 GiB of strings.
    mutating func reference(_ string: String) throws(CompiledTablesError) -> CompiledStringReference {
        // Swift's `==` takes canonically equivalent strings as one ("Xóa" composed and
        // decomposed); the format keeps bytes, so a hit counts only when the bytes agree.
        if let reference = known[string], bytes(of: reference).elementsEqual(string.utf8) { return reference }
        let length = string.utf8.count
        guard bytes.count + length + 1 < Int(CompiledTablesLayout.absentString) else {
            throw .tooLarge("more than 4 GiB of strings")
        }
        let reference = CompiledStringReference(offset: UInt32(bytes.count), length: UInt32(length))
        bytes += string.utf8
        bytes.append(0)
        if known[string] == nil { known[string] = reference }
        return reference
    }

    private func bytes(of reference: CompiledStringReference) -> ArraySlice<UInt8> {
        bytes[Int(reference.offset)..<Int(reference.offset + reference.length)]
    }
}
