#ifndef L10N_UTF8_VALIDATION_H
#define L10N_UTF8_VALIDATION_H

#include <stddef.h>
#include <stdint.h>

/// Checks `text` from byte `start` (at least 3) on, 32 bytes at a time with AVX2 where the CPU
/// has it, each byte against the three before it (the rules of `UTF8Validation` in
/// LocalizationCore, which checks what is left: the first bytes and the last ones).
///
/// Returns the offset of the first byte not checked (every byte before it breaks no rule), or
/// `SIZE_MAX` when a byte breaks one; `start` itself on a machine without AVX2.
size_t l10n_utf8_check_blocks(const uint8_t *text, size_t start, size_t count);

#endif
