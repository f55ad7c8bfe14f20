// Chooses the search `StringsScanner` runs over strings and comments: the widest this CPU has
// (AVX-512 BW, then AVX2), Swift's sixteen-byte loop on any other machine. `L10N_SCAN_KERNEL`
// (portable, avx2 or avx512) caps the choice for the whole process, so a test run, the fuzzer
// or a benchmark can exercise the fallbacks on a machine that has more.

#include "byte_search.h"

#include "cpu_features.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static l10n_byte_search_kernel best_kernel;
static pthread_once_t best_kernel_once = PTHREAD_ONCE_INIT;

static void choose_best_kernel(void) {
    l10n_byte_search_kernel best = L10N_BYTE_SEARCH_PORTABLE;
    for (int kernel = L10N_BYTE_SEARCH_AVX512; kernel > L10N_BYTE_SEARCH_PORTABLE; kernel--) {
        if (l10n_byte_search_kernel_available((l10n_byte_search_kernel)kernel)) {
            best = (l10n_byte_search_kernel)kernel;
            break;
        }
    }
    const char *cap = getenv("L10N_SCAN_KERNEL");
    if (cap != NULL) {
        static const char *const names[] = {"portable", "avx2", "avx512"};
        for (int kernel = 0; kernel < 3; kernel++) {
            if (strcmp(cap, names[kernel]) == 0 && kernel < (int)best) best = (l10n_byte_search_kernel)kernel;
        }
    }
    best_kernel = best;
}

l10n_byte_search_kernel l10n_byte_search_best_kernel(void) {
    pthread_once(&best_kernel_once, choose_best_kernel);
    return best_kernel;
}

bool l10n_byte_search_kernel_available(l10n_byte_search_kernel kernel) {
    const l10n_cpu_features_t *features = l10n_cpu_features();
    switch (kernel) {
    case L10N_BYTE_SEARCH_PORTABLE: return true;
    case L10N_BYTE_SEARCH_AVX2: return features->avx2;
    case L10N_BYTE_SEARCH_AVX512: return features->avx512_bw;
    }
    return false;
}
