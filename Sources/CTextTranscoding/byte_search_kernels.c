// The kernels of the scanner's byte search (`byte_search.h`), for x86-64: one block's stop
// bytes found with a few vector comparisons folded into one bit mask (bit i for byte i), as
// simdjson classifies a block, so a block with no stop costs one test and the stop is the
// mask's lowest bit.
// - AVX2: 32-byte blocks; the last bytes (fewer than 32) one at a time.
// - AVX-512 BW: 64-byte blocks, the last one a masked load (nothing read past `count`; the
//   bytes masked off read as zero and are masked off the result).
// Whether a byte is not ASCII is its top bit, which is tested for the whole block too.

#include "byte_search.h"

/// One byte at a time from `start`: what the vector kernels do with the last bytes.
static inline size_t l10n_first_stop_bytes(
    const uint8_t *text, size_t start, size_t count, uint8_t first, uint8_t second, bool or_non_ascii,
    bool *saw_non_ascii) {
    for (size_t index = start; index < count; index++) {
        uint8_t byte = text[index];
        if (byte == first || byte == second || byte < 0x0E) return index;
        if (byte >= 0x80) {
            *saw_non_ascii = true;
            if (or_non_ascii) return index;
        }
    }
    return count;
}

#if defined(__x86_64__)

#include <immintrin.h>

__attribute__((target("avx2"))) size_t l10n_first_stop_avx2(
    const uint8_t *text, size_t start, size_t count, uint8_t first, uint8_t second, bool or_non_ascii,
    bool *saw_non_ascii) {
    const __m256i first_pattern = _mm256_set1_epi8((char)first);
    const __m256i second_pattern = _mm256_set1_epi8((char)second);
    const __m256i control_last = _mm256_set1_epi8(0x0D);
    size_t index = start;
    while (index + 32 <= count) {
        __m256i bytes = _mm256_loadu_si256((const __m256i *)(text + index));
        // A byte at or below 0x0D is the one its unsigned minimum with 0x0D leaves as it was.
        __m256i control = _mm256_cmpeq_epi8(_mm256_min_epu8(bytes, control_last), bytes);
        __m256i stop_bytes = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(bytes, first_pattern), _mm256_cmpeq_epi8(bytes, second_pattern)),
            control);
        uint32_t high = (uint32_t)_mm256_movemask_epi8(bytes);
        uint32_t stops = (uint32_t)_mm256_movemask_epi8(stop_bytes);
        if (or_non_ascii) stops |= high;
        if (high != 0) *saw_non_ascii = true;
        if (stops != 0) return index + (size_t)__builtin_ctz(stops);
        index += 32;
    }
    return l10n_first_stop_bytes(text, index, count, first, second, or_non_ascii, saw_non_ascii);
}

__attribute__((target("avx512f,avx512bw"))) size_t l10n_first_stop_avx512(
    const uint8_t *text, size_t start, size_t count, uint8_t first, uint8_t second, bool or_non_ascii,
    bool *saw_non_ascii) {
    const __m512i first_pattern = _mm512_set1_epi8((char)first);
    const __m512i second_pattern = _mm512_set1_epi8((char)second);
    const __m512i control_bound = _mm512_set1_epi8(0x0E);
    size_t index = start;
    while (index < count) {
        size_t left = count - index;
        __mmask64 live = left >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << left) - 1);
        __m512i bytes = _mm512_maskz_loadu_epi8(live, text + index);
        __mmask64 high = _mm512_movepi8_mask(bytes);
        __mmask64 stops = _mm512_cmpeq_epi8_mask(bytes, first_pattern) | _mm512_cmpeq_epi8_mask(bytes, second_pattern)
            | _mm512_cmplt_epu8_mask(bytes, control_bound);
        if (or_non_ascii) stops |= high;
        stops &= live;
        if (high != 0) *saw_non_ascii = true;
        if (stops != 0) return index + (size_t)__builtin_ctzll(stops);
        index += 64;
    }
    return count;
}

#else

// No such instructions here: callers never choose these kernels, but they link.
size_t l10n_first_stop_avx2(
    const uint8_t *text, size_t start, size_t count, uint8_t first, uint8_t second, bool or_non_ascii,
    bool *saw_non_ascii) {
    return l10n_first_stop_bytes(text, start, count, first, second, or_non_ascii, saw_non_ascii);
}

size_t l10n_first_stop_avx512(
    const uint8_t *text, size_t start, size_t count, uint8_t first, uint8_t second, bool or_non_ascii,
    bool *saw_non_ascii) {
    return l10n_first_stop_bytes(text, start, count, first, second, or_non_ascii, saw_non_ascii);
}

#endif
