import Glibc

/// One compiled segment in memory of its own: the entries of one language's table, built
/// once and never changed (docs/FORMAT.md, version 3).
///
/// A segment is shared, never copied: a ``SegmentSet`` that replaces another (language,
/// table) keeps this one as it is. Its bytes are what a daemon hands out and what a reader
/// in any process maps.
///
/// ```swift
/// let segment = try Segment(SegmentPlan(language: "fr", table: "Localizable", pieces: [.strings(parsed)]))
/// try segment.reader.entryNumber(of: "Open")
/// ```
package final class Segment: @unchecked Sendable {
    // @unchecked: the memory is written once, in init, and only read after.

    /// The reader over the segment's bytes.
    package let reader: SegmentReader
    /// The language identifier the segment holds (`fr`, `zh-Hant`, `Base`).
    package let language: String
    /// The table name the segment holds (`Localizable`).
    package let table: String
    private let memory: UnsafeMutableRawPointer

    /// Builds the segment `plan` describes into memory from `allocate` (`malloc` unless a
    /// caller, such as a test, gives another allocator whose memory `free` releases).
    ///
    /// - Throws: ``SegmentError/outOfMemory(bytes:)`` when `allocate` gives no memory: the
    ///   segment is not built, and nothing else is harmed.
    package init(
        _ plan: SegmentPlan, allocate: (Int) -> UnsafeMutableRawPointer? = { malloc($0) }
    ) throws(SegmentError) {
        guard let memory = allocate(plan.byteCount) else { throw .outOfMemory(bytes: plan.byteCount) }
        do {
            try plan.write(into: UnsafeMutableRawBufferPointer(start: memory, count: plan.byteCount))
            reader = try SegmentReader(
                UnsafeRawBufferPointer(start: memory, count: plan.byteCount), verifyingChecksums: false)
        } catch {
            free(memory)
            throw error
        }
        self.memory = memory
        language = plan.language
        table = plan.table
    }

    /// A copy of the segment in `bytes`, checked whole (checksums included) as a reader of
    /// a buffer from elsewhere must.
    ///
    /// - Throws: ``SegmentError`` for bytes that are not a whole, undamaged segment, or
    ///   ``SegmentError/outOfMemory(bytes:)``.
    package init(copying bytes: UnsafeRawBufferPointer) throws(SegmentError) {
        let checked = try SegmentReader(bytes)
        let count = checked.buffer.count
        guard let memory = malloc(max(count, 1)) else { throw .outOfMemory(bytes: count) }
        if let source = checked.buffer.baseAddress { memory.copyMemory(from: source, byteCount: count) }
        self.memory = memory
        do {
            reader = try SegmentReader(UnsafeRawBufferPointer(start: memory, count: count), verifyingChecksums: false)
        } catch {
            free(memory)
            throw error
        }
        language = String(decoding: reader.languageBytes, as: UTF8.self)
        table = String(decoding: reader.tableBytes, as: UTF8.self)
    }

    deinit { free(memory) }

    /// Builds the segments `plans` describe, in order: each one its segment, or the error
    /// that kept it from being built (that plan alone fails). Whoever builds several
    /// segments at once (a load, a reload) builds them here.
    package static func build(_ plans: [SegmentPlan]) -> [Result<Segment, SegmentError>] {
        plans.map { plan in Result { () throws(SegmentError) in try Segment(plan) } }
    }

    /// The segment's bytes.
    package var bytes: UnsafeRawBufferPointer { reader.buffer }

    /// The CRC-32C of the segment's body, as its header states it: two segments with the
    /// same one and the same length hold the same entries, with all but certainty.
    package var bodyChecksum: UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: SegmentLayout.Header.bodyChecksum, as: UInt32.self))
    }
}
