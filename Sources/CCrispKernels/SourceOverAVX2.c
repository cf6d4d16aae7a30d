// Source-over in AVX2: eight premultiplied pixels a step, bit for bit the Swift kernels'
// (SourceOver+Lanes.swift) and so the scalar formulas' (Pixel.swift).
//
// Eight pixels are one 256-bit register. `vpunpcklbw`/`vpunpckhbw` against zero widen their
// bytes into two registers of 16-bit lanes (pixels 0, 1, 4, 5 and 2, 3, 6, 7: AVX2 unpacks
// within each 128-bit half), one `vpmullw` multiplies sixteen channels by their factors, and
// the exact rounded division by 255 is `(v + 128)·257 >> 16`, one `vpmulhuw`: for any integer
// w = v + 128 ≤ 65153, ⌊(w + w/256)/256⌋ = ⌊(w + ⌊w/256⌋)/256⌋, the scalar formula. `vpackuswb`
// puts the bytes back in place (the two unpacks' order undone). Factors come from bytes by
// `vpshufb`: 255 − alpha is the alpha byte of the complemented pixel, a coverage byte per pixel
// is broadcast from eight coverage bytes, each moved into its pixel's four lanes. The final
// `S′ + D·(1 − αS′)` is a 32-bit add (`vpaddd`), as the scalar code adds its packed words, so a
// pixel whose colour exceeds its alpha (caller memory may hold one) still comes out the same.
//
// Tails take no masked loads or stores (`vpmaskmovd` cost more than a whole eight-pixel step on
// the AMD EPYC this was measured on: a call for 1–7 pixels took 6–8 ns, one for 8 pixels 3–4):
// a span under eight pixels is loaded as two overlapping halves, blended in one step and
// stored back the same way; a longer span's last, partial step is a full step over its last
// eight pixels, read before the loop wrote any of them. So a short span (a 16-pixel polygon's
// rows are 1–16 pixels) costs one call and one or two steps, with no scalar loop. Whether a
// span is long enough to be worth the call at all is measured, not assumed (`KernelDispatch`,
// docs/performance.md, "After branch `avx2`").
//
// Rejected: AVX-512 (the mask registers would make tails free, but the target machines that
// have AVX2 without AVX-512 are the common case, and a second set of kernels doubles what is
// tested); compiling the whole module with `-mavx2` (a library target takes no unsafe flags,
// and the package must still run on CPUs without AVX2: each kernel carries the target
// attribute instead and runs only after `__builtin_cpu_supports`).

#include "CCrispKernels.h"

// Every thread starts undecided, with no span going to AVX2 (the header says why thread-local).
__attribute__((tls_model("initial-exec"))) _Thread_local ptrdiff_t crisp_dispatch_minimum_span = PTRDIFF_MAX;
__attribute__((tls_model("initial-exec"))) _Thread_local int crisp_dispatch_decided = 0;

#if defined(__x86_64__) || defined(__i386__)

#include "OverAVX2.h"

int crisp_cpu_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
}

// Every kernel has the same shape: a span under eight pixels is one short step; a longer one
// reads its last eight pixels first, runs eight at a time, and if pixels remain, blends those
// last eight from what it read and stores them over the end (the overlap gets the values the
// loop already wrote, computed from the same inputs). A shaded row's last eight sources are
// read after the loop: the row was usually just written a pixel at a time, and a wide load
// of words still in the store queue waits for them to reach the cache.

/// `s + d·f/255 | bits` on eight pixels: an already scaled colour over them.
CRISP_AVX2 __m256i color_step(__m256i s, __m256i f, __m256i bits, __m256i d) {
    return _mm256_or_si256(_mm256_add_epi32(s, scale8(d, f, f)), bits);
}

__attribute__((target("avx2")))
void crisp_over_color_avx2(uint32_t *row, ptrdiff_t count, uint32_t source, uint32_t coverage, uint32_t alpha_shift,
                           uint32_t set) {
    // The colour scaled once, in every lane; the destination's factor is 255 − its alpha byte.
    __m256i c = _mm256_set1_epi16((short)coverage);
    __m256i s = scale8(_mm256_set1_epi32((int)source), c, c);
    __m256i f = _mm256_shuffle_epi8(_mm256_xor_si256(s, _mm256_set1_epi32(-1)), alpha_low(alpha_shift == 0 ? 0 : 3));
    __m256i bits = _mm256_set1_epi32((int)set);
    if (count < 8) {
        if (count > 0) store_short(row, count, color_step(s, f, bits, load_short(row, count)));
        return;
    }
    __m256i last = load8(row + count - 8);
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) store8(row + i, color_step(s, f, bits, load8(row + i)));
    if (i < count) store8(row + count - 8, color_step(s, f, bits, last));
}

/// Eight pixels `d` under `source` with coverage bytes `c`.
CRISP_AVX2 __m256i color_coverage_step(__m256i source, uint64_t c, __m256i d, __m256i al, __m256i ah, __m256i bits) {
    __m256i low, high;
    coverage8(c, &low, &high);
    return _mm256_or_si256(over8(scale8(source, low, high), d, al, ah), bits);
}

__attribute__((target("avx2")))
void crisp_over_color_coverage_avx2(uint32_t *row, ptrdiff_t count, uint32_t source, const uint8_t *coverage,
                                    uint32_t alpha_shift, uint32_t set) {
    int k = alpha_shift == 0 ? 0 : 3;
    int opaque = ((source >> alpha_shift) & 0xFF) == 255, touches_all = set != 0;
    __m256i s = _mm256_set1_epi32((int)source), bits = _mm256_set1_epi32((int)set);
    __m256i al = alpha_low(k), ah = alpha_high(k);
    if (count < 8) {
        uint64_t c = count > 0 ? coverage_short(coverage, count) : 0;
        if (c != 0 || (touches_all && count > 0)) {
            store_short(row, count, color_coverage_step(s, c, load_short(row, count), al, ah, bits));
        }
        return;
    }
    __m256i last = load8(row + count - 8);
    uint64_t last_c = coverage_word(coverage + count - 8);
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t c = coverage_word(coverage + i);
        if (c == UINT64_MAX && opaque) {
            store8(row + i, _mm256_or_si256(s, bits));
        } else if (c != 0 || touches_all) {
            store8(row + i, color_coverage_step(s, c, load8(row + i), al, ah, bits));
        }
    }
    if (i < count && (last_c != 0 || touches_all)) {
        store8(row + count - 8, color_coverage_step(s, last_c, last, al, ah, bits));
    }
}

__attribute__((target("avx2")))
void crisp_over_row_avx2(uint32_t *row, ptrdiff_t count, const uint32_t *sources, uint32_t coverage) {
    __m256i al = alpha_low(3), ah = alpha_high(3), f = _mm256_set1_epi16((short)coverage);
    int scales = coverage != 255;
    if (count < 8) {
        if (count > 0) {
            store_short(row, count, row_step(load_short(sources, count), load_short(row, count), scales, f, al, ah));
        }
        return;
    }
    __m256i last = load8(row + count - 8);
    ptrdiff_t i = 0;
    if (scales) {
        for (; i + 8 <= count; i += 8) store8(row + i, row_step(load8(sources + i), load8(row + i), 1, f, al, ah));
    } else {
        for (; i + 8 <= count; i += 8) store8(row + i, row_step(load8(sources + i), load8(row + i), 0, f, al, ah));
    }
    if (i < count) store8(row + count - 8, row_step(load8(sources + count - 8), last, scales, f, al, ah));
}

__attribute__((target("avx2")))
void crisp_over_row_coverage_avx2(uint32_t *row, ptrdiff_t count, const uint32_t *sources,
                                  const uint8_t *coverage) {
    __m256i al = alpha_low(3), ah = alpha_high(3);
    if (count < 8) {
        uint64_t c = count > 0 ? coverage_short(coverage, count) : 0;
        if (c != 0) store_short(row, count, row_coverage_step(load_short(sources, count), c, load_short(row, count), al, ah));
        return;
    }
    __m256i last = load8(row + count - 8);
    uint64_t last_c = coverage_word(coverage + count - 8);
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t c = coverage_word(coverage + i);
        if (c != 0) store8(row + i, row_coverage_step(load8(sources + i), c, load8(row + i), al, ah));
    }
    if (i < count && last_c != 0) {
        store8(row + count - 8, row_coverage_step(load8(sources + count - 8), last_c, last, al, ah));
    }
}

#else

#include <stdlib.h>

// Not an x86 CPU: no AVX2, so `KernelDispatch` never calls the kernels below.
int crisp_cpu_has_avx2(void) { return 0; }
void crisp_over_color_avx2(uint32_t *row, ptrdiff_t count, uint32_t source, uint32_t coverage, uint32_t alpha_shift,
                           uint32_t set) { abort(); }
void crisp_over_color_coverage_avx2(uint32_t *row, ptrdiff_t count, uint32_t source, const uint8_t *coverage,
                                    uint32_t alpha_shift, uint32_t set) { abort(); }
void crisp_over_row_avx2(uint32_t *row, ptrdiff_t count, const uint32_t *sources, uint32_t coverage) { abort(); }
void crisp_over_row_coverage_avx2(uint32_t *row, ptrdiff_t count, const uint32_t *sources,
                                  const uint8_t *coverage) { abort(); }

#endif
