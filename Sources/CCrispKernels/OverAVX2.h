// Source-over's eight-pixel steps in AVX2, shared by the kernels that blend one colour or a row
// (SourceOverAVX2.c) and those that shade a gradient and blend it in the same step
// (GradientAVX2.c). Internal to the C target; SourceOverAVX2.c says how the arithmetic works.

#ifndef CRISP_OVER_AVX2_H
#define CRISP_OVER_AVX2_H

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define CRISP_AVX2 __attribute__((target("avx2"), always_inline)) static inline

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

CRISP_AVX2 __m256i load8(const uint32_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
CRISP_AVX2 void store8(uint32_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }

/// A short span's `n` (1…7) pixels in one register: pixels 0–3 and n−4…n−1 when n ≥ 4, pixels
/// 0, 1, n−2, n−1 when n is 2 or 3, pixel 0 alone when n = 1. A pixel in two lanes gives the same
/// result in both, so `store_short` writes it twice with one value; nothing outside the span is
/// read or written.
CRISP_AVX2 __m256i load_short(const uint32_t *p, ptrdiff_t n) {
    if (n >= 4) {
        __m128i low = _mm_loadu_si128((const __m128i *)p), high = _mm_loadu_si128((const __m128i *)(p + n - 4));
        return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
    }
    if (n >= 2) {
        __m128i low = _mm_loadl_epi64((const __m128i *)p), high = _mm_loadl_epi64((const __m128i *)(p + n - 2));
        return _mm256_castsi128_si256(_mm_unpacklo_epi64(low, high));
    }
    return _mm256_castsi128_si256(_mm_cvtsi32_si128((int)p[0]));
}

/// Stores what `load_short` loaded, after blending.
CRISP_AVX2 void store_short(uint32_t *p, ptrdiff_t n, __m256i v) {
    __m128i low = _mm256_castsi256_si128(v);
    if (n >= 4) {
        _mm_storeu_si128((__m128i *)p, low);
        _mm_storeu_si128((__m128i *)(p + n - 4), _mm256_extracti128_si256(v, 1));
    } else if (n >= 2) {
        _mm_storel_epi64((__m128i *)p, low);
        _mm_storel_epi64((__m128i *)(p + n - 2), _mm_unpackhi_epi64(low, low));
    } else {
        p[0] = (uint32_t)_mm_cvtsi128_si32(low);
    }
}

/// Eight coverage bytes, one per pixel.
static inline uint64_t coverage_word(const uint8_t *c) {
    uint64_t w;
    memcpy(&w, c, 8);
    return w;
}

/// The coverage bytes of `load_short`'s lanes.
static inline uint64_t coverage_short(const uint8_t *c, ptrdiff_t n) {
    if (n >= 4) {
        uint32_t low, high;
        memcpy(&low, c, 4);
        memcpy(&high, c + n - 4, 4);
        return (uint64_t)low | (uint64_t)high << 32;
    }
    if (n >= 2) return (uint64_t)c[0] | (uint64_t)c[1] << 8 | (uint64_t)c[n - 2] << 16 | (uint64_t)c[n - 1] << 24;
    return c[0];
}

/// Eight sources over eight pixels at one coverage (`scales`: below 255).
CRISP_AVX2 __m256i row_step(__m256i s, __m256i d, int scales, __m256i f, __m256i al, __m256i ah) {
    return over8(scales ? scale8(s, f, f) : s, d, al, ah);
}

/// Eight sources over eight pixels with coverage bytes `c`. Eight full coverages skip the
/// scaling (x·255/255 rounds to x exactly): a gradient's joined rows are mostly interior.
CRISP_AVX2 __m256i row_coverage_step(__m256i s, uint64_t c, __m256i d, __m256i al, __m256i ah) {
    if (c == UINT64_MAX) return over8(s, d, al, ah);
    __m256i low, high;
    coverage8(c, &low, &high);
    return over8(scale8(s, low, high), d, al, ah);
}

#endif

#endif
