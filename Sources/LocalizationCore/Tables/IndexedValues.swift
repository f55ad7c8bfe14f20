import Foundation

/// A table's plain values by their key's position in a ``TableKeyIndex``, packed as UTF-8
/// in one byte buffer; a `String` is made only when a value is asked for.
///
/// A value kept as a `String` of over 15 UTF-8 bytes is a heap allocation of its own (a
/// 32-byte header, rounded up by malloc) behind a 16-byte array element; here it is its
/// bytes in ``bytes`` and an 8-byte ``Span``. Removing a value changes only its span (a
/// table overlaid on another keeps sharing its bytes); setting one appends its bytes.
///
/// The bytes are valid UTF-8 wherever they came from (a `String`, or a `.strings` file's
/// decoded text), so a value made from them is the one stored.
struct IndexedValues: Sendable, Equatable {
    /// Where one position's value is in ``bytes``.
    struct Span: Sendable, Equatable {
        /// The offset of the value's first byte.
        var start: UInt32
        /// The value's length in bytes; ``absent`` where the table lacks the key.
        var length: UInt32

        /// The length of a position without a value.
        static let absent = UInt32.max
    }

    /// The values' bytes, one after another (and those of values since removed or replaced).
    private(set) var bytes: [UInt8] = []
    /// Each position's value in ``bytes``.
    private(set) var spans: [Span] = []
    /// The number of positions holding a value.
    private(set) var count = 0

    /// No positions.
    init() {}

    /// `positions` positions, none holding a value.
    init(positions: Int) {
        spans = [Span](repeating: Span(start: 0, length: Span.absent), count: positions)
    }

    /// Whether `position` holds a value.
    func contains(_ position: Int) -> Bool {
        spans[position].length != Span.absent
    }

    /// The value at `position`, if it holds one.
    func value(at position: Int) -> String? {
        withValueBytes(at: position) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of the value at `position`, if it holds one.
    func withValueBytes<Result>(
        at position: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result? {
        let span = spans[position]
        guard span.length != Span.absent else { return nil }
        return try bytes.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[Int(span.start)..<Int(span.start) + Int(span.length)]))
        }
    }

    /// Makes `value` (UTF-8) the value at `position`.
    mutating func setValue(_ value: UnsafeBufferPointer<UInt8>, at position: Int) {
        if !contains(position) { count += 1 }
        // Offsets are 32-bit: one table's values stay under 4 GiB (a `.strings` file's
        // offsets are 32-bit too).
        let start = UInt32(bytes.count)
        bytes.append(contentsOf: value)
        spans[position] = Span(start: start, length: UInt32(value.count))
    }

    /// Makes `value` the value at `position`.
    mutating func setValue(_ value: String, at position: Int) {
        var value = value
        value.withUTF8 { setValue($0, at: position) }
    }

    /// Removes the value at `position`, if any; its bytes stay where they are.
    mutating func removeValue(at position: Int) {
        guard contains(position) else { return }
        spans[position] = Span(start: 0, length: Span.absent)
        count -= 1
    }

    /// Gives back the room ``bytes`` grew into beyond its values, once the table is built.
    mutating func trimCapacity() {
        guard bytes.capacity > bytes.count + bytes.count / 16 + 64 else { return }
        bytes = [UInt8](unsafeUninitializedCapacity: bytes.count) { copy, initialized in
            initialized = bytes.withUnsafeBufferPointer { copy.initialize(fromContentsOf: $0) }
        }
    }
}
