internal import CTextTranscoding

/// Transcodes a UTF-16 `.strings` file into the UTF-8 the scanner reads, in one pass.
///
/// The work is done in C (`CTextTranscoding`, `l10n_utf16_to_utf8`), which needs byte
/// shuffles (SSSE3 and SSE4.1) that Swift's vectors on baseline x86-64 do not have. Most of a
/// file is ASCII (97 % of the IINA corpus's units, even in Japanese or Russian translations)
/// and is packed sixteen units at a time; the other 3 % took most of the time when they were
/// encoded one at a time, in branches mispredicted wherever the text changes between ASCII
/// and other characters. Blocks of eight units with such characters are now encoded without
/// a branch per unit (each unit's bytes computed in every lane, then packed by a shuffle
/// chosen by the units' lengths); only blocks with a surrogate go one unit at a time.
enum UTF16Transcoder {
    /// `text` as UTF-16 in the given byte order, transcoded to UTF-8.
    ///
    /// An odd byte count or an unpaired surrogate is an error located at the character where
    /// it happens; nothing is silently replaced.
    static func utf8(
        from text: UnsafeBufferPointer<UInt8>, bigEndian: Bool, file: String?
    ) throws(ResourceParseError) -> [UInt8] {
        let unitCount = text.count / 2
        // Why the text stops being valid UTF-16 (where the output ends); nil when all is well.
        var failure: String?
        // Three UTF-8 bytes per UTF-16 unit at most (a surrogate pair takes four for two), and
        // room for the transcoder's last whole-vector store.
        let capacity = unitCount * 3 + Int(L10N_UTF16_TO_UTF8_SLACK)
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            guard let source = text.baseAddress, let target = buffer.baseAddress else { return }
            var progress = l10n_transcode_progress()
            if !l10n_utf16_to_utf8(source, unitCount, bigEndian, target, &progress) {
                let raw = UnsafeRawPointer(source + 2 &* progress.units_read).loadUnaligned(as: UInt16.self)
                let unit = bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw)
                failure = "invalid UTF-16: unpaired surrogate 0x\(String(unit, radix: 16, uppercase: true))"
            }
            initialized = progress.bytes_written
        }
        if failure == nil, text.count % 2 != 0 {
            failure = "the file ends in the middle of a UTF-16 character (it has an odd number of bytes)"
        }
        if let failure {
            // The error is where the valid text ends.
            let location = output.withUnsafeBufferPointer {
                StringsParser.location(of: $0.count, in: $0, file: file)
            }
            throw ResourceParseError(location: location, message: failure)
        }
        return output
    }
}
