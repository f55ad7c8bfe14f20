// The vector UTF-16 to UTF-8 kernels, each in its own file, that `l10n_utf16_to_utf8_using`
// chooses between; each has the contract of `l10n_utf16_to_utf8` and may only be called on
// a CPU with its instructions.

#ifndef L10N_UTF16_TO_UTF8_KERNELS_H
#define L10N_UTF16_TO_UTF8_KERNELS_H

#include "utf16_to_utf8.h"

/// Sixteen units per step, packed with SSSE3 byte shuffles (`utf16_to_utf8_ssse3.c`).
bool l10n_utf16_to_utf8_ssse3(
    const uint8_t *source, size_t unit_count, bool big_endian, uint8_t *target, l10n_transcode_progress *progress);

/// 32 units per step, packed with AVX-512 VBMI2 byte compresses (`utf16_to_utf8_avx512.c`).
bool l10n_utf16_to_utf8_avx512(
    const uint8_t *source, size_t unit_count, bool big_endian, uint8_t *target, l10n_transcode_progress *progress);

#endif
