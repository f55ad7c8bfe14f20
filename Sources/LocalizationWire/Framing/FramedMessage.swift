/// One complete message cut from a byte stream by ``MessageFramer``.
package enum FramedMessage: Sendable, Hashable {
    /// A JSON line, without its `\n` (or `\r\n`).
    case jsonLine([UInt8])
    /// A binary frame's payload, without its header.
    case binaryFrame([UInt8])
    /// The stream broke a rule it cannot recover from (a message over the size limit, an
    /// unknown frame version): send this error, in `encoding` (the encoding of the message
    /// that broke it), then close the connection.
    case streamError(WireError, encoding: WireEncoding)

    /// The encoding the message came in.
    package var encoding: WireEncoding {
        switch self {
        case .jsonLine: .jsonLines
        case .binaryFrame: .binaryFrames
        case .streamError(_, let encoding): encoding
        }
    }
}
