#ifndef L10N_UTF16_TO_UTF8_H
#define L10N_UTF16_TO_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// How many bytes past three per unit the output of `l10n_utf16_to_utf8` must have room for:
/// its vector stores write whole 64-byte blocks, of which only a part may be kept.
#define L10N_UTF16_TO_UTF8_SLACK 64

/// How far `l10n_utf16_to_utf8` got.
typedef struct {
    /// UTF-16 units read: all of them, or the index of the unpaired surrogate it stopped at.
    size_t units_read;
    /// UTF-8 bytes written for the units read.
    size_t bytes_written;
} l10n_transcode_progress;

/// The ways `l10n_utf16_to_utf8` can do its work, slowest first; all give the same result.
typedef enum {
    /// One unit at a time, on any CPU.
    L10N_UTF16_KERNEL_SCALAR = 0,
    /// Sixteen units per step with SSSE3 and SSE4.1 byte shuffles.
    L10N_UTF16_KERNEL_SSSE3 = 1,
    /// 32 units per step with AVX-512 (F, BW, VL, VBMI2) byte compresses.
    L10N_UTF16_KERNEL_AVX512 = 2,
} l10n_utf16_kernel;

/// Whether this CPU (and its kernel) can run `kernel`.
bool l10n_utf16_kernel_available(l10n_utf16_kernel kernel);

/// The kernel `l10n_utf16_to_utf8` uses: the fastest available one, unless the environment
/// variable `L10N_UTF16_KERNEL` (`scalar`, `ssse3` or `avx512`, read once) names a slower one.
l10n_utf16_kernel l10n_utf16_best_kernel(void);

/// Transcodes `unit_count` UTF-16 units at `source` (in big-endian byte order when
/// `big_endian`, little-endian otherwise; no alignment needed) into UTF-8 at `target`, which
/// has room for `unit_count * 3 + L10N_UTF16_TO_UTF8_SLACK` bytes.
///
/// Returns true when every unit was transcoded; false when it stopped at an unpaired
/// surrogate, at unit `progress->units_read`, with the UTF-8 of every unit before it written.
/// Uses `l10n_utf16_best_kernel()`.
bool l10n_utf16_to_utf8(
    const uint8_t *source, size_t unit_count, bool big_endian, uint8_t *target, l10n_transcode_progress *progress);

/// `l10n_utf16_to_utf8` with the given kernel, or the fastest available one below it when
/// the CPU lacks it (tests run each kernel the CPU has).
bool l10n_utf16_to_utf8_using(
    l10n_utf16_kernel kernel, const uint8_t *source, size_t unit_count, bool big_endian, uint8_t *target,
    l10n_transcode_progress *progress);

#endif
