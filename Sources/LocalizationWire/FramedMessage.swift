/// One complete message cut from a byte stream by ``MessageFramer``.
public enum FramedMessage: Sendable, Hashable {
    /// A JSON line, without its `\n` (or `\r\n`).
    case jsonLine([UInt8])
    /// A binary frame's payload, without its header.
    case binaryFrame([UInt8])
    /// The stream broke a rule it cannot recover from (a message over the size limit, an
    /// unknown frame version): send this error, then close the connection.
    case streamError(WireError)

    /// The encoding the message came in; a stream error is answered in JSON when it is
    /// unknown, because a person at `socat` is the likelier reader.
    public var encoding: WireEncoding {
        if case .binaryFrame = self { return .binaryFrames }
        return .jsonLines
    }
}
