import Glibc

/// One compiled segment read in place (docs/FORMAT.md, version 3): a lookup hashes the key,
/// probes the key index and returns the entry's number; the entry's value and plural block
/// are read as spans of the buffer.
///
/// Opening checks the header, the checksums and where every section lies; each read checks
/// every offset it follows. Damaged or foreign bytes give a ``SegmentError``, never a read
/// outside the buffer, a trap or an endless probe.
///
/// The reader does not own its bytes: the buffer (a ``Segment``'s memory, a sealed mapping)
/// must outlive it and everything read from it, and must not change meanwhile.
///
/// ```swift
/// let reader = try SegmentReader(buffer)
/// if let number = try reader.entryNumber(of: "Open") {
///     String(decoding: try reader.value(of: number), as: UTF8.self)   // "Ouvrir"
/// }
/// ```
package struct SegmentReader: @unchecked Sendable {
    // @unchecked: the buffer is immutable by contract (a segment's own memory, a sealed memfd).
    typealias Layout = SegmentLayout

    /// The segment's bytes, cut to the length its header states.
    package let buffer: UnsafeRawBufferPointer
    /// The number of entries (distinct keys).
    package let keyCount: Int
    private let slotMask: Int
    private let slotsOffset: Int
    private let entriesOffset: Int
    private let stringsOffset: Int
    private let stringsLength: Int
    /// The language identifier the segment says it holds (`fr`, `Base`), as UTF-8 bytes.
    package private(set) var languageBytes: UnsafeRawBufferPointer
    /// The table name the segment says it holds (`Localizable`), as UTF-8 bytes.
    package private(set) var tableBytes: UnsafeRawBufferPointer

    /// Opens the segment in `buffer`, which may be longer than it is (a mapping rounded up
    /// to pages). With `verifyingChecksums` (the default) the body's CRC-32C is computed
    /// too, a pass over every byte; the header's always is.
    ///
    /// - Throws: ``SegmentError`` when the bytes are not a whole, undamaged segment of a
    ///   version this reader knows.
    package init(_ buffer: UnsafeRawBufferPointer, verifyingChecksums: Bool = true) throws(SegmentError) {
        guard buffer.count >= Layout.headerLength, let base = buffer.baseAddress else {
            throw .truncated(expected: Layout.headerLength, actual: buffer.count)
        }
        guard Layout.magic.withUnsafeBytes({ memcmp(base, $0.baseAddress!, 8) == 0 }) else { throw .badMagic }
        let whole = buffer
        func u16(_ offset: Int) -> UInt16 {
            UInt16(littleEndian: whole.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
        }
        func u32(_ offset: Int) -> UInt32 {
            UInt32(littleEndian: whole.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        func u64(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: whole.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        let major = u16(Layout.Header.majorVersion)
        guard major == Layout.majorVersion else {
            throw .unsupportedVersion(major: major, minor: u16(Layout.Header.minorVersion))
        }
        let totalLength = u64(Layout.Header.totalLength)
        guard totalLength <= UInt64(buffer.count) else {
            throw .truncated(expected: Int(clamping: totalLength), actual: buffer.count)
        }
        let end = Int(totalLength)
        let headerLength = Int(u32(Layout.Header.headerLength))
        guard headerLength >= Layout.headerLength, headerLength <= end, headerLength % Layout.alignment == 0 else {
            throw .outOfBounds("the header length \(headerLength)")
        }
        let stored = u32(Layout.Header.headerChecksum)
        let computed = Self.headerChecksum(UnsafeRawBufferPointer(rebasing: whole[0..<headerLength]))
        guard computed == stored else { throw .checksumMismatch(part: "header", stored: stored, computed: computed) }
        if verifyingChecksums {
            let stored = u32(Layout.Header.bodyChecksum)
            let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: whole[headerLength..<end]))
            guard computed == stored else { throw .checksumMismatch(part: "body", stored: stored, computed: computed) }
        }
        /// The start of `length` bytes at `offset`, after checking they lie in the body.
        func range(_ offset: UInt64, length: UInt64, _ what: String) throws(SegmentError) -> Int {
            guard offset >= UInt64(headerLength), offset <= UInt64(end), length <= UInt64(end) - offset else {
                throw .outOfBounds(what)
            }
            return Int(offset)
        }
        let keyCount = Int(u32(Layout.Header.keyCount))
        let slotCount = Int(u32(Layout.Header.slotCount))
        guard slotCount > 0, slotCount & (slotCount - 1) == 0, keyCount <= slotCount else {
            throw .outOfBounds("the slot count \(slotCount) for \(keyCount) keys")
        }
        stringsLength = Int(clamping: u64(Layout.Header.strings + 8))
        stringsOffset = try range(u64(Layout.Header.strings), length: UInt64(stringsLength), "the strings section")
        slotsOffset = try range(
            u64(Layout.Header.slotsOffset), length: UInt64(slotCount * Layout.slotSize), "the key index")
        entriesOffset = try range(
            u64(Layout.Header.entriesOffset), length: UInt64(keyCount * Layout.entrySize), "the entries")
        self.buffer = UnsafeRawBufferPointer(rebasing: whole[0..<end])
        self.keyCount = keyCount
        slotMask = slotCount - 1
        languageBytes = UnsafeRawBufferPointer(start: nil, count: 0)
        tableBytes = languageBytes
        languageBytes = try string(at: Layout.Header.language)
        tableBytes = try string(at: Layout.Header.table)
    }

    /// The CRC-32C of `header` with its checksum field taken as zero.
    static func headerChecksum(_ header: UnsafeRawBufferPointer) -> UInt32 {
        let field = Layout.Header.headerChecksum
        var crc = CRC32C.update(0xFFFF_FFFF, UnsafeRawBufferPointer(rebasing: header[0..<field]))
        crc = withUnsafeBytes(of: UInt32(0)) { CRC32C.update(crc, $0) }
        return ~CRC32C.update(crc, UnsafeRawBufferPointer(rebasing: header[(field + 4)...]))
    }

    /// The number of the entry whose key is canonically equivalent to `key` (UTF-8 bytes):
    /// its bytes as given, else (when they are not ASCII) its canonical composition (NFC),
    /// which the index holds. `nil` when the segment lacks the key.
    ///
    /// - Throws: ``SegmentError/outOfBounds(_:)`` when the index is damaged.
    @inline(__always)
    package func entryNumber(of key: UnsafeRawBufferPointer) throws(SegmentError) -> Int? {
        try entryNumber(of: key, hashed: CompiledKeyHash.hash(key))
    }

    /// ``entryNumber(of:)`` with the key's ``CompiledKeyHash`` already computed: a lookup
    /// along a chain hashes its key once for every segment it probes.
    @inline(__always)
    package func entryNumber(of key: UnsafeRawBufferPointer, hashed: (hash: UInt64, isASCII: Bool))
        throws(SegmentError) -> Int?
    {
        let (hash, isASCII) = hashed
        if let number = try probe(key, hash: hash) { return number }
        return isASCII ? nil : try canonicalEntryNumber(of: key)
    }

    /// ``entryNumber(of:)`` for a key given as a `String`.
    package func entryNumber(of key: String) throws(SegmentError) -> Int? {
        var key = key
        return try key.withUTF8 { bytes in
            Result { () throws(SegmentError) in try entryNumber(of: UnsafeRawBufferPointer(bytes)) }
        }.get()
    }

    /// The entry canonically equivalent to `key`, which missed as given: the miss is final
    /// when `key` is in NFC already (or is not UTF-8).
    @inline(never)
    private func canonicalEntryNumber(of key: UnsafeRawBufferPointer) throws(SegmentError) -> Int? {
        guard let text = String(validating: key, as: UTF8.self) else { return nil }
        // The stdlib's own composition: the one Swift's `==` compares keys by.
        let composed = text._nfcCodeUnits
        if composed.elementsEqual(key) { return nil }
        return try composed.withUnsafeBytes { bytes in
            Result { () throws(SegmentError) in try probe(bytes, hash: CompiledKeyHash.hash(bytes).hash) }
        }.get()
    }

    /// Linear probing from `hash`'s low bits: the number of the entry whose NFC key is `key`.
    @inline(__always)
    private func probe(_ key: UnsafeRawBufferPointer, hash: UInt64) throws(SegmentError) -> Int? {
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        var slot = Int(truncatingIfNeeded: hash) & slotMask
        // At most one pass over the slots: damaged slots with no empty one must not loop forever.
        for _ in 0...slotMask {
            let offset = slotsOffset + slot * Layout.slotSize
            let word = u64(offset)
            let number = Int(word >> 32)
            if number == 0 { return nil }
            if UInt32(truncatingIfNeeded: word) == tag {
                guard number <= keyCount else { throw .outOfBounds("entry number \(number - 1)") }
                let stored = try string(at: offset + 8)
                if stored.count == key.count,
                    key.isEmpty || memcmp(stored.baseAddress!, key.baseAddress!, key.count) == 0
                {
                    return number - 1
                }
            }
            slot = (slot + 1) & slotMask
        }
        return nil
    }

    /// The key of entry `number` as the files spell it, as UTF-8 bytes.
    package func key(of number: Int) throws(SegmentError) -> UnsafeRawBufferPointer {
        try string(at: entryOffset(number))
    }

    /// The value of entry `number` (a plural entry's `other` forms), as UTF-8 bytes.
    package func value(of number: Int) throws(SegmentError) -> UnsafeRawBufferPointer {
        try string(at: entryOffset(number) + 8)
    }

    /// Whether entry `number` is a String Catalog's key-made source entry, which no lookup
    /// answers with (``TableEntry/isSourceKeyStandIn``).
    package func isSourceKeyStandIn(_ number: Int) throws(SegmentError) -> Bool {
        u32(try entryOffset(number) + 20) & Layout.sourceKeyStandIn != 0
    }

    /// Entry `number`'s plural forms; `nil` for a plain entry.
    ///
    /// - Throws: ``SegmentError/outOfBounds(_:)`` when the plural block is damaged.
    package func plural(of number: Int) throws(SegmentError) -> PluralFormat? {
        let offset = u32(try entryOffset(number) + 16)
        guard offset != 0 else { return nil }
        guard UInt64(offset) >= UInt64(Layout.headerLength), Int(offset) <= buffer.count - Layout.pluralHeaderSize
        else { throw .outOfBounds("a plural block") }
        let start = Int(offset)
        let count = Int(u32(start))
        guard count <= (buffer.count - start - Layout.pluralHeaderSize) / Layout.pluralVariableSize else {
            throw .outOfBounds("a plural block's \(count) variables")
        }
        var variables: [String: PluralFormat.Variable] = [:]
        for index in 0..<count {
            let variable = start + Layout.pluralHeaderSize + index * Layout.pluralVariableSize
            let name = String(decoding: try string(at: variable), as: UTF8.self)
            let argument = Int32(bitPattern: u32(variable + 16))
            var forms: [PluralCategory: String] = [:]
            for (position, category) in Layout.pluralCategories.enumerated() {
                forms[category] = try optionalString(at: variable + 24 + position * Layout.stringReferenceSize)
            }
            variables[name] = PluralFormat.Variable(
                valueType: try optionalString(at: variable + 8), forms: forms,
                argumentNumber: argument == Layout.noArgumentNumber ? nil : Int(argument))
        }
        return PluralFormat(format: String(decoding: try string(at: start + 8), as: UTF8.self), variables: variables)
    }

    /// Entry `number` as a ``TableEntry``: its value and plural forms (copies).
    package func entry(_ number: Int) throws(SegmentError) -> TableEntry {
        var entry = TableEntry(
            value: String(decoding: try value(of: number), as: UTF8.self), plural: try plural(of: number))
        entry.isSourceKeyStandIn = try isSourceKeyStandIn(number)
        return entry
    }

    /// The offset of entry `number`, checked to be one of the entries.
    @inline(__always)
    private func entryOffset(_ number: Int) throws(SegmentError) -> Int {
        guard number >= 0, number < keyCount else { throw .outOfBounds("entry number \(number)") }
        return entriesOffset + number * Layout.entrySize
    }

    /// The string whose reference is at `offset` (which the caller has bounds-checked), as a
    /// span of the strings section.
    @inline(__always)
    private func string(at offset: Int) throws(SegmentError) -> UnsafeRawBufferPointer {
        let start = Int(u32(offset))
        let length = Int(u32(offset + 4))
        guard start <= stringsLength, length <= stringsLength - start else {
            throw .outOfBounds("the string at \(offset)")
        }
        return UnsafeRawBufferPointer(start: buffer.baseAddress.map { $0 + stringsOffset + start }, count: length)
    }

    /// The string at `offset`, or `nil` for the absent reference.
    private func optionalString(at offset: Int) throws(SegmentError) -> String? {
        if u32(offset) == Layout.absentString && u32(offset + 4) == Layout.absentString { return nil }
        return String(decoding: try string(at: offset), as: UTF8.self)
    }

    @inline(__always) private func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always) private func u64(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
