#ifndef L10N_CPU_FEATURES_H
#define L10N_CPU_FEATURES_H

#include <stdbool.h>

/// The instructions past baseline x86-64 that this module's vector code uses, and whether
/// this CPU (and, for AVX2 and AVX-512, the kernel, which must save the wider registers) has them.
typedef struct {
    bool ssse3_and_sse41;
    bool avx2;
    /// AVX-512 Foundation and BW (byte lanes and 64-bit byte masks), with the kernel saving
    /// the mask and 512-bit registers.
    bool avx512_bw;
    /// AVX-512 Foundation, BW (16-bit lanes), VL and VBMI2 (byte compress), with the kernel
    /// saving the mask and 512-bit registers.
    bool avx512_bw_vl_vbmi2;
} l10n_cpu_features_t;

/// Asked of CPUID once per process; all false on other architectures.
const l10n_cpu_features_t *l10n_cpu_features(void);

#endif
