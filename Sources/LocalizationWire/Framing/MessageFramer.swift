/// Cuts a byte stream into messages: JSON lines and binary frames, the encoding picked per
/// message by its first byte (``BinaryFrameHeader/magic`` starts a frame, anything else a
/// line).
///
/// Feed it whatever `read` returned, in any chunk sizes, then take messages until
/// ``nextMessage()`` returns `nil`. It never holds more than about `maxMessageBytes` plus
/// one chunk: a line that grows past the limit, or a frame header announcing a larger
/// payload, yields ``FramedMessage/streamError(_:encoding:)`` (`too_large`) at once — before
/// anything is allocated for the payload — and the framer then refuses all further input.
///
/// ```swift
/// var framer = MessageFramer(maxMessageBytes: 1 << 20)
/// framer.append(chunk)
/// while let message = framer.nextMessage() { handle(message) }
/// ```
package struct MessageFramer: Sendable {
    /// The largest line (without its newline) or frame payload accepted.
    package let maxMessageBytes: Int

    private var buffer: [UInt8] = []
    /// Index of the first byte not yet consumed.
    private var start = 0
    /// How many bytes after `start` are known not to contain a newline, so a long line
    /// arriving in small chunks is scanned once, not once per chunk.
    private var scanned = 0
    private var failed = false

    /// Creates a framer enforcing `maxMessageBytes`.
    package init(maxMessageBytes: Int = 1 << 20) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// The number of bytes received but not yet returned as messages.
    package var bufferedByteCount: Int { buffer.count - start }

    /// Whether the framer has reported a stream error and ignores further input.
    package var hasFailed: Bool { failed }

    /// Adds received bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !failed else { return }
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    package mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        guard !failed else { return }
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message, or `nil` when more bytes are needed (or after a stream
    /// error).
    package mutating func nextMessage() -> FramedMessage? {
        while !failed && start < buffer.count {
            if buffer[start] == BinaryFrameHeader.magic {
                return nextFrame()
            }
            guard let line = nextLine() else { return nil }
            if case .jsonLine(let bytes) = line, bytes.isEmpty { continue }
            return line
        }
        return nil
    }

    /// The first payload byte (the kind) of the binary frame at the head of the buffer, if
    /// one starts there and that byte has arrived: a cheap look before ``answerFrames(_:)``.
    package var nextFrameKind: UInt8? {
        guard !failed, buffer.count - start > BinaryFrameHeader.size, buffer[start] == BinaryFrameHeader.magic else {
            return nil
        }
        return buffer[start + BinaryFrameHeader.size]
    }

    /// Hands the payload of each whole binary frame at the head of the buffer, in order, to
    /// `answer` in place — no copy, no ``FramedMessage`` — consuming each it answers (returns
    /// `true` for), until it declines one, or the next message is not a whole frame; returns
    /// how many it answered. What is left (a line, a part of a frame, a frame the framer will
    /// refuse, the declined frame) ``nextMessage()`` takes as before.
    ///
    /// The daemon's fast path: lookup frames answered straight from the read bytes.
    package mutating func answerFrames(_ answer: (UnsafeRawBufferPointer) -> Bool) -> Int {
        guard !failed else { return 0 }
        var answered = 0
        let end = buffer.count
        var position = start
        buffer.withUnsafeBytes { bytes in
            while end - position >= BinaryFrameHeader.size, bytes[position] == BinaryFrameHeader.magic,
                bytes[position + 1] == BinaryFrameHeader.version
            {
                let length = Int(
                    UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: position + 2, as: UInt32.self)))
                let payloadStart = position + BinaryFrameHeader.size
                guard length <= maxMessageBytes, end - payloadStart >= length,
                    answer(UnsafeRawBufferPointer(rebasing: bytes[payloadStart..<(payloadStart + length)]))
                else { return }
                position = payloadStart + length
                answered += 1
            }
        }
        if answered > 0 {
            start = position
            scanned = 0
        }
        return answered
    }

    private mutating func nextFrame() -> FramedMessage? {
        let available = buffer.count - start
        if available >= 2 && buffer[start + 1] != BinaryFrameHeader.version {
            return fail(
                WireError(code: .badRequest, message: "unsupported binary frame version \(buffer[start + 1])"),
                .binaryFrames)
        }
        guard available >= BinaryFrameHeader.size else { return nil }
        var length = 0
        for offset in 2..<6 { length = length << 8 | Int(buffer[start + offset]) }
        guard length <= maxMessageBytes else {
            return fail(
                WireError(
                    code: .tooLarge, message: "frame of \(length) bytes exceeds the limit of \(maxMessageBytes) bytes"),
                .binaryFrames)
        }
        guard available >= BinaryFrameHeader.size + length else { return nil }
        let payloadStart = start + BinaryFrameHeader.size
        let payload = Array(buffer[payloadStart..<(payloadStart + length)])
        start = payloadStart + length
        scanned = 0
        return .binaryFrame(payload)
    }

    private mutating func nextLine() -> FramedMessage? {
        let searchFrom = start + scanned
        guard let newline = buffer[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = buffer.count - start
            // A line that already holds more than the limit cannot end well; the +1 leaves
            // room for the `\r` of a `\r\n` terminator.
            if scanned > maxMessageBytes + 1 { return failTooLargeLine() }
            return nil
        }
        var end = newline
        if end > start && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end - start <= maxMessageBytes else { return failTooLargeLine() }
        let line = Array(buffer[start..<end])
        start = newline + 1
        scanned = 0
        return .jsonLine(line)
    }

    private mutating func failTooLargeLine() -> FramedMessage {
        fail(WireError(code: .tooLarge, message: "line exceeds the limit of \(maxMessageBytes) bytes"), .jsonLines)
    }

    private mutating func fail(_ error: WireError, _ encoding: WireEncoding) -> FramedMessage {
        failed = true
        buffer = []
        start = 0
        scanned = 0
        return .streamError(error, encoding: encoding)
    }

    /// Drops consumed bytes once they are at least half the buffer, so the cost of moving
    /// the rest is paid back by the bytes freed.
    private mutating func compactIfWorthwhile() {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        } else if start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}
