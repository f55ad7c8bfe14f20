extension CompiledTablesPlan {
    /// The tables as bytes, laid out as docs/FORMAT.md says: the header, the five sections,
    /// then each table's slots and keys, the answers and the plural blocks, every part
    /// starting at a multiple of 8; the checksums last, over the finished bytes.
    func encode(generation: UInt64) throws(CompiledTablesError) -> [UInt8] {
        typealias Layout = CompiledTablesLayout
        var out = CompiledByteWriter()
        out.zeros(Layout.headerLength)

        let stringsOffset = out.count
        out.bytes += strings.bytes
        out.align()
        let stringsLength = strings.bytes.count

        let languagesOffset = out.count
        for name in languageNames { out.reference(name) }
        let tablesOffset = out.count
        out.zeros(tables.count * Layout.tableEntrySize)  // filled in once the slots are placed
        let cellsOffset = out.count
        out.zeros(languages.count * tables.count * Layout.cellSize)
        let recordsOffset = out.count
        out.zeros(records.count * Layout.recordSize)  // filled in once the plural blocks are placed

        for (number, table) in tables.enumerated() {
            let slotCount = Self.slotCount(forKeys: table.keys.count)
            let slotsOffset = out.count
            out.bytes += Self.slots(hashes: table.indexHashes, references: table.indexReferences, count: slotCount)
            let keysOffset = out.count
            for reference in table.keyReferences { out.reference(reference) }
            var entry = CompiledByteWriter()
            entry.reference(table.name)
            entry.u32(UInt32(table.keys.count))
            entry.u32(UInt32(slotCount))
            entry.u64(UInt64(slotsOffset))
            entry.u64(UInt64(keysOffset))
            out.replace(at: tablesOffset + number * Layout.tableEntrySize, with: entry.bytes)
        }
        for (tableNumber, table) in tables.enumerated() {
            for (languageNumber, answers) in table.answers.enumerated() {
                guard let answers else { continue }
                let answersOffset = out.count
                for record in answers { out.u32(record) }
                out.align()
                var cell = CompiledByteWriter()
                cell.u64(UInt64(answersOffset))
                out.replace(
                    at: cellsOffset + (languageNumber * tables.count + tableNumber) * Layout.cellSize, with: cell.bytes)
            }
        }
        var pluralOffsets: [Int] = []
        for block in plurals {
            pluralOffsets.append(out.count)
            out.u32(UInt32(block.variables.count))
            out.u32(0)
            out.reference(block.format)
            out.reference(block.rulesLanguage)
            for variable in block.variables {
                out.reference(variable.name)
                out.reference(variable.valueType)
                out.u32(UInt32(bitPattern: variable.argumentNumber))
                out.u32(0)
                for form in variable.forms { out.reference(form) }
            }
        }
        var recordBytes = CompiledByteWriter()
        for record in records {
            recordBytes.reference(record.value)
            recordBytes.reference(record.language)
            recordBytes.u64(record.plural.map { UInt64(pluralOffsets[$0]) } ?? 0)
        }
        out.replace(at: recordsOffset, with: recordBytes.bytes)

        var header = CompiledByteWriter()
        header.bytes += Layout.magic
        header.u16(Layout.majorVersion)
        header.u16(Layout.minorVersion)
        header.u32(UInt32(Layout.headerLength))
        header.u64(generation)
        header.u64(UInt64(out.count))
        header.u32(0)  // the header's checksum, computed below with this field zero
        header.u32(
            out.bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[Layout.headerLength...])) })
        header.u32(UInt32(languages.count))
        header.u32(UInt32(tables.count))
        for (offset, length) in [
            (stringsOffset, stringsLength), (languagesOffset, languageNames.count * Layout.languageEntrySize),
            (tablesOffset, tables.count * Layout.tableEntrySize),
            (cellsOffset, languages.count * tables.count * Layout.cellSize),
            (recordsOffset, records.count * Layout.recordSize),
        ] {
            header.u64(UInt64(offset))
            header.u64(UInt64(length))
        }
        let headerChecksum = header.bytes.withUnsafeBytes { CRC32C.checksum($0) }
        var checksum = CompiledByteWriter()
        checksum.u32(headerChecksum)
        header.replace(at: Layout.Header.headerChecksum, with: checksum.bytes)
        out.replace(at: 0, with: header.bytes)
        return out.bytes
    }

    /// The slots of a table's key index: a power of two at least twice the keys, so a probe
    /// rarely passes more than one or two taken slots.
    static func slotCount(forKeys keys: Int) -> Int {
        var count = 2
        while count < 2 * keys { count *= 2 }
        return count
    }

    /// The key index of a table's keys, given by key number as their hashes and the string
    /// references of their canonical compositions: each key's number plus one, with the high
    /// half of its hash and the reference, at the first free slot from its hash's low bits
    /// (linear probing). The reference in the slot spares a probe the read of the keys array.
    static func slots(hashes: [UInt64], references: [CompiledStringReference], count: Int) -> [UInt8] {
        var slots = [(word: UInt64, key: CompiledStringReference)](repeating: (0, .absent), count: count)
        let mask = UInt64(count - 1)
        for (number, hash) in hashes.enumerated() {
            var slot = Int(hash & mask)
            while slots[slot].word != 0 { slot = (slot + 1) & Int(mask) }
            slots[slot] = ((hash >> 32) | (UInt64(number + 1) << 32), references[number])
        }
        var out = CompiledByteWriter()
        for slot in slots {
            out.u64(slot.word)
            out.reference(slot.word == 0 ? CompiledStringReference(offset: 0, length: 0) : slot.key)
        }
        return out.bytes
    }
}

/// Little-endian bytes, appended.
struct CompiledByteWriter {
    var bytes: [UInt8] = []

    var count: Int { bytes.count }

    mutating func u16(_ value: UInt16) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func u32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func u64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func reference(_ reference: CompiledStringReference) {
        u32(reference.offset)
        u32(reference.length)
    }

    mutating func zeros(_ count: Int) {
        bytes += repeatElement(0, count: count)
    }

    /// Pads with zeros to the next multiple of ``CompiledTablesLayout/alignment``.
    mutating func align() {
        zeros(
            (CompiledTablesLayout.alignment - bytes.count % CompiledTablesLayout.alignment)
                % CompiledTablesLayout.alignment)
    }

    mutating func replace(at offset: Int, with replacement: [UInt8]) {
        bytes.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
    }
}
