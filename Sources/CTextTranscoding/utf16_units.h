// The one-unit-at-a-time UTF-16 to UTF-8 step every transcoding kernel shares: the whole
// transcoder on a machine without vector instructions, and what each vector kernel falls
// back to for a block holding a surrogate.

#ifndef L10N_UTF16_UNITS_H
#define L10N_UTF16_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t l10n_read_unit(const uint8_t *source, size_t index, bool swap) {
    uint16_t unit;
    memcpy(&unit, source + 2 * index, 2);
    return swap ? (uint16_t)__builtin_bswap16(unit) : unit;
}

/// Transcodes units one at a time from `index` until `end` is reached (a pair that starts
/// before `end` is read whole, up to `count`); returns where it stopped, which is below `end`
/// only at an unpaired surrogate (`*failed` is then set). `swap`: the text's byte order is not
/// the machine's.
static inline size_t l10n_transcode_units(
    const uint8_t *source, size_t index, size_t end, size_t count, bool swap, uint8_t *target, size_t *written,
    bool *failed) {
    size_t out = *written;
    while (index < end) {
        uint32_t unit = l10n_read_unit(source, index, swap);
        if (unit < 0x80) {
            target[out++] = (uint8_t)unit;
        } else if (unit < 0x800) {
            target[out++] = (uint8_t)(0xC0 | unit >> 6);
            target[out++] = (uint8_t)(0x80 | (unit & 0x3F));
        } else if ((unit & 0xF800) != 0xD800) {
            target[out++] = (uint8_t)(0xE0 | unit >> 12);
            target[out++] = (uint8_t)(0x80 | ((unit >> 6) & 0x3F));
            target[out++] = (uint8_t)(0x80 | (unit & 0x3F));
        } else {
            uint32_t next = index + 1 < count ? l10n_read_unit(source, index + 1, swap) : 0;
            if (unit >= 0xDC00 || (next & 0xFC00) != 0xDC00) {
                *failed = true;
                break;
            }
            uint32_t scalar = 0x10000 + ((unit & 0x3FF) << 10 | (next & 0x3FF));
            target[out++] = (uint8_t)(0xF0 | scalar >> 18);
            target[out++] = (uint8_t)(0x80 | ((scalar >> 12) & 0x3F));
            target[out++] = (uint8_t)(0x80 | ((scalar >> 6) & 0x3F));
            target[out++] = (uint8_t)(0x80 | (scalar & 0x3F));
            index++;
        }
        index++;
    }
    *written = out;
    return index;
}

#endif
