#ifndef L10N_BYTE_SEARCH_KERNELS_H
#define L10N_BYTE_SEARCH_KERNELS_H

// The vector kernels behind `l10n_first_stop`, each with its contract (callers check the CPU).

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
size_t l10n_first_stop_avx2(
    const uint8_t *text, size_t start, size_t count, uint8_t first, uint8_t second, bool or_non_ascii,
    bool *saw_non_ascii);
size_t l10n_first_stop_avx512(
    const uint8_t *text, size_t start, size_t count, uint8_t first, uint8_t second, bool or_non_ascii,
    bool *saw_non_ascii);
#endif

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

#endif
