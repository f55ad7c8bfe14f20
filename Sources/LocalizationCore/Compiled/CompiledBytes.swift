/// The bytes of compiled tables and the checked reads of them that every part shares: the
/// reader, its answers and their plural blocks. Holds no reference, so copying it into an
/// answer costs no retain.
struct CompiledBytes {
    typealias Layout = CompiledTablesLayout

    /// The tables' bytes, cut to the length the header states.
    let buffer: UnsafeRawBufferPointer
    /// Where the strings section starts, and its length.
    let stringsOffset: Int
    let stringsLength: Int

    /// The string whose reference is at `offset` (which the caller has bounds-checked),
    /// as a span of the strings section.
    func string(at offset: Int) throws(CompiledTablesError) -> UnsafeRawBufferPointer {
        guard let span = optionalString(at: offset) else { throw .outOfBounds("the string at \(offset)") }
        return span
    }

    /// The string whose reference is at `offset`; `nil` for the absent reference or one
    /// outside the strings section (the caller tells the two apart with ``isAbsent(at:)``).
    func optionalString(at offset: Int) -> UnsafeRawBufferPointer? {
        let start = Int(u32(offset))
        let length = Int(u32(offset + 4))
        guard start <= stringsLength, length <= stringsLength - start else { return nil }
        return UnsafeRawBufferPointer(
            start: buffer.baseAddress.map { $0 + stringsOffset + start }, count: length)
    }

    /// Whether the reference at `offset` is the absent string's.
    func isAbsent(at offset: Int) -> Bool {
        u32(offset) == Layout.absentString && u32(offset + 4) == Layout.absentString
    }

    /// The start of `length` bytes at `offset`, after checking they lie in the body.
    func range(_ offset: UInt64, length: Int, _ what: String) throws(CompiledTablesError) -> Int {
        guard offset >= UInt64(Layout.headerLength), offset <= UInt64(buffer.count),
            UInt64(length) <= UInt64(buffer.count) - offset
        else { throw .outOfBounds(what) }
        return Int(offset)
    }

    /// The `UInt32` at `offset`, which the caller has bounds-checked.
    @inline(__always) func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The `UInt64` at `offset`, which the caller has bounds-checked.
    @inline(__always) func u64(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
