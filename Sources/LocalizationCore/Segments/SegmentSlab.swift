import Glibc
package import LocalizationSockets
import Synchronization

/// The memory one or more segments lie in: a sealed memory file that every process maps
/// (the daemon's segments, and the ones a client received), or a private buffer (a segment
/// built alone, a build that could get no memory file).
///
/// One build (``Segment/build(_:makingSlab:)``) writes all its segments into one slab; each
/// ``Segment`` holds its slab, so the slab lives as long as any segment in it. A client maps
/// the very pages the daemon wrote: the daemon sends ``descriptor`` (`map`), and the
/// receiver wraps its mapping in a slab of its own (``init(mapping:)``).
///
/// ```swift
/// let slab = try SegmentSlab(sealedSize: 4096) { bytes in … }   // written once, then sealed
/// _ = try DescriptorPassing.send(reply, attachingNumbers: [slab.descriptor], over: socket)
/// ```
package final class SegmentSlab: @unchecked Sendable {
    // @unchecked: the bytes are written once, before the slab is made, and only read after;
    // every stored property is immutable.

    /// The slab's bytes, read-only.
    package let bytes: UnsafeRawBufferPointer
    /// A number no other slab of this process has: what a manifest and a set's compaction
    /// tell slabs apart by.
    package let serial: UInt64
    /// The sealed memory file's read-only descriptor, to send (`-1` for a slab that is not
    /// one this process can hand out: a private buffer, or a mapping received).
    package let descriptor: Int32
    /// Keeps the file's descriptor open and its pages mapped as long as the slab lives.
    private let file: SealedMemoryFile?
    private let mapping: SealedMemoryMapping?
    /// A private buffer's memory, freed with the slab.
    private let heap: UnsafeMutableRawPointer?

    private static let serials = Atomic<UInt64>(1)

    /// A sealed memory file of `size` bytes that `fill` writes (through a writable mapping
    /// unmapped before the seals go on), mapped read-only here; named
    /// `l10nd-slab-PID-SERIAL` in `/proc/PID/maps`.
    ///
    /// - Throws: ``SocketError`` when the file cannot be created, sized, mapped or sealed
    ///   (no descriptor free, no memory): nothing is left behind.
    package init(sealedSize size: Int, fill: (UnsafeMutableRawBufferPointer) -> Void) throws(SocketError) {
        let serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
        let file = try SealedMemoryFile(name: "l10nd-slab-\(getpid())-\(serial)", size: size, fill: fill)
        // The daemon's own view of what it hands out: checked as any reader checks it.
        let mapping = try SealedMemoryMapping(verifying: file.descriptor, size: size)
        self.serial = serial
        descriptor = file.descriptor.rawValue
        bytes = mapping.withUnsafeBytes { $0 }
        self.mapping = mapping
        self.file = consume file
        heap = nil
    }

    /// A private buffer of `size` bytes from `allocate` (whose memory `free` releases), that
    /// `fill` writes; `nil` when `allocate` gives none.
    package init?(
        privateSize size: Int, allocate: (Int) -> UnsafeMutableRawPointer? = { malloc($0) },
        fill: (UnsafeMutableRawBufferPointer) -> Void
    ) {
        guard let memory = allocate(max(size, 1)) else { return nil }
        fill(UnsafeMutableRawBufferPointer(start: memory, count: size))
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
        bytes = UnsafeRawBufferPointer(start: memory, count: size)
        descriptor = -1
        heap = memory
        file = nil
        mapping = nil
    }

    /// A slab over a sealed memory file mapped from elsewhere (a `map` reply's), which it
    /// keeps mapped.
    package init(mapping: SealedMemoryMapping) {
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).oldValue
        bytes = mapping.withUnsafeBytes { $0 }
        descriptor = -1
        self.mapping = mapping
        file = nil
        heap = nil
    }

    deinit { free(heap) }

    /// ``init(sealedSize:fill:)`` as a ``Segment/SlabMaker``: how builds get their slabs.
    package static func sealed(size: Int, fill: (UnsafeMutableRawBufferPointer) -> Void) throws -> SegmentSlab {
        try SegmentSlab(sealedSize: size, fill: fill)
    }

    /// The slab's length in bytes.
    package var size: Int { bytes.count }

    /// Whether the slab is a sealed memory file this process can hand out.
    package var isShareable: Bool { descriptor >= 0 }
}
