#include "cpu_features.h"

#include <pthread.h>

static l10n_cpu_features_t features;
static pthread_once_t features_once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__)

#include <cpuid.h>

static void detect(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return;
    // Leaf 1, ECX: bit 9 SSSE3, bit 19 SSE4.1, bit 27 OSXSAVE (XGETBV may be used).
    features.ssse3_and_sse41 = (ecx & (1u << 9)) && (ecx & (1u << 19));
    if (!(ecx & (1u << 27))) return;
    // XCR0 bits 1 and 2: the kernel saves the SSE and AVX registers.
    unsigned xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6) != 6) return;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return;
    // Leaf 7, EBX bit 5: AVX2.
    features.avx2 = (ebx & (1u << 5)) != 0;
    // EBX bits 16, 30, 31: AVX-512 F, BW, VL; ECX bit 6: VBMI2. XCR0 bits 5 to 7: the kernel
    // saves the mask registers and all 512 bits of the 32 vector registers.
    bool avx512_state = (xcr0_low & 0xE0) == 0xE0;
    features.avx512_bw = avx512_state && (ebx & (1u << 16)) && (ebx & (1u << 30));
    features.avx512_bw_vl_vbmi2 = features.avx512_bw && (ebx & (1u << 31)) && (ecx & (1u << 6));
}

#else

static void detect(void) {}

#endif

const l10n_cpu_features_t *l10n_cpu_features(void) {
    pthread_once(&features_once, detect);
    return &features;
}
