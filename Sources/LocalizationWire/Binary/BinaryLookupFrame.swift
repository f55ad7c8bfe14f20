import Glibc

/// The most common request, a binary `lookup` of one key in one language with no count and
/// no arguments, read in place from its payload: spans of the bytes, no `String` made.
///
/// The daemon's fast path (``BinaryFrameCodec/decodeRequest(_:)`` makes a ``WireRequest``
/// with a `String` per field) answers such a frame from its segments and writes the
/// reply with ``appendReply(value:language:generation:to:)``. Any other shape gives `nil`, and
/// goes the general way; so does a frame whose key the fast path does not find, which the
/// general decoder then checks (a key found in a segment is valid UTF-8: it equals a
/// stored key byte for byte).
///
/// ```swift
/// if let frame = BinaryLookupFrame(payload) {
///     frame.key      // the key's UTF-8 bytes, a span of `payload`
/// }
/// ```
package struct BinaryLookupFrame {
    /// The request id, echoed in the reply.
    package let id: UInt32
    /// The key, as UTF-8 bytes (not yet validated).
    package let key: UnsafeRawBufferPointer
    /// The one preferred language, as sent.
    package let language: UnsafeRawBufferPointer
    /// The table name, as sent: empty for the default table.
    package let table: UnsafeRawBufferPointer

    /// Reads `payload` (a frame's bytes after its header) as a one-language `lookup` with no
    /// count and no arguments; `nil` for any other request, or a malformed one.
    package init?(_ payload: UnsafeRawBufferPointer) {
        // kind, id, key length, languages count, language length, table length, count flag.
        guard payload.count >= 1 + 4 + 4 + 4 + 4 + 4 + 1,
            payload[0] == WireOperationKind.lookup.rawValue
        else { return nil }
        var cursor = Cursor(payload: payload, position: 1)
        id = cursor.u32()
        guard let key = cursor.span(), cursor.remaining >= 4, cursor.u32() == 1, let language = cursor.span(),
            let table = cursor.span(), cursor.remaining == 1, payload[cursor.position] == 0
        else { return nil }
        self.key = key
        self.language = language
        self.table = table
    }

    /// Reads big-endian lengths and the spans they announce, checked against the payload.
    /// A struct with mutating methods, not nested functions capturing a variable: those
    /// would check exclusive access at run time on every call.
    private struct Cursor {
        let payload: UnsafeRawBufferPointer
        var position: Int

        var remaining: Int { payload.count - position }

        /// The `u32` at the position; the caller has checked four bytes remain.
        mutating func u32() -> UInt32 {
            defer { position += 4 }
            return UInt32(bigEndian: payload.loadUnaligned(fromByteOffset: position, as: UInt32.self))
        }

        /// The length-prefixed span at the position, if the payload holds it.
        mutating func span() -> UnsafeRawBufferPointer? {
            guard remaining >= 4 else { return nil }
            let length = Int(u32())
            guard length <= remaining else { return nil }
            defer { position += length }
            return UnsafeRawBufferPointer(rebasing: payload[position..<(position + length)])
        }
    }

    /// Appends the binary `lookup` reply to this request — found, `value` served by
    /// `language`, from `generation` — as one frame at the end of `output`: the bytes
    /// ``BinaryFrameCodec`` writes for the same ``WireLookupResult``.
    package func appendReply(
        value: UnsafeRawBufferPointer, language: UnsafeRawBufferPointer, generation: UInt64,
        to output: inout [UInt8]
    ) {
        // kind, id, flags, value length and bytes, language length and bytes, generation.
        let payloadLength = 1 + 4 + 1 + 4 + value.count + 4 + language.count + 8
        let frameLength = BinaryFrameHeader.size + payloadLength
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: frameLength))
        output.withUnsafeMutableBytes { buffer in
            var writer = SpanWriter(base: buffer.baseAddress! + start)
            writer.byte(BinaryFrameHeader.magic)
            writer.byte(BinaryFrameHeader.version)
            writer.u32(UInt32(truncatingIfNeeded: payloadLength))
            writer.byte(BinaryFrameCodec.ReplyKind.lookup.rawValue)
            writer.u32(id)
            // Flags: found, with a language, nothing formatted.
            writer.byte(1 | 2)
            writer.bytes(value)
            writer.bytes(language)
            writer.u32(UInt32(truncatingIfNeeded: generation >> 32))
            writer.u32(UInt32(truncatingIfNeeded: generation))
        }
    }

    /// Writes big-endian fields one after the other into room already made.
    private struct SpanWriter {
        var base: UnsafeMutableRawPointer

        mutating func byte(_ value: UInt8) {
            base.storeBytes(of: value, as: UInt8.self)
            base += 1
        }

        mutating func u32(_ value: UInt32) {
            base.storeBytes(of: value.bigEndian, toByteOffset: 0, as: UInt32.self)
            base += 4
        }

        /// A length-prefixed span.
        mutating func bytes(_ span: UnsafeRawBufferPointer) {
            u32(UInt32(truncatingIfNeeded: span.count))
            if let source = span.baseAddress, !span.isEmpty { memcpy(base, source, span.count) }
            base += span.count
        }
    }
}
