/// Both encodings behind one entry point, for code that handles whichever encoding a
/// message arrived in (the daemon's connections, the client's reader).
///
/// ```swift
/// switch WireCodec.decodeRequest(message) { … }
/// let bytes = WireCodec.encode(.reply(id: request.id, reply), as: message.encoding)
/// ```
package enum WireCodec {
    /// Decodes a framed request; a stream error becomes a failure carrying that error.
    package static func decodeRequest(_ message: FramedMessage) -> Result<WireRequest, WireRequestFailure> {
        switch message {
        case .jsonLine(let line): JSONLineCodec.decodeRequest(line)
        case .binaryFrame(let payload): BinaryFrameCodec.decodeRequest(payload)
        case .streamError(let error, _): .failure(WireRequestFailure(error: error))
        }
    }

    /// Decodes a framed reply or event.
    ///
    /// - Throws: ``WireError``: the stream error itself, or `bad_request` for a message the
    ///   protocol does not define.
    package static func decodeServerMessage(_ message: FramedMessage) throws(WireError) -> WireServerMessage {
        switch message {
        case .jsonLine(let line): try JSONLineCodec.decodeServerMessage(line)
        case .binaryFrame(let payload): try BinaryFrameCodec.decodeServerMessage(payload)
        case .streamError(let error, _): throw error
        }
    }

    /// Encodes a request in `encoding`, terminator or header included.
    package static func encode(_ request: WireRequest, as encoding: WireEncoding) -> [UInt8] {
        switch encoding {
        case .jsonLines: JSONLineCodec.encode(request)
        case .binaryFrames: BinaryFrameCodec.encode(request)
        }
    }

    /// Encodes a reply or event in `encoding`, terminator or header included.
    package static func encode(_ message: WireServerMessage, as encoding: WireEncoding) -> [UInt8] {
        switch encoding {
        case .jsonLines: JSONLineCodec.encode(message)
        case .binaryFrames: BinaryFrameCodec.encode(message)
        }
    }

    /// Encodes a reply or event in `encoding` at the end of `bytes` (a connection's output).
    package static func encode(
        _ message: WireServerMessage, as encoding: WireEncoding, appendingTo bytes: inout [UInt8]
    ) {
        switch encoding {
        case .jsonLines: bytes.append(contentsOf: JSONLineCodec.encode(message))
        case .binaryFrames: BinaryFrameCodec.encode(message, appendingTo: &bytes)
        }
    }
}
