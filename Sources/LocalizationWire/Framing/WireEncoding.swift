/// The two encodings a connection may use, chosen per message by its first byte; the
/// daemon answers each request in the encoding it came in.
package enum WireEncoding: Sendable, Hashable {
    /// One compact JSON object per line.
    case jsonLines
    /// Length-prefixed binary frames (see `docs/PROTOCOL.md`).
    case binaryFrames
}
