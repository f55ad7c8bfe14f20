internal import CTextTranscoding

/// Transcodes a UTF-16 `.strings` file into the UTF-8 the scanner reads, in one pass.
///
/// The work is done in C (`CTextTranscoding`, `l10n_utf16_to_utf8`), with vector
/// instructions Swift's vectors on baseline x86-64 do not have, chosen at run time (see
/// ``Kernel``). Most of a file is ASCII (97 % of the IINA corpus's units, even in Japanese
/// or Russian translations) and is narrowed 32 or sixteen units at a time; blocks with other
/// characters are encoded without a branch per unit (each unit's bytes computed in every lane,
/// then packed by a byte compress or a shuffle chosen by the units' lengths); only blocks
/// with a surrogate go one unit at a time.
enum UTF16Transcoder {
    /// The ways the C transcoder can do its work; every one gives the same result.
    enum Kernel: CaseIterable {
        /// One unit at a time, on any CPU.
        case scalar
        /// Sixteen units per step with SSSE3 and SSE4.1 byte shuffles.
        case ssse3
        /// 32 units per step with AVX-512 (F, BW, VL, VBMI2) byte compresses.
        case avx512

        /// What `utf8(from:bigEndian:file:)` uses: the fastest kernel this CPU has, unless the
        /// environment variable `L10N_UTF16_KERNEL` (`scalar`, `ssse3`, `avx512`) names a
        /// slower one.
        static var best: Kernel { Kernel(l10n_utf16_best_kernel()) }

        /// Whether this CPU can run the kernel (one it cannot run falls back to the fastest
        /// slower one).
        var isAvailable: Bool { l10n_utf16_kernel_available(cKernel) }

        fileprivate var cKernel: l10n_utf16_kernel {
            switch self {
            case .scalar: L10N_UTF16_KERNEL_SCALAR
            case .ssse3: L10N_UTF16_KERNEL_SSSE3
            case .avx512: L10N_UTF16_KERNEL_AVX512
            }
        }

        private init(_ kernel: l10n_utf16_kernel) {
            self = Kernel.allCases.first { $0.cKernel == kernel } ?? .scalar
        }
    }

    /// `text` as UTF-16 in the given byte order, transcoded to UTF-8.
    ///
    /// An odd byte count or an unpaired surrogate is an error located at the character where
    /// it happens; nothing is silently replaced. `kernel`: tests run each one the CPU has.
    static func utf8(
        from text: UnsafeBufferPointer<UInt8>, bigEndian: Bool, file: String?, kernel: Kernel = .best
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
            if !l10n_utf16_to_utf8_using(kernel.cKernel, source, unitCount, bigEndian, target, &progress) {
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
