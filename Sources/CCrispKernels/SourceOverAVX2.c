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
// A span's last 1–7 pixels go through the same step with `vpmaskmovd` loads and stores, so a
// short span (a 16-pixel polygon's rows are 1–16 pixels) costs one call and at most two steps,
// with no scalar loop. Whether a span is long enough to be worth the call at all is measured,
// not assumed (`KernelDispatch`, README "After branch avx2").
//
// Rejected: AVX-512 (the mask registers would make tails free, but the target machines that
// have AVX2 without AVX-512 are the common case, and a second set of kernels doubles what is
// tested); compiling the whole module with `-mavx2` (a library target takes no unsafe flags,
// and the package must still run on CPUs without AVX2: each kernel carries the target
// attribute instead and runs only after `__builtin_cpu_supports`).

#include "CCrispKernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include <string.h>

#define CRISP_AVX2 __attribute__((target("avx2"), always_inline)) static inline

int crisp_cpu_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
}

/// Each 16-bit lane times its factor (0…255) / 255, rounded exactly.
CRISP_AVX2 __m256i scale_lanes(__m256i lanes, __m256i factors) {
    __m256i w = _mm256_add_epi16(_mm256_mullo_epi16(lanes, factors), _mm256_set1_epi16(128));
    return _mm256_mulhi_epu16(w, _mm256_set1_epi16(257));
}

/// Every channel of eight pixels times its pixel's factor / 255; `low` holds the factors of
/// pixels 0, 1, 4, 5 (four lanes each), `high` those of 2, 3, 6, 7.
CRISP_AVX2 __m256i scale8(__m256i pixels, __m256i low, __m256i high) {
    __m256i zero = _mm256_setzero_si256();
    __m256i l = scale_lanes(_mm256_unpacklo_epi8(pixels, zero), low);
    __m256i h = scale_lanes(_mm256_unpackhi_epi8(pixels, zero), high);
    return _mm256_packus_epi16(l, h);
}

/// The `vpshufb` pattern that moves bytes `b0` and `b1` into four 16-bit lanes each.
#define LANES(b0, b1) b0, -1, b0, -1, b0, -1, b0, -1, b1, -1, b1, -1, b1, -1, b1, -1

/// `vpshufb` patterns that move byte `k` of each pixel into its four 16-bit lanes (high bytes
/// zeroed), for the `low` and the `high` half of `scale8`.
#define SPREAD(k, p0, p1) LANES(k + 4 * p0, k + 4 * p1)

/// The byte patterns for alpha at byte `k` of each pixel.
CRISP_AVX2 __m256i alpha_low(int k) {
    return k == 0 ? _mm256_setr_epi8(SPREAD(0, 0, 1), SPREAD(0, 0, 1)) : _mm256_setr_epi8(SPREAD(3, 0, 1), SPREAD(3, 0, 1));
}
CRISP_AVX2 __m256i alpha_high(int k) {
    return k == 0 ? _mm256_setr_epi8(SPREAD(0, 2, 3), SPREAD(0, 2, 3)) : _mm256_setr_epi8(SPREAD(3, 2, 3), SPREAD(3, 2, 3));
}

/// `s + d·(255 − alpha(s))/255` on eight pixels, alpha found by the patterns `al`, `ah`.
CRISP_AVX2 __m256i over8(__m256i s, __m256i d, __m256i al, __m256i ah) {
    __m256i inverse = _mm256_xor_si256(s, _mm256_set1_epi32(-1));
    return _mm256_add_epi32(s, scale8(d, _mm256_shuffle_epi8(inverse, al), _mm256_shuffle_epi8(inverse, ah)));
}

/// Eight coverage bytes (little-endian in `c`) spread to the `low` and `high` factor lanes.
CRISP_AVX2 void coverage8(uint64_t c, __m256i *low, __m256i *high) {
    // Both halves hold the eight bytes; pixels 0–3 read bytes 0–3, pixels 4–7 bytes 4–7.
    __m256i bytes = _mm256_set1_epi64x((long long)c);
    *low = _mm256_shuffle_epi8(bytes, _mm256_setr_epi8(LANES(0, 1), LANES(4, 5)));
    *high = _mm256_shuffle_epi8(bytes, _mm256_setr_epi8(LANES(2, 3), LANES(6, 7)));
}

/// The load/store mask of a span's last `n` (1…7) pixels.
CRISP_AVX2 __m256i tail_mask(ptrdiff_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

CRISP_AVX2 __m256i load8(const uint32_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
CRISP_AVX2 void store8(uint32_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }
CRISP_AVX2 __m256i load_tail(const uint32_t *p, __m256i m) { return _mm256_maskload_epi32((const int *)p, m); }
CRISP_AVX2 void store_tail(uint32_t *p, __m256i m, __m256i v) { _mm256_maskstore_epi32((int *)p, m, v); }

/// Eight coverage bytes, or the first `n` (1…7) with zeros after them.
static inline uint64_t coverage_word(const uint8_t *c) {
    uint64_t w;
    memcpy(&w, c, 8);
    return w;
}
static inline uint64_t coverage_tail(const uint8_t *c, ptrdiff_t n) {
    // Overlapping reads, never past the span: bytes read twice are the same bytes.
    if (n >= 4) {
        uint32_t low, high;
        memcpy(&low, c, 4);
        memcpy(&high, c + n - 4, 4);
        return (uint64_t)low | (uint64_t)high << (8 * (n - 4));
    }
    return (uint64_t)c[0] | (uint64_t)c[n / 2] << (8 * (n / 2)) | (uint64_t)c[n - 1] << (8 * (n - 1));
}

__attribute__((target("avx2")))
void crisp_over_color_avx2(uint32_t *row, ptrdiff_t count, uint32_t source, uint32_t coverage, uint32_t alpha_shift,
                           uint32_t set) {
    // The colour scaled once, in every lane; the destination's factor is 255 − its alpha byte.
    __m256i c = _mm256_set1_epi16((short)coverage);
    __m256i s = scale8(_mm256_set1_epi32((int)source), c, c);
    __m256i f = _mm256_shuffle_epi8(_mm256_xor_si256(s, _mm256_set1_epi32(-1)), alpha_low(alpha_shift == 0 ? 0 : 3));
    __m256i bits = _mm256_set1_epi32((int)set);
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        store8(row + i, _mm256_or_si256(_mm256_add_epi32(s, scale8(load8(row + i), f, f)), bits));
    }
    if (i < count) {
        __m256i m = tail_mask(count - i);
        store_tail(row + i, m, _mm256_or_si256(_mm256_add_epi32(s, scale8(load_tail(row + i, m), f, f)), bits));
    }
}

/// One step of `crisp_over_color_coverage_avx2`: eight pixels `d` under coverage `c`.
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
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t c = coverage_word(coverage + i);
        if (c == UINT64_MAX && opaque) {
            store8(row + i, _mm256_or_si256(s, bits));
        } else if (c != 0 || touches_all) {
            store8(row + i, color_coverage_step(s, c, load8(row + i), al, ah, bits));
        }
    }
    if (i < count) {
        uint64_t c = coverage_tail(coverage + i, count - i);
        if (c != 0 || touches_all) {
            __m256i m = tail_mask(count - i);
            store_tail(row + i, m, color_coverage_step(s, c, load_tail(row + i, m), al, ah, bits));
        }
    }
}

__attribute__((target("avx2")))
void crisp_over_row_avx2(uint32_t *row, ptrdiff_t count, const uint32_t *sources, uint32_t coverage) {
    __m256i al = alpha_low(3), ah = alpha_high(3), f = _mm256_set1_epi16((short)coverage);
    ptrdiff_t i = 0;
    if (coverage == 255) {
        for (; i + 8 <= count; i += 8) store8(row + i, over8(load8(sources + i), load8(row + i), al, ah));
        if (i < count) {
            __m256i m = tail_mask(count - i);
            store_tail(row + i, m, over8(load_tail(sources + i, m), load_tail(row + i, m), al, ah));
        }
        return;
    }
    for (; i + 8 <= count; i += 8) {
        store8(row + i, over8(scale8(load8(sources + i), f, f), load8(row + i), al, ah));
    }
    if (i < count) {
        __m256i m = tail_mask(count - i);
        store_tail(row + i, m, over8(scale8(load_tail(sources + i, m), f, f), load_tail(row + i, m), al, ah));
    }
}

/// One step of `crisp_over_row_coverage_avx2`: sources `s` over pixels `d` under coverage `c`.
CRISP_AVX2 __m256i row_coverage_step(__m256i s, uint64_t c, __m256i d, __m256i al, __m256i ah) {
    __m256i low, high;
    coverage8(c, &low, &high);
    return over8(scale8(s, low, high), d, al, ah);
}

__attribute__((target("avx2")))
void crisp_over_row_coverage_avx2(uint32_t *row, ptrdiff_t count, const uint32_t *sources,
                                  const uint8_t *coverage) {
    __m256i al = alpha_low(3), ah = alpha_high(3);
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t c = coverage_word(coverage + i);
        if (c != 0) store8(row + i, row_coverage_step(load8(sources + i), c, load8(row + i), al, ah));
    }
    if (i < count) {
        uint64_t c = coverage_tail(coverage + i, count - i);
        if (c != 0) {
            __m256i m = tail_mask(count - i);
            store_tail(row + i, m, row_coverage_step(load_tail(sources + i, m), c, load_tail(row + i, m), al, ah));
        }
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
