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
    // @unchecked: the memory is written once, before the reader is made, and only read after.

    /// The reader over the segment's bytes.
    package let reader: SegmentReader
    /// The language identifier the segment holds (`fr`, `zh-Hant`, `Base`).
    package let language: String
    /// The table name the segment holds (`Localizable`).
    package let table: String
    /// The memory the segment lies in, kept as long as the segment is.
    package let slab: SegmentSlab
    /// Where in ``slab`` the segment starts.
    package let offset: Int

    /// Builds the segment `plan` describes into memory of its own from `allocate` (`malloc`
    /// unless a caller, such as a test, gives another allocator whose memory `free`
    /// releases): a private slab, for a segment built alone.
    ///
    /// - Throws: ``SegmentError/outOfMemory(bytes:)`` when `allocate` gives no memory: the
    ///   segment is not built, and nothing else is harmed.
    package convenience init(
        _ plan: SegmentPlan, allocate: (Int) -> UnsafeMutableRawPointer? = { malloc($0) }
    ) throws(SegmentError) {
        var failure: SegmentError?
        guard
            let slab = SegmentSlab(
                privateSize: plan.byteCount, allocate: allocate,
                fill: { bytes in
                    do throws(SegmentError) { try plan.write(into: bytes) } catch { failure = error }
                })
        else { throw .outOfMemory(bytes: plan.byteCount) }
        if let failure { throw failure }
        try self.init(in: slab, offset: 0, length: plan.byteCount, verifyingChecksums: false)
    }

    /// The segment at `offset` in `slab`, `length` bytes, opened with a
    /// ``SegmentReader`` (its body's checksum computed only when `verifyingChecksums`).
    ///
    /// - Throws: ``SegmentError`` when the bytes there are not a whole, undamaged segment.
    package init(in slab: SegmentSlab, offset: Int, length: Int, verifyingChecksums: Bool) throws(SegmentError) {
        guard offset >= 0, length >= 0, offset <= slab.size, length <= slab.size - offset else {
            throw .outOfBounds("a segment of \(length) bytes at \(offset) in a slab of \(slab.size)")
        }
        reader = try SegmentReader(
            UnsafeRawBufferPointer(rebasing: slab.bytes[offset..<(offset + length)]),
            verifyingChecksums: verifyingChecksums)
        guard reader.buffer.count == length else {
            throw .outOfBounds("a segment of \(reader.buffer.count) bytes announced as \(length)")
        }
        self.slab = slab
        self.offset = offset
        language = String(decoding: reader.languageBytes, as: UTF8.self)
        table = String(decoding: reader.tableBytes, as: UTF8.self)
    }

    /// A copy of the segment in `bytes`, checked whole (checksums included) as a reader of
    /// a buffer from elsewhere must.
    ///
    /// - Throws: ``SegmentError`` for bytes that are not a whole, undamaged segment, or
    ///   ``SegmentError/outOfMemory(bytes:)``.
    package convenience init(copying bytes: UnsafeRawBufferPointer) throws(SegmentError) {
        let checked = try SegmentReader(bytes)
        let count = checked.buffer.count
        guard
            let slab = SegmentSlab(
                privateSize: count, fill: { $0.copyMemory(from: checked.buffer) })
        else { throw .outOfMemory(bytes: count) }
        try self.init(in: slab, offset: 0, length: count, verifyingChecksums: false)
    }

    /// Builds the segments `plans` describe, in order: each one its segment, or the error
    /// that kept it from being built (that plan alone fails). Whoever builds several
    /// segments at once (a load, a reload) builds them here, into one slab: a sealed memory
    /// file (`makingSlab`; a test gives one that fails) holding every plan's bytes, each at
    /// a multiple of 8, which clients map as they are.
    ///
    /// Never traps for memory: when that slab cannot be had, each plan is built into a slab
    /// of its own, else into a private buffer; a plan that gets no memory at all fails with
    /// ``SegmentError/outOfMemory(bytes:)`` and the others are built.
    package static func build(
        _ plans: [SegmentPlan], makingSlab: SlabMaker = SegmentSlab.sealed
    ) -> [Result<Segment, SegmentError>] {
        guard !plans.isEmpty else { return [] }
        var offsets: [Int] = []
        var size = 0
        for plan in plans {
            offsets.append(size)
            size += SegmentLayout.aligned(plan.byteCount)
        }
        if let built = build(plans, at: offsets, size: size, makingSlab: makingSlab) { return built }
        // One plan alone was the slab tried already: its fallback is a private buffer.
        guard plans.count > 1 else { return [Result { () throws(SegmentError) in try Segment(plans[0]) }] }
        return plans.map { buildAlone($0, makingSlab: makingSlab) }
    }

    /// Makes a slab of a size whose bytes a closure writes, or throws when it cannot.
    package typealias SlabMaker = (_ size: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) throws -> SegmentSlab

    /// `plans` written at `offsets` into one slab of `size` bytes; `nil` when the slab
    /// cannot be had.
    private static func build(
        _ plans: [SegmentPlan], at offsets: [Int], size: Int, makingSlab: SlabMaker
    ) -> [Result<Segment, SegmentError>]? {
        var failures = [SegmentError?](repeating: nil, count: plans.count)
        guard
            let slab = try? makingSlab(
                size,
                { bytes in
                    for (index, plan) in plans.enumerated() {
                        let region = UnsafeMutableRawBufferPointer(
                            rebasing: bytes[offsets[index]..<(offsets[index] + plan.byteCount)])
                        do throws(SegmentError) { try plan.write(into: region) } catch { failures[index] = error }
                    }
                })
        else { return nil }
        return plans.indices.map { index in
            if let failure = failures[index] { return .failure(failure) }
            return Result { () throws(SegmentError) in
                try Segment(in: slab, offset: offsets[index], length: plans[index].byteCount, verifyingChecksums: false)
            }
        }
    }

    /// `plan` built into a slab of its own, else a private buffer.
    private static func buildAlone(_ plan: SegmentPlan, makingSlab: SlabMaker) -> Result<Segment, SegmentError> {
        if let built = build([plan], at: [0], size: plan.byteCount, makingSlab: makingSlab) { return built[0] }
        return Result { () throws(SegmentError) in try Segment(plan) }
    }

    /// The segment's bytes.
    package var bytes: UnsafeRawBufferPointer { reader.buffer }

    /// The CRC-32C of the segment's body, as its header states it: two segments with the
    /// same one and the same length hold the same entries, with all but certainty.
    package var bodyChecksum: UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: SegmentLayout.Header.bodyChecksum, as: UInt32.self))
    }
}
