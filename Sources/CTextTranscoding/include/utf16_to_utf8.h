#ifndef L10N_UTF16_TO_UTF8_H
#define L10N_UTF16_TO_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// How many bytes past three per unit the output of `l10n_utf16_to_utf8` must have room for:
/// its vector stores write whole 16-byte blocks, of which only a part may be kept.
#define L10N_UTF16_TO_UTF8_SLACK 16

/// How far `l10n_utf16_to_utf8` got.
typedef struct {
    /// UTF-16 units read: all of them, or the index of the unpaired surrogate it stopped at.
    size_t units_read;
    /// UTF-8 bytes written for the units read.
    size_t bytes_written;
} l10n_transcode_progress;

/// Transcodes `unit_count` UTF-16 units at `source` (in big-endian byte order when
/// `big_endian`, little-endian otherwise; no alignment needed) into UTF-8 at `target`, which
/// has room for `unit_count * 3 + L10N_UTF16_TO_UTF8_SLACK` bytes.
///
/// Returns true when every unit was transcoded; false when it stopped at an unpaired
/// surrogate, at unit `progress->units_read`, with the UTF-8 of every unit before it written.
/// Uses SSSE3 and SSE4.1 where the CPU has them, one unit at a time otherwise.
bool l10n_utf16_to_utf8(
    const uint8_t *source, size_t unit_count, bool big_endian, uint8_t *target, l10n_transcode_progress *progress);

#endif
