extension SegmentSet {
    /// The most slabs a set's segments lie in after ``compacted(makingSlab:maxSlabs:)``: a
    /// `map` reply carries one descriptor per slab, and a client maps each.
    package static let maxSlabs = 16

    /// The slabs this set's segments lie in, each with the bytes of those segments in it
    /// (each counted to its 8-byte boundary), largest share first.
    package var slabs: [(slab: SegmentSlab, liveBytes: Int)] {
        var bySerial: [UInt64: (slab: SegmentSlab, liveBytes: Int)] = [:]
        for segment in allSegments {
            bySerial[segment.slab.serial, default: (segment.slab, 0)].liveBytes += SegmentLayout.aligned(
                segment.bytes.count)
        }
        return bySerial.values.sorted { ($0.liveBytes, $0.slab.serial) > ($1.liveBytes, $1.slab.serial) }
    }

    /// This set with the segments of its worst slabs copied into one new slab, when its
    /// segments are spread too thin (docs/FORMAT.md, "Slabs"); the same set when they are
    /// not, or when the new slab cannot be had (the next change tries again).
    ///
    /// Moved are the segments of every slab less than half of whose bytes this set still
    /// uses (the rest are segments replaced since: their memory is freed once the old slab
    /// goes) and of every private slab (a build that could get no memory file: it cannot be
    /// mapped), then those of the slabs with the fewest live bytes until at most `maxSlabs`
    /// remain. A segment keeps its bytes; only where they lie changes, so no answer does.
    package func compacted(makingSlab: Segment.SlabMaker = SegmentSlab.sealed, maxSlabs: Int = Self.maxSlabs)
        -> SegmentSet
    {
        let slabs = self.slabs
        var moving = Set(
            slabs.filter { !$0.slab.isShareable || $0.liveBytes * 2 < $0.slab.size }.map(\.slab.serial))
        // Kept: the slabs with the most live bytes, as many as leave room for the new one.
        let staying = slabs.filter { !moving.contains($0.slab.serial) }
        let room = moving.isEmpty && staying.count <= maxSlabs ? maxSlabs : maxSlabs - 1
        for extra in staying.dropFirst(max(room, 0)) { moving.insert(extra.slab.serial) }
        let moved = allSegments.filter { moving.contains($0.slab.serial) }.sorted {
            ($0.table, $0.language) < ($1.table, $1.language)
        }
        guard !moved.isEmpty else { return self }
        var offsets: [Int] = []
        var size = 0
        for segment in moved {
            offsets.append(size)
            size += SegmentLayout.aligned(segment.bytes.count)
        }
        guard
            let slab = try? makingSlab(
                size,
                { bytes in
                    for (segment, offset) in zip(moved, offsets) {
                        UnsafeMutableRawBufferPointer(rebasing: bytes[offset..<(offset + segment.bytes.count)])
                            .copyMemory(from: segment.bytes)
                    }
                })
        else { return self }
        var set = self
        for (segment, offset) in zip(moved, offsets) {
            // Bytes copied from a segment this process opened: a failure here is a bug in the copy.
            guard
                let copy = try? Segment(
                    in: slab, offset: offset, length: segment.bytes.count, verifyingChecksums: false)
            else { return self }
            set = set.replacing(copy, language: segment.language, table: segment.table)
        }
        return set
    }
}
