/// A segment before its bytes exist: the entries of one (language, table), merged from the
/// pieces its files give, and the segment's exact length.
///
/// Pieces are laid over one another in the order given (lowest precedence first): a key a
/// later piece has takes that piece's entry, keys compared by canonical equivalence as a
/// Swift dictionary compares them (the index holds each key's NFC form). A `.strings`
/// piece's keys and values are copied straight from its buffer: no `String` is made for an
/// entry unless its key is not ASCII and must be composed.
///
/// The plan knows the length before anything is written, so the caller gets the memory
/// first (``Segment/init(_:allocate:)``, or a mapping about to be sealed) and a failed
/// allocation is an error for this segment, not a trap.
///
/// ```swift
/// let plan = try SegmentPlan(language: "fr", table: "Localizable", pieces: [.strings(parsed)])
/// let segment = try Segment(plan)
/// ```
package struct SegmentPlan: Sendable {
    typealias Layout = SegmentLayout

    /// One distinct key: the piece and position whose entry wins, and its index hash.
    private struct Winner {
        var piece: Int32
        var position: Int32
        /// The hash of the key's NFC form.
        var hash: UInt64
        /// The position of the key's NFC form in ``composedKeys``, when it differs from the key.
        var composed: Int32
    }

    /// A ``SegmentPiece/table(_:)`` piece's entries, keys as UTF-8 spans, in the order of
    /// their keys' bytes.
    ///
    /// A table is a dictionary, whose order differs from one instance to the next: in that
    /// order, the same content read twice gave different bytes, so an unchanged file read
    /// again was a "changed" event and a new generation for every client.
    private struct EntryList {
        var keyBytes: [UInt8] = []
        var keySpans: [(start: Int, length: Int)] = []
        var entries: [TableEntry] = []

        init(sorting table: LocalizationTable) {
            var unsorted: [(key: String, entry: TableEntry)] = []
            unsorted.reserveCapacity(table.count)
            table.forEachEntry { unsorted.append(($0, $1)) }
            unsorted.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            entries.reserveCapacity(unsorted.count)
            keySpans.reserveCapacity(unsorted.count)
            for (key, entry) in unsorted {
                keySpans.append((keyBytes.count, key.utf8.count))
                keyBytes += key.utf8
                entries.append(entry)
            }
        }
    }

    /// The segment's language identifier and table name.
    package let language: String
    package let table: String
    private let pieces: [SegmentPiece]
    private let lists: [EntryList?]
    private let winners: [Winner]
    private let composedKeys: [[UInt8]]
    /// The strings section's length, and where each part of the segment starts.
    private let stringsLength: Int
    private let slotCount: Int
    private let slotsOffset: Int
    private let entriesOffset: Int
    private let pluralsOffset: Int
    /// The segment's length in bytes.
    package let byteCount: Int

    /// The number of distinct keys.
    package var keyCount: Int { winners.count }

    /// Merges `pieces` (lowest precedence first) into the entries of `language`'s `table`.
    ///
    /// - Throws: ``SegmentError/tooLarge(_:)`` past the format's 32-bit offsets.
    package init(language: String, table: String, pieces: [SegmentPiece]) throws(SegmentError) {
        self.language = language
        self.table = table
        self.pieces = pieces
        var lists: [EntryList?] = []
        for piece in pieces {
            guard case .table(let entries) = piece else {
                lists.append(nil)
                continue
            }
            lists.append(EntryList(sorting: entries))
        }
        self.lists = lists
        let candidates = pieces.reduce(0) { $0 + $1.entryCount }
        guard candidates < Int(Int32.max) else { throw .tooLarge("\(candidates) entries") }

        // Keys by their NFC bytes, later pieces and later duplicates replacing earlier ones.
        var winners: [Winner] = []
        winners.reserveCapacity(candidates)
        var composedKeys: [[UInt8]] = []
        let mask = Layout.slotCount(forKeys: candidates) - 1
        var index = [Int32](repeating: -1, count: mask + 1)
        for pieceNumber in pieces.indices {
            Self.forEachKey(of: pieces[pieceNumber], list: lists[pieceNumber]) { position, key in
                var winner = Winner(
                    piece: Int32(pieceNumber), position: Int32(position), hash: 0, composed: -1)
                let (hash, isASCII) = CompiledKeyHash.hash(key)
                winner.hash = hash
                if !isASCII, let text = String(validating: key, as: UTF8.self) {
                    let nfc = Array(text._nfcCodeUnits)
                    if !nfc.elementsEqual(key) {
                        winner.composed = Int32(composedKeys.count)
                        winner.hash = nfc.withUnsafeBytes { CompiledKeyHash.hash($0).hash }
                        composedKeys.append(nfc)
                    }
                }
                var slot = Int(truncatingIfNeeded: winner.hash) & mask
                while index[slot] >= 0 {
                    let known = Int(index[slot])
                    if winners[known].hash == winner.hash,
                        Self.sameKey(winners[known], winner, pieces, lists, composedKeys)
                    {
                        winners[known] = winner
                        return
                    }
                    slot = (slot + 1) & mask
                }
                index[slot] = Int32(winners.count)
                winners.append(winner)
            }
        }
        self.winners = winners
        self.composedKeys = composedKeys

        // The lengths, so the memory can be had before anything is written.
        var strings = language.utf8.count + 1 + table.utf8.count + 1
        var plurals = 0
        for winner in winners {
            strings += Self.key(of: winner, pieces, lists) { $0.count } + 1
            if winner.composed >= 0 { strings += composedKeys[Int(winner.composed)].count + 1 }
            switch pieces[Int(winner.piece)] {
            case .strings(let parsed):
                strings += Int(parsed.spans[Int(winner.position)].valueLength) + 1
            case .table:
                let entry = lists[Int(winner.piece)]!.entries[Int(winner.position)]
                strings += entry.value.utf8.count + 1
                if let plural = entry.plural {
                    plurals += Layout.pluralHeaderSize + plural.variables.count * Layout.pluralVariableSize
                    strings += plural.format.utf8.count + 1
                    for (name, variable) in plural.variables {
                        strings += name.utf8.count + 1 + (variable.valueType.map { $0.utf8.count + 1 } ?? 0)
                        if let number = variable.argumentNumber,
                            Int32(exactly: number) == nil || number == Int(Layout.noArgumentNumber)
                        {
                            throw .tooLarge("argument number \(number)")
                        }
                        for form in variable.forms.values { strings += form.utf8.count + 1 }
                    }
                }
            }
        }
        guard strings < Int(Layout.absentString) else { throw .tooLarge("\(strings) bytes of strings") }
        stringsLength = strings
        slotCount = Layout.slotCount(forKeys: winners.count)
        slotsOffset = Layout.headerLength + Layout.aligned(strings)
        entriesOffset = slotsOffset + slotCount * Layout.slotSize
        pluralsOffset = entriesOffset + winners.count * Layout.entrySize
        byteCount = pluralsOffset + plurals
        guard byteCount <= Int(UInt32.max) else { throw .tooLarge("\(byteCount) bytes") }
    }

    /// Calls `body` with the position and UTF-8 key of each entry `piece` gives, in order.
    private static func forEachKey(
        of piece: SegmentPiece, list: EntryList?, _ body: (Int, UnsafeRawBufferPointer) -> Void
    ) {
        switch piece {
        case .strings(let parsed):
            parsed.buffer.withUnsafeBytes { buffer in
                for (position, span) in parsed.spans.enumerated() {
                    body(
                        position,
                        UnsafeRawBufferPointer(
                            rebasing: buffer[Int(span.keyStart)..<Int(span.keyStart + span.keyLength)]))
                }
            }
        case .table:
            list!.keyBytes.withUnsafeBytes { buffer in
                for (position, span) in list!.keySpans.enumerated() {
                    body(position, UnsafeRawBufferPointer(rebasing: buffer[span.start..<(span.start + span.length)]))
                }
            }
        }
    }

    /// Calls `body` with `winner`'s key as its piece spells it.
    private static func key<Result>(
        of winner: Winner, _ pieces: [SegmentPiece], _ lists: [EntryList?], _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        let position = Int(winner.position)
        switch pieces[Int(winner.piece)] {
        case .strings(let parsed):
            let span = parsed.spans[position]
            return parsed.buffer.withUnsafeBytes {
                body(UnsafeRawBufferPointer(rebasing: $0[Int(span.keyStart)..<Int(span.keyStart + span.keyLength)]))
            }
        case .table:
            let list = lists[Int(winner.piece)]!
            let span = list.keySpans[position]
            return list.keyBytes.withUnsafeBytes {
                body(UnsafeRawBufferPointer(rebasing: $0[span.start..<(span.start + span.length)]))
            }
        }
    }

    /// Whether two keys have the same NFC form (the index's keys).
    private static func sameKey(
        _ lhs: Winner, _ rhs: Winner, _ pieces: [SegmentPiece], _ lists: [EntryList?], _ composedKeys: [[UInt8]]
    ) -> Bool {
        nfcKey(of: lhs, pieces, lists, composedKeys) { left in
            nfcKey(of: rhs, pieces, lists, composedKeys) { left.elementsEqual($0) }
        }
    }

    /// Calls `body` with `winner`'s key in NFC, the form the index holds.
    private static func nfcKey<Result>(
        of winner: Winner, _ pieces: [SegmentPiece], _ lists: [EntryList?], _ composedKeys: [[UInt8]],
        _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        guard winner.composed >= 0 else { return key(of: winner, pieces, lists, body) }
        return composedKeys[Int(winner.composed)].withUnsafeBytes(body)
    }

    /// Writes the segment into the first ``byteCount`` bytes of `buffer`, checksums last.
    ///
    /// - Throws: ``SegmentError/bufferTooSmall(needed:available:)``.
    package func write(into buffer: UnsafeMutableRawBufferPointer) throws(SegmentError) {
        guard buffer.count >= byteCount, let base = buffer.baseAddress else {
            throw .bufferTooSmall(needed: byteCount, available: buffer.count)
        }
        var out = SegmentOutput(base: base, stringsOffset: Layout.headerLength)
        out.zero(0, byteCount)
        let languageReference = out.string(language)
        let tableReference = out.string(table)
        var pluralCursor = pluralsOffset
        for (number, winner) in winners.enumerated() {
            let key = Self.key(of: winner, pieces, lists) { out.string($0) }
            let indexed =
                winner.composed >= 0 ? composedKeys[Int(winner.composed)].withUnsafeBytes { out.string($0) } : key
            let entry = entriesOffset + number * Layout.entrySize
            out.reference(key, at: entry)
            switch pieces[Int(winner.piece)] {
            case .strings(let parsed):
                let span = parsed.spans[Int(winner.position)]
                let value = parsed.buffer.withUnsafeBytes {
                    out.string(
                        UnsafeRawBufferPointer(
                            rebasing: $0[Int(span.valueStart)..<Int(span.valueStart + span.valueLength)]))
                }
                out.reference(value, at: entry + 8)
            case .table:
                let tableEntry = lists[Int(winner.piece)]!.entries[Int(winner.position)]
                out.reference(out.string(tableEntry.value), at: entry + 8)
                if let plural = tableEntry.plural {
                    out.u32(UInt32(pluralCursor), at: entry + 16)
                    pluralCursor = out.plural(plural, at: pluralCursor)
                }
                if tableEntry.isSourceKeyStandIn { out.u32(Layout.sourceKeyStandIn, at: entry + 20) }
            }
            // The slot: linear probing from the hash's low bits, as the reader probes.
            let mask = slotCount - 1
            var slot = Int(truncatingIfNeeded: winner.hash) & mask
            while out.u64(slotsOffset + slot * Layout.slotSize) != 0 { slot = (slot + 1) & mask }
            let word = (winner.hash >> 32) | (UInt64(number + 1) << 32)
            out.u64(word, at: slotsOffset + slot * Layout.slotSize)
            out.reference(indexed, at: slotsOffset + slot * Layout.slotSize + 8)
        }
        precondition(out.stringsCursor == Layout.headerLength + stringsLength && pluralCursor == byteCount)

        out.bytes(Layout.magic, at: Layout.Header.magic)
        out.u16(Layout.majorVersion, at: Layout.Header.majorVersion)
        out.u16(Layout.minorVersion, at: Layout.Header.minorVersion)
        out.u32(UInt32(Layout.headerLength), at: Layout.Header.headerLength)
        out.u64(UInt64(byteCount), at: Layout.Header.totalLength)
        out.u32(UInt32(winners.count), at: Layout.Header.keyCount)
        out.u32(UInt32(slotCount), at: Layout.Header.slotCount)
        out.u64(UInt64(Layout.headerLength), at: Layout.Header.strings)
        out.u64(UInt64(stringsLength), at: Layout.Header.strings + 8)
        out.u64(UInt64(slotsOffset), at: Layout.Header.slotsOffset)
        out.u64(UInt64(entriesOffset), at: Layout.Header.entriesOffset)
        out.reference(languageReference, at: Layout.Header.language)
        out.reference(tableReference, at: Layout.Header.table)
        let body = UnsafeRawBufferPointer(start: base + Layout.headerLength, count: byteCount - Layout.headerLength)
        out.u32(CRC32C.checksum(body), at: Layout.Header.bodyChecksum)
        let header = UnsafeRawBufferPointer(start: base, count: Layout.headerLength)
        out.u32(SegmentReader.headerChecksum(header), at: Layout.Header.headerChecksum)
    }
}

/// Little-endian stores into a segment's memory, and its strings section as it fills.
private struct SegmentOutput {
    typealias Layout = SegmentLayout

    let base: UnsafeMutableRawPointer
    let stringsOffset: Int
    /// Where the next string goes.
    var stringsCursor: Int

    init(base: UnsafeMutableRawPointer, stringsOffset: Int) {
        self.base = base
        self.stringsOffset = stringsOffset
        stringsCursor = stringsOffset
    }

    func zero(_ offset: Int, _ count: Int) {
        (base + offset).initializeMemory(as: UInt8.self, repeating: 0, count: count)
    }

    /// Appends `bytes` and a NUL to the strings section; their reference.
    mutating func string(_ bytes: UnsafeRawBufferPointer) -> (UInt32, UInt32) {
        let reference = (UInt32(stringsCursor - stringsOffset), UInt32(bytes.count))
        if let source = bytes.baseAddress { (base + stringsCursor).copyMemory(from: source, byteCount: bytes.count) }
        stringsCursor += bytes.count + 1  // the NUL is already there: the memory was zeroed
        return reference
    }

    mutating func string(_ text: String) -> (UInt32, UInt32) {
        var text = text
        return text.withUTF8 { string(UnsafeRawBufferPointer($0)) }
    }

    /// Writes the plural block of `plural` at `offset`; the offset after it.
    mutating func plural(_ plural: PluralFormat, at offset: Int) -> Int {
        u32(UInt32(plural.variables.count), at: offset)
        reference(string(plural.format), at: offset + 8)
        var variable = offset + Layout.pluralHeaderSize
        for name in plural.variables.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let content = plural.variables[name]!
            reference(string(name), at: variable)
            reference(content.valueType.map { string($0) } ?? Self.absent, at: variable + 8)
            let argument = content.argumentNumber.flatMap { Int32(exactly: $0) } ?? Layout.noArgumentNumber
            u32(UInt32(bitPattern: argument), at: variable + 16)
            for (position, category) in Layout.pluralCategories.enumerated() {
                reference(
                    content.forms[category].map { string($0) } ?? Self.absent,
                    at: variable + 24 + position * Layout.stringReferenceSize)
            }
            variable += Layout.pluralVariableSize
        }
        return variable
    }

    static let absent = (Layout.absentString, Layout.absentString)

    func reference(_ reference: (UInt32, UInt32), at offset: Int) {
        u32(reference.0, at: offset)
        u32(reference.1, at: offset + 4)
    }

    func bytes(_ bytes: [UInt8], at offset: Int) {
        bytes.withUnsafeBytes { (base + offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }

    func u16(_ value: UInt16, at offset: Int) { (base + offset).storeBytes(of: value.littleEndian, as: UInt16.self) }
    func u32(_ value: UInt32, at offset: Int) { (base + offset).storeBytes(of: value.littleEndian, as: UInt32.self) }
    func u64(_ value: UInt64, at offset: Int) { (base + offset).storeBytes(of: value.littleEndian, as: UInt64.self) }
    func u64(_ offset: Int) -> UInt64 { UInt64(littleEndian: (base + offset).loadUnaligned(as: UInt64.self)) }
}
