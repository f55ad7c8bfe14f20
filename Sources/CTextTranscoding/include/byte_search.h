#ifndef L10N_BYTE_SEARCH_H
#define L10N_BYTE_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The ways the scanner can search, slowest first; all give the same offset.
typedef enum {
    /// Sixteen bytes per step in Swift (`ByteSearch`, SSE2 or NEON); in C, one byte at a time.
    L10N_BYTE_SEARCH_PORTABLE = 0,
    /// 32 bytes per step with AVX2.
    L10N_BYTE_SEARCH_AVX2 = 1,
    /// 64 bytes per step with AVX-512 BW, the last ones with a masked load.
    L10N_BYTE_SEARCH_AVX512 = 2,
} l10n_byte_search_kernel;

/// Whether this CPU (and its kernel) can run `kernel`.
bool l10n_byte_search_kernel_available(l10n_byte_search_kernel kernel);

/// The fastest available kernel, unless the environment variable `L10N_SCAN_KERNEL`
/// (`portable`, `avx2` or `avx512`, read once) names a slower one.
l10n_byte_search_kernel l10n_byte_search_best_kernel(void);

/// The offset of the first byte of `text` from `start` on (and before `count`) that is
/// `first`, `second`, below 0x0E (line breaks among them) or, if `or_non_ascii`, not ASCII;
/// `count` when none is. Sets `*saw_non_ascii` to true when a byte passed over, or one after
/// the byte found in the same block, is not ASCII, and leaves it as it was otherwise. Nothing
/// at or past `count` is read. 32 bytes per step; only where `L10N_BYTE_SEARCH_AVX2` is
/// available (one byte at a time on other architectures).
size_t l10n_first_stop_avx2(
    const uint8_t *text, size_t start, size_t count, uint8_t first, uint8_t second, bool or_non_ascii,
    bool *saw_non_ascii);

/// `l10n_first_stop_avx2` 64 bytes per step; only where `L10N_BYTE_SEARCH_AVX512` is available.
size_t l10n_first_stop_avx512(
    const uint8_t *text, size_t start, size_t count, uint8_t first, uint8_t second, bool or_non_ascii,
    bool *saw_non_ascii);

#endif
