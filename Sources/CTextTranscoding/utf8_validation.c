// The UTF-8 check of `UTF8Validation` (LocalizationCore), 32 bytes at a time with AVX2.
//
// Swift's vectors on baseline x86-64 are sixteen bytes; twice as many bytes per step halves
// the instructions and the branches (one per step, taken where ASCII text begins or ends)
// of the pass every UTF-8 `.strings` file goes through first, which is prefetched ahead
// (`prefetch.h`).

#include "utf8_validation.h"

#include "cpu_features.h"
#include "prefetch.h"

#if defined(__x86_64__)

#include <immintrin.h>

#define AVX2_CODE __attribute__((target("avx2"), always_inline)) static inline

/// 0xFF in the lanes where `bytes` is at least `bound`, unsigned.
AVX2_CODE __m256i at_least(__m256i bytes, uint8_t bound) {
    return _mm256_cmpeq_epi8(_mm256_max_epu8(bytes, _mm256_set1_epi8((char)bound)), bytes);
}

AVX2_CODE __m256i equal(__m256i bytes, uint8_t value) {
    return _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8((char)value));
}

__attribute__((target("avx2"))) static size_t check_with_avx2(const uint8_t *text, size_t index, size_t count) {
    __m256i errors = _mm256_setzero_si256();
    const __m256i high_bits = _mm256_set1_epi8((char)0x80);
    l10n_prefetch_start(text + index, count - index);
    for (; index + 32 <= count; index += 32) {
        l10n_prefetch_ahead(text + index);
        __m256i bytes = _mm256_loadu_si256((const __m256i *)(text + index));
        // The bytes one, two and three places before each: loaded again, overlapping.
        __m256i third = _mm256_loadu_si256((const __m256i *)(text + index - 3));
        if (_mm256_testz_si256(_mm256_or_si256(bytes, third), high_bits)) continue;
        __m256i first = _mm256_loadu_si256((const __m256i *)(text + index - 1));
        __m256i second = _mm256_loadu_si256((const __m256i *)(text + index - 2));
        // A continuation byte exactly where a lead byte before it asks for one.
        __m256i continuation = equal(_mm256_and_si256(bytes, _mm256_set1_epi8((char)0xC0)), 0x80);
        __m256i expected =
            _mm256_or_si256(_mm256_or_si256(at_least(first, 0xC0), at_least(second, 0xE0)), at_least(third, 0xF0));
        __m256i bad = _mm256_xor_si256(continuation, expected);
        // Bytes never used: C0, C1, F5 to FF.
        bad = _mm256_or_si256(bad, at_least(bytes, 0xF5));
        bad = _mm256_or_si256(bad, equal(_mm256_and_si256(bytes, _mm256_set1_epi8((char)0xFE)), 0xC0));
        // The second byte's range after E0 (overlong), ED (surrogates), F0 (overlong), F4
        // (past U+10FFFF).
        bad = _mm256_or_si256(bad, _mm256_andnot_si256(at_least(bytes, 0xA0), equal(first, 0xE0)));
        bad = _mm256_or_si256(bad, _mm256_and_si256(at_least(bytes, 0xA0), equal(first, 0xED)));
        bad = _mm256_or_si256(bad, _mm256_andnot_si256(at_least(bytes, 0x90), equal(first, 0xF0)));
        bad = _mm256_or_si256(bad, _mm256_and_si256(at_least(bytes, 0x90), equal(first, 0xF4)));
        errors = _mm256_or_si256(errors, bad);
    }
    return _mm256_testz_si256(errors, errors) ? index : SIZE_MAX;
}

#endif

size_t l10n_utf8_check_blocks(const uint8_t *text, size_t start, size_t count) {
#if defined(__x86_64__)
    if (l10n_cpu_features()->avx2) return check_with_avx2(text, start, count);
#endif
    (void)text;
    (void)count;
    return start;
}
