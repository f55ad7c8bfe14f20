// UTF-16 to UTF-8 32 units per step with AVX-512 (F, BW, VL and VBMI2's byte compress).
//
// The SSSE3 kernel packs each unit's bytes with a shuffle looked up by the units' lengths,
// four units at a time; a byte compress (`vpcompressb`) keeps the bytes a 64-bit mask picks
// and packs them in one instruction, so no table and four times the units per step. Each
// unit is laid out in a lane with its one to three bytes first and zeros after (the lead
// byte of a longer unit and every continuation byte are never zero), so the bytes to keep
// are the lane's first byte and every non-zero one.
// - 32 ASCII units (most of a `.strings` file): one test and one narrowing store.
// - No unit at U+0800 or past (Latin, Greek, Cyrillic, Arabic, Hebrew with ASCII): each
//   unit's two bytes in its own 16-bit lane, one compress for the 32.
// - Otherwise (CJK, symbols): 32-bit lanes, sixteen units per compress.
// - A block holding a surrogate (characters past U+FFFF, rare here) goes one unit at a time,
//   which also decides what an unpaired surrogate does, as in every other kernel.
// The last units of the text are the same step with masked loads (nothing read past the
// end); stores are whole 64-byte vectors, hence `L10N_UTF16_TO_UTF8_SLACK`. The input is
// prefetched ahead of the loads (`prefetch.h`).

#include "utf16_to_utf8_kernels.h"

#include "prefetch.h"
#include "utf16_units.h"

#if defined(__x86_64__)

#include <immintrin.h>

#define AVX512_CODE __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi2"), always_inline)) static inline

/// Sets the `lanes` lowest of `width`-bit groups in a 64-bit mask (`lanes * width` ≤ 64).
static inline uint64_t low_bits(unsigned lanes, unsigned width) {
    unsigned bits = lanes * width;
    return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

/// The 16-bit lanes' bytes swapped (big-endian text on a little-endian machine).
AVX512_CODE __m512i swap_bytes(__m512i units) {
    const __m512i pattern = _mm512_broadcast_i32x4(
        _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
    return _mm512_shuffle_epi8(units, pattern);
}

/// Packs the bytes of `lanes` kept by `keep` at `target`; returns how many there are.
AVX512_CODE size_t store_kept(__m512i lanes, uint64_t keep, uint8_t *target) {
    _mm512_storeu_si512(target, _mm512_maskz_compress_epi8(keep, lanes));
    return (size_t)__builtin_popcountll(keep);
}

/// Encodes `lanes` of `units` (32 units, none a surrogate, none at U+0800 or past) at
/// `target`; returns how many bytes they take.
AVX512_CODE size_t encode_up_to_two_bytes(__m512i units, __mmask32 longer, unsigned lanes, uint8_t *target) {
    // Lead byte 0xC0 | unit >> 6 (below 0x20 before the OR), then 0x80 | the low six bits.
    __m512i lead = _mm512_or_si512(_mm512_srli_epi16(units, 6), _mm512_set1_epi16(0xC0));
    __m512i last = _mm512_ternarylogic_epi32(units, _mm512_set1_epi16(0x3F), _mm512_set1_epi16(0x80), 0xEA);
    __m512i two = _mm512_or_si512(lead, _mm512_slli_epi16(last, 8));
    __m512i words = _mm512_mask_blend_epi16(longer, units, two);
    uint64_t keep = (_mm512_test_epi8_mask(words, words) | 0x5555555555555555u) & low_bits(lanes, 2);
    return store_kept(words, keep, target);
}

/// Encodes `lanes` of sixteen units (zero-extended to 32 bits, none a surrogate) at `target`;
/// returns how many bytes they take.
AVX512_CODE size_t encode_sixteen(__m512i units, unsigned lanes, uint8_t *target) {
    const __m512i low_six = _mm512_set1_epi32(0x3F);
    const __m512i continuation = _mm512_set1_epi32(0x80);
    __mmask16 two_or_more = _mm512_cmpge_epu32_mask(units, _mm512_set1_epi32(0x80));
    __mmask16 three = _mm512_cmpge_epu32_mask(units, _mm512_set1_epi32(0x800));
    __m512i shifted = _mm512_srli_epi32(units, 6);
    // (a & b) | c: the last byte, and the middle one of a three-byte unit.
    __m512i last = _mm512_ternarylogic_epi32(units, low_six, continuation, 0xEA);
    __m512i middle = _mm512_ternarylogic_epi32(shifted, low_six, continuation, 0xEA);
    __m512i two = _mm512_ternarylogic_epi32(
        shifted, _mm512_set1_epi32(0xC0), _mm512_slli_epi32(last, 8), 0xFE);
    __m512i lead3 = _mm512_or_si512(_mm512_srli_epi32(units, 12), _mm512_set1_epi32(0xE0));
    __m512i three_bytes = _mm512_ternarylogic_epi32(
        lead3, _mm512_slli_epi32(middle, 8), _mm512_slli_epi32(last, 16), 0xFE);
    __m512i words = _mm512_mask_blend_epi32(three, _mm512_mask_blend_epi32(two_or_more, units, two), three_bytes);
    uint64_t keep = (_mm512_test_epi8_mask(words, words) | 0x1111111111111111u) & low_bits(lanes, 4);
    return store_kept(words, keep, target);
}

/// Encodes the first `lanes` (1 to 32) of `units` at `target` and returns how many bytes
/// they take, or `SIZE_MAX` (nothing written that counts) when one of them is a surrogate.
AVX512_CODE size_t encode_block(__m512i units, unsigned lanes, uint8_t *target) {
    __mmask32 longer = _mm512_test_epi16_mask(units, _mm512_set1_epi16((short)0xFF80));
    if (longer == 0) {
        _mm256_storeu_si256((__m256i *)target, _mm512_cvtepi16_epi8(units));
        return lanes;
    }
    __mmask32 surrogates = _mm512_cmpeq_epi16_mask(
        _mm512_and_si512(units, _mm512_set1_epi16((short)0xF800)), _mm512_set1_epi16((short)0xD800));
    if (surrogates != 0) return SIZE_MAX;
    __mmask32 three = _mm512_test_epi16_mask(units, _mm512_set1_epi16((short)0xF800));
    if (three == 0) return encode_up_to_two_bytes(units, longer, lanes, target);
    __m512i low_half = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(units));
    size_t length = encode_sixteen(low_half, lanes < 16 ? lanes : 16, target);
    if (lanes <= 16) return length;
    __m512i high_half = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(units, 1));
    return length + encode_sixteen(high_half, lanes - 16, target + length);
}

AVX512_CODE bool transcode(
    const uint8_t *source, size_t count, bool swap, uint8_t *target, l10n_transcode_progress *progress) {
    size_t index = 0;
    size_t out = 0;
    bool failed = false;
    l10n_prefetch_start(source, 2 * count);
    while (index + 32 <= count) {
        l10n_prefetch_ahead(source + 2 * index);
        __m512i units = _mm512_loadu_si512(source + 2 * index);
        if (swap) units = swap_bytes(units);
        size_t length = encode_block(units, 32, target + out);
        if (length != SIZE_MAX) {
            out += length;
            index += 32;
        } else {
            index = l10n_transcode_units(source, index, index + 32, count, swap, target, &out, &failed);
            if (failed) break;
        }
    }
    if (!failed && index < count) {
        unsigned lanes = (unsigned)(count - index);
        __m512i units = _mm512_maskz_loadu_epi16((__mmask32)low_bits(lanes, 1), source + 2 * index);
        if (swap) units = swap_bytes(units);
        size_t length = encode_block(units, lanes, target + out);
        if (length != SIZE_MAX) {
            out += length;
            index = count;
        } else {
            index = l10n_transcode_units(source, index, count, count, swap, target, &out, &failed);
        }
    }
    progress->units_read = index;
    progress->bytes_written = out;
    return !failed;
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi2"))) bool l10n_utf16_to_utf8_avx512(
    const uint8_t *source, size_t unit_count, bool big_endian, uint8_t *target, l10n_transcode_progress *progress) {
    // Two copies of the loop, so the byte order is not tested per load.
    return big_endian ? transcode(source, unit_count, true, target, progress)
                      : transcode(source, unit_count, false, target, progress);
}

#endif
