// UTF-16 to UTF-8 sixteen units per step with SSSE3/SSE4.1 byte shuffles.
//
// Most of a `.strings` file is ASCII even in a Japanese or Russian translation, so sixteen
// ASCII units are packed into sixteen bytes after one test. Sixteen units with other
// characters but no surrogate are encoded as two halves of eight without a branch per unit
// (nor a test of whether a half is ASCII, which mispredicted where the text changes): each
// unit's one to three UTF-8 bytes are computed in every lane at once and laid out as one
// 32-bit word per unit, and a shuffle chosen by the units' lengths (a table of the 81 ways
// four units can have lengths 1 to 3) packs each quarter's words together. Blocks with a
// surrogate (emoji and other characters past U+FFFF, rare in these files) and the last units
// are done one at a time. The input is prefetched ahead (`prefetch.h`). `utf16_to_utf8.c`
// chooses this kernel where the CPU has SSSE3 and SSE4.1 but not AVX-512.

#include "utf16_to_utf8_kernels.h"

#include "prefetch.h"
#include "utf16_units.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <pthread.h>

/// For each of the 256 length patterns of four units (bit j: unit j is 0x80 or more; bit
/// j + 4: unit j is 0x800 or more), the shuffle that packs the units' bytes (unit j's at bytes
/// 4j to 4j + 2) together; lanes past the end are zeroed.
static uint8_t packing_shuffles[256][16] __attribute__((aligned(16)));
/// For each pattern, how many bytes the four units take.
static uint8_t packed_lengths[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void make_tables(void) {
    for (unsigned pattern = 0; pattern < 256; pattern++) {
        unsigned out = 0;
        for (unsigned unit = 0; unit < 4; unit++) {
            unsigned length = 1 + ((pattern >> unit) & 1) + ((pattern >> (unit + 4)) & 1);
            for (unsigned byte = 0; byte < length; byte++) packing_shuffles[pattern][out++] = (uint8_t)(4 * unit + byte);
        }
        packed_lengths[pattern] = (uint8_t)out;
        while (out < 16) packing_shuffles[pattern][out++] = 0x80;
    }
}

#endif

#if defined(__x86_64__)

#define VECTOR_CODE __attribute__((target("ssse3,sse4.1"), always_inline)) static inline

VECTOR_CODE __m128i load_units(const uint8_t *source, size_t index, bool swap) {
    __m128i units = _mm_loadu_si128((const __m128i *)(source + 2 * index));
    if (swap) units = _mm_shuffle_epi8(units, _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14));
    return units;
}

/// Encodes eight units, none a surrogate, at `target`; returns how many bytes they take.
VECTOR_CODE size_t encode_block(__m128i units, uint8_t *target) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i continuation = _mm_set1_epi16(0x80);
    const __m128i low_six = _mm_set1_epi16(0x3F);
    // 0xFFFF in the lanes of one-byte units, and of one- or two-byte units.
    __m128i one_byte = _mm_cmpeq_epi16(_mm_and_si128(units, _mm_set1_epi16((short)0xFF80)), zero);
    __m128i up_to_two = _mm_cmpeq_epi16(_mm_and_si128(units, _mm_set1_epi16((short)0xF800)), zero);
    // The last byte of a two- or three-byte unit, the middle one of a three-byte unit, and
    // the lead bytes.
    __m128i last = _mm_or_si128(_mm_and_si128(units, low_six), continuation);
    __m128i middle = _mm_or_si128(_mm_and_si128(_mm_srli_epi16(units, 6), low_six), continuation);
    __m128i lead2 = _mm_or_si128(_mm_srli_epi16(units, 6), _mm_set1_epi16(0xC0));
    __m128i lead3 = _mm_or_si128(_mm_srli_epi16(units, 12), _mm_set1_epi16(0xE0));
    // Byte 0 of every unit, byte 1 of the two- and three-byte ones, byte 2 of the three-byte ones.
    __m128i first = _mm_blendv_epi8(_mm_blendv_epi8(lead3, lead2, up_to_two), units, one_byte);
    __m128i second = _mm_blendv_epi8(middle, last, up_to_two);
    __m128i first_two = _mm_or_si128(first, _mm_slli_epi16(second, 8));
    // One 32-bit word per unit: its bytes in order, then zeros.
    __m128i low_words = _mm_unpacklo_epi16(first_two, last);
    __m128i high_words = _mm_unpackhi_epi16(first_two, last);
    // Bit j: unit j takes two bytes or more; bit j + 8 (after the shift): three.
    unsigned longer = ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(one_byte, up_to_two));
    unsigned low_pattern = (longer & 0x0F) | ((longer >> 4) & 0xF0);
    unsigned high_pattern = ((longer >> 4) & 0x0F) | ((longer >> 8) & 0xF0);
    _mm_storeu_si128((__m128i *)target, _mm_shuffle_epi8(low_words, *(const __m128i *)packing_shuffles[low_pattern]));
    size_t length = packed_lengths[low_pattern];
    _mm_storeu_si128(
        (__m128i *)(target + length), _mm_shuffle_epi8(high_words, *(const __m128i *)packing_shuffles[high_pattern]));
    return length + packed_lengths[high_pattern];
}

VECTOR_CODE bool transcode(
    const uint8_t *source, size_t count, bool swap, uint8_t *target, l10n_transcode_progress *progress) {
    const __m128i not_ascii = _mm_set1_epi16((short)0xFF80);
    const __m128i surrogate_bits = _mm_set1_epi16((short)0xF800);
    const __m128i surrogate = _mm_set1_epi16((short)0xD800);
    size_t index = 0;
    size_t out = 0;
    bool failed = false;
    l10n_prefetch_start(source, 2 * count);
    while (index + 16 <= count) {
        l10n_prefetch_ahead(source + 2 * index);
        __m128i units = load_units(source, index, swap);
        __m128i more = load_units(source, index + 8, swap);
        if (_mm_testz_si128(_mm_or_si128(units, more), not_ascii)) {
            _mm_storeu_si128((__m128i *)(target + out), _mm_packus_epi16(units, more));
            out += 16;
            index += 16;
            continue;
        }
        __m128i surrogates = _mm_or_si128(
            _mm_cmpeq_epi16(_mm_and_si128(units, surrogate_bits), surrogate),
            _mm_cmpeq_epi16(_mm_and_si128(more, surrogate_bits), surrogate));
        if (_mm_testz_si128(surrogates, surrogates)) {
            out += encode_block(units, target + out);
            out += encode_block(more, target + out);
            index += 16;
        } else {
            index = l10n_transcode_units(source, index, index + 16, count, swap, target, &out, &failed);
            if (failed) break;
        }
    }
    while (!failed && index + 8 <= count) {
        __m128i units = load_units(source, index, swap);
        __m128i surrogates = _mm_cmpeq_epi16(_mm_and_si128(units, surrogate_bits), surrogate);
        if (_mm_testz_si128(surrogates, surrogates)) {
            out += encode_block(units, target + out);
            index += 8;
        } else {
            index = l10n_transcode_units(source, index, index + 8, count, swap, target, &out, &failed);
        }
    }
    if (!failed) index = l10n_transcode_units(source, index, count, count, swap, target, &out, &failed);
    progress->units_read = index;
    progress->bytes_written = out;
    return !failed;
}

/// The vector loop, in two copies so the byte order is not tested per load.
__attribute__((target("ssse3,sse4.1"))) bool l10n_utf16_to_utf8_ssse3(
    const uint8_t *source, size_t unit_count, bool big_endian, uint8_t *target, l10n_transcode_progress *progress) {
    pthread_once(&tables_once, make_tables);
    return big_endian ? transcode(source, unit_count, true, target, progress)
                      : transcode(source, unit_count, false, target, progress);
}

#endif
