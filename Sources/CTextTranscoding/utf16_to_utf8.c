// Chooses the UTF-16 to UTF-8 kernel: the widest this CPU has (AVX-512, then SSSE3), one
// unit at a time on any other machine. `L10N_UTF16_KERNEL` (scalar, ssse3 or avx512) caps
// the choice for the whole process, so a test run, the fuzzer or a benchmark can exercise
// the fallbacks on a machine that has more.

#include "utf16_to_utf8.h"

#include "cpu_features.h"
#include "utf16_to_utf8_kernels.h"
#include "utf16_units.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static l10n_utf16_kernel best_kernel;
static pthread_once_t best_kernel_once = PTHREAD_ONCE_INIT;

static void choose_best_kernel(void) {
    l10n_utf16_kernel best = L10N_UTF16_KERNEL_SCALAR;
    for (int kernel = L10N_UTF16_KERNEL_AVX512; kernel > L10N_UTF16_KERNEL_SCALAR; kernel--) {
        if (l10n_utf16_kernel_available((l10n_utf16_kernel)kernel)) {
            best = (l10n_utf16_kernel)kernel;
            break;
        }
    }
    const char *cap = getenv("L10N_UTF16_KERNEL");
    if (cap != NULL) {
        static const char *const names[] = {"scalar", "ssse3", "avx512"};
        for (int kernel = 0; kernel < 3; kernel++) {
            if (strcmp(cap, names[kernel]) == 0 && kernel < (int)best) best = (l10n_utf16_kernel)kernel;
        }
    }
    best_kernel = best;
}

l10n_utf16_kernel l10n_utf16_best_kernel(void) {
    pthread_once(&best_kernel_once, choose_best_kernel);
    return best_kernel;
}

bool l10n_utf16_kernel_available(l10n_utf16_kernel kernel) {
    const l10n_cpu_features_t *features = l10n_cpu_features();
    switch (kernel) {
    case L10N_UTF16_KERNEL_SCALAR: return true;
    case L10N_UTF16_KERNEL_SSSE3: return features->ssse3_and_sse41;
    case L10N_UTF16_KERNEL_AVX512: return features->avx512_bw_vl_vbmi2;
    }
    return false;
}

bool l10n_utf16_to_utf8_using(
    l10n_utf16_kernel kernel, const uint8_t *source, size_t unit_count, bool big_endian, uint8_t *target,
    l10n_transcode_progress *progress) {
#if defined(__x86_64__)
    if (kernel == L10N_UTF16_KERNEL_AVX512 && l10n_utf16_kernel_available(kernel)) {
        return l10n_utf16_to_utf8_avx512(source, unit_count, big_endian, target, progress);
    }
    if (kernel >= L10N_UTF16_KERNEL_SSSE3 && l10n_utf16_kernel_available(L10N_UTF16_KERNEL_SSSE3)) {
        return l10n_utf16_to_utf8_ssse3(source, unit_count, big_endian, target, progress);
    }
#endif
    bool failed = false;
    size_t out = 0;
    bool swap = big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
    progress->units_read = l10n_transcode_units(source, 0, unit_count, unit_count, swap, target, &out, &failed);
    progress->bytes_written = out;
    return !failed;
}

bool l10n_utf16_to_utf8(
    const uint8_t *source, size_t unit_count, bool big_endian, uint8_t *target, l10n_transcode_progress *progress) {
    return l10n_utf16_to_utf8_using(l10n_utf16_best_kernel(), source, unit_count, big_endian, target, progress);
}
