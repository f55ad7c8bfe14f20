import Glibc

extension CompiledTables {
    /// Where lookups of one language in one table read: the table's key index and the
    /// language's answers, their offsets checked once when the place is made.
    ///
    /// Holds no reference (copying it retains nothing) and is valid while the buffer is: a
    /// caller that looks up many keys in one place (a thread's last table) keeps it and pays
    /// per lookup only the probe, the answer and the record.
    package struct Place: @unchecked Sendable {
        // @unchecked: spans of a buffer nobody changes, as CompiledTables'.
        let bytes: CompiledBytes
        let table: Table
        /// The offset of the language's answers for the table; 0 when it answers none of its keys.
        let answersOffset: Int
        let recordsOffset: Int
        let recordCount: Int

        init(bytes: CompiledBytes, table: Table, answersOffset: Int, recordsOffset: Int, recordCount: Int) {
            self.bytes = bytes
            self.table = table
            self.answersOffset = answersOffset
            self.recordsOffset = recordsOffset
            self.recordCount = recordCount
        }

        /// The answer for `key`: `nil` when the language does not answer it.
        ///
        /// - Throws: ``CompiledTablesError/outOfBounds(_:)`` when an offset on the way is damaged.
        package func answer(_ key: UnsafeRawBufferPointer) throws(CompiledTablesError) -> CompiledAnswer? {
            guard let record = try recordOffset(of: key) else { return nil }
            let value = try bytes.string(at: record)
            let answeredBy = try bytes.string(at: record + 8)
            let pluralOffset = bytes.u64(record + 16)
            let plural = pluralOffset == 0 ? nil : try CompiledPlural(bytes: bytes, offset: pluralOffset)
            return CompiledAnswer(value: value, language: answeredBy, plural: plural)
        }

        /// ``answer(_:)`` for a key given as a `String`.
        package func answer(_ key: String) throws(CompiledTablesError) -> CompiledAnswer? {
            try Self.withUTF8(of: key) { bytes throws(CompiledTablesError) in try answer(bytes) }
        }

        /// `key`'s value as a new `String`, what a lookup without counts returns: `nil` when
        /// the language does not answer `key` or the bytes on the way are damaged. The hot
        /// path of mapped mode: no answer is built, nothing is retained.
        @inline(__always)
        package func value(_ key: String) -> String? {
            recordNumber(key).flatMap(value(ofRecord:))
        }

        /// The number of the record answering `key` (checked to be one of the records):
        /// `nil` when the language does not answer `key` or the bytes on the way are damaged.
        /// Records are numbered per buffer, shared by every place of it: a cache of values
        /// by record number serves every language and table of one generation.
        @inline(__always)
        package func recordNumber(_ key: String) -> UInt32? {
            // Errors become nil inside: nothing but a trivial value crosses the closure.
            let number = key.utf8.withContiguousStorageIfAvailable { bytes in
                try? recordNumber(of: UnsafeRawBufferPointer(bytes))
            }
            if let number { return number }
            return Array(key.utf8).withUnsafeBytes { try? recordNumber(of: $0) }
        }

        /// The value of record `number`, one ``recordNumber(_:)`` gave, as a new `String`;
        /// `nil` when its reference is damaged.
        @inline(__always)
        package func value(ofRecord number: UInt32) -> String? {
            guard Int(number) < recordCount,
                let span = bytes.optionalString(at: recordsOffset + Int(number) * Layout.recordSize)
            else { return nil }
            return String(decoding: span, as: UTF8.self)
        }

        /// The offset of the record answering `key`, checked to lie in the records section.
        @inline(__always)
        private func recordOffset(of key: UnsafeRawBufferPointer) throws(CompiledTablesError) -> Int? {
            guard let record = try recordNumber(of: key) else { return nil }
            return recordsOffset + Int(record) * Layout.recordSize
        }

        /// The number of the record answering `key`, checked to be below the record count.
        @inline(__always)
        private func recordNumber(of key: UnsafeRawBufferPointer) throws(CompiledTablesError) -> UInt32? {
            guard answersOffset != 0, let number = try keyNumber(of: key) else { return nil }
            let record = bytes.u32(answersOffset + number * Layout.answerSize)
            if record == Layout.noRecord { return nil }
            guard Int(record) < recordCount else { throw .outOfBounds("record \(record)") }
            return record
        }

        /// The number of `key` in the table's index: its bytes as given, else (when they are
        /// not ASCII) its canonical composition (NFC), which the index holds.
        @inline(__always)
        func keyNumber(of key: UnsafeRawBufferPointer) throws(CompiledTablesError) -> Int? {
            let (hash, isASCII) = CompiledKeyHash.hash(key)
            if let number = try probe(key, hash: hash) { return number }
            return isASCII ? nil : try canonicalKeyNumber(of: key)
        }

        /// The number of the index's key canonically equivalent to `key`, which missed as
        /// given: the miss is final when `key` is in NFC already (or is not UTF-8).
        @inline(never)
        private func canonicalKeyNumber(of key: UnsafeRawBufferPointer) throws(CompiledTablesError) -> Int? {
            guard let text = String(validating: key, as: UTF8.self) else { return nil }
            // The stdlib's own composition: the one Swift's `==`, and so the catalog's
            // dictionaries, compare keys by.
            let composed = text._nfcCodeUnits
            if composed.elementsEqual(key) { return nil }
            return try composed.withUnsafeBytes { bytes in
                Result { () throws(CompiledTablesError) in try probe(bytes, hash: CompiledKeyHash.hash(bytes).hash) }
            }.get()
        }

        /// Linear probing from `hash`'s low bits: the number of the key whose bytes are `key`'s.
        @inline(__always)
        private func probe(_ key: UnsafeRawBufferPointer, hash: UInt64) throws(CompiledTablesError) -> Int? {
            let tag = UInt32(truncatingIfNeeded: hash >> 32)
            var slot = Int(truncatingIfNeeded: hash) & table.slotMask
            // At most one pass over the slots: damaged slots with no empty one must not loop forever.
            for _ in 0...table.slotMask {
                let offset = table.slotsOffset + slot * Layout.slotSize
                let word = bytes.u64(offset)
                let number = Int(word >> 32)
                if number == 0 { return nil }
                if UInt32(truncatingIfNeeded: word) == tag {
                    guard number <= table.keyCount else { throw .outOfBounds("key number \(number - 1)") }
                    let stored = try bytes.string(at: offset + 8)
                    if stored.count == key.count,
                        key.isEmpty || memcmp(stored.baseAddress!, key.baseAddress!, key.count) == 0
                    {
                        return number - 1
                    }
                }
                slot = (slot + 1) & table.slotMask
            }
            return nil
        }

        /// Calls `body` with `key`'s UTF-8 bytes: in place for a native string, no copy.
        @inline(__always)
        private static func withUTF8<Result>(
            of key: String, _ body: (UnsafeRawBufferPointer) throws(CompiledTablesError) -> Result
        ) throws(CompiledTablesError) -> Result {
            // withContiguousStorageIfAvailable rethrows untyped: the error rides out in a
            // variable, so that only the (trivial) answer crosses the closure; a Result would
            // be copied and destroyed through its error's value witnesses on every lookup.
            var thrown: CompiledTablesError?
            let result = key.utf8.withContiguousStorageIfAvailable { bytes -> Result? in
                do throws(CompiledTablesError) { return try body(UnsafeRawBufferPointer(bytes)) } catch {
                    thrown = error
                    return nil
                }
            }
            if let thrown { throw thrown }
            if let result, let result { return result }
            return try Array(key.utf8).withUnsafeBytes { bytes -> Swift.Result<Result, CompiledTablesError> in
                Swift.Result { () throws(CompiledTablesError) in try body(bytes) }
            }.get()
        }
    }
}
