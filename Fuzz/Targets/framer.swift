import LocalizationWire

/// A connection's byte stream, cut by `MessageFramer` as the daemon reads it and decoded by
/// the codec each message's first byte picks.
///
/// The first input byte chooses the size limit (16…1036 bytes, so `too_large` is reached)
/// and the second seeds the chunk sizes `read` would return; the rest is the stream. The
/// framer must cut the same messages whatever the chunking (it is fed once whole, once in
/// chunks), and after taking every complete message it may hold only one incomplete
/// message: at most the limit plus a frame header.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput.bytes(data, size)
    guard input.count >= 2 else { return 0 }
    let limit = 16 + Int(input[0]) * 4
    var chunkSeed = UInt32(input[1]) | 1
    let stream = Array(input.dropFirst(2))

    var whole = MessageFramer(maxMessageBytes: limit)
    whole.append(contentsOf: stream)
    let expected = drain(&whole)

    var chunked = MessageFramer(maxMessageBytes: limit)
    var messages: [FramedMessage] = []
    var offset = 0
    while offset < stream.count {
        // A small xorshift: chunk sizes of 1…64 bytes, different for each second byte.
        chunkSeed ^= chunkSeed << 13
        chunkSeed ^= chunkSeed >> 17
        chunkSeed ^= chunkSeed << 5
        let end = min(stream.count, offset + 1 + Int(chunkSeed % 64))
        stream[offset..<end].withUnsafeBytes { chunked.append($0) }
        offset = end
        messages += drain(&chunked)
        FuzzInput.require(
            chunked.bufferedByteCount <= limit + BinaryFrameHeader.size,
            "holds \(chunked.bufferedByteCount) bytes with a limit of \(limit)")
    }
    FuzzInput.require(messages == expected, "chunked \(messages) but whole \(expected)")

    for message in messages {
        switch message {
        case .jsonLine(let line): _ = JSONLineCodec.decodeRequest(line)
        case .binaryFrame(let payload): _ = BinaryFrameCodec.decodeRequest(payload)
        case .streamError: break
        }
    }
    return 0
}

/// Every message complete so far.
private func drain(_ framer: inout MessageFramer) -> [FramedMessage] {
    var messages: [FramedMessage] = []
    while let message = framer.nextMessage() { messages.append(message) }
    return messages
}
