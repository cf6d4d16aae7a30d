// A picture magnified 2× bilinearly, for frames drawn at half resolution (the emulator's
// rotation): destination pixel (x, y) samples the source at ((x + ½)/2 − ½, (y + ½)/2 − ½), so
// each takes its own source pixel at 3/4 and its nearer neighbour at 1/4 in each direction —
// weights 9, 3, 3 and 1 sixteenths, rounded once — with the edges clamped. Premultiplied pixels
// stay premultiplied (every channel gets the same weights).
//
// A destination row is two passes: the vertical blend of its two source rows as 16-bit lanes
// (3·near + far ≤ 1020), then the horizontal blend of each lane with its left neighbour (even
// pixels) or right one (odd pixels), (3·v + side + 8) >> 4 ≤ 255. With SSE2 (every x86-64) the
// second pass takes two source pixels a step and stores four destination pixels; elsewhere, and
// for an odd width's last pixel, the same arithmetic runs a channel at a time. With AVX2
// (`crisp_magnify2x_avx2`, the same bits, the same row loop with each pass's AVX2 steps first)
// both passes take twice as much a step: sixteen lanes widened from sixteen bytes (`vpmovzxbw`,
// which keeps their order), four source pixels to eight destination ones (the unpacks and the
// pack work within each 128-bit half, which here is exactly two source pixels' four destination
// ones). 0.73–0.76 against 1.21 ms for the retina iPad's frame in a C bench of both on the AMD
// EPYC.

#include "CCrispKernels.h"
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CRISP_MAGNIFY_AVX2 1

// The vertical pass sixteen lanes a step; returns the lanes done.
__attribute__((target("avx2"))) static ptrdiff_t vertical_avx2(uint16_t *v, const uint8_t *near, const uint8_t *far,
                                                               ptrdiff_t lanes) {
    ptrdiff_t k = 0;
    for (; k + 16 <= lanes; k += 16) {
        __m256i n = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(near + k)));
        __m256i f = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(far + k)));
        _mm256_storeu_si256((__m256i *)(v + k), _mm256_add_epi16(_mm256_add_epi16(n, _mm256_add_epi16(n, n)), f));
    }
    return k;
}

// The horizontal pass four source pixels (eight destination ones) a step; returns the source
// pixels done.
__attribute__((target("avx2"))) static ptrdiff_t horizontal_avx2(uint8_t *out, const uint16_t *v, ptrdiff_t sw) {
    const __m256i eight = _mm256_set1_epi16(8);
    ptrdiff_t sx = 0;
    for (; sx + 4 <= sw; sx += 4) {
        const uint16_t *p = v + 4 * sx;
        __m256i m = _mm256_loadu_si256((const __m256i *)p);
        __m256i l = _mm256_loadu_si256((const __m256i *)(p - 4)), r = _mm256_loadu_si256((const __m256i *)(p + 4));
        __m256i m3 = _mm256_add_epi16(_mm256_add_epi16(m, _mm256_add_epi16(m, m)), eight);
        __m256i even = _mm256_srli_epi16(_mm256_add_epi16(m3, l), 4), odd = _mm256_srli_epi16(_mm256_add_epi16(m3, r), 4);
        _mm256_storeu_si256((__m256i *)(out + 8 * sx), _mm256_packus_epi16(_mm256_unpacklo_epi64(even, odd),
                                                                            _mm256_unpackhi_epi64(even, odd)));
    }
    return sx;
}
#endif

// Both kernels: `wide` takes each pass's AVX2 steps first (only on a CPU that has AVX2), then
// SSE2's and the scalar tail.
static void magnify2x(const uint32_t *src, ptrdiff_t src_width, ptrdiff_t src_height, ptrdiff_t src_stride,
                      uint32_t *dst, ptrdiff_t dst_stride, ptrdiff_t x0, ptrdiff_t x1, ptrdiff_t y0, ptrdiff_t y1,
                      uint16_t *scratch, uint32_t *row, int wide) {
    const ptrdiff_t sw = src_width, lanes = 4 * sw;
    // v[-1] and v[sw] (the clamped neighbours) sit either side of the row's lanes.
    uint16_t *v = scratch + 4;
    (void)wide;
    for (ptrdiff_t y = y0; y < y1; y++) {
        ptrdiff_t sy = y >> 1, fy = (y & 1) ? sy + 1 : sy - 1;
        if (fy < 0) fy = 0;
        if (fy >= src_height) fy = src_height - 1;
        const uint8_t *near = (const uint8_t *)(src + sy * src_stride), *far = (const uint8_t *)(src + fy * src_stride);
        ptrdiff_t k = 0;
#if defined(CRISP_MAGNIFY_AVX2)
        if (wide) k = vertical_avx2(v, near, far, lanes);
#endif
#if defined(__SSE2__)
        const __m128i zero = _mm_setzero_si128();
        for (; k + 16 <= lanes; k += 16) {
            __m128i n = _mm_loadu_si128((const __m128i *)(near + k)), f = _mm_loadu_si128((const __m128i *)(far + k));
            __m128i nl = _mm_unpacklo_epi8(n, zero), nh = _mm_unpackhi_epi8(n, zero);
            __m128i fl = _mm_unpacklo_epi8(f, zero), fh = _mm_unpackhi_epi8(f, zero);
            __m128i lo = _mm_add_epi16(_mm_add_epi16(nl, _mm_add_epi16(nl, nl)), fl);
            __m128i hi = _mm_add_epi16(_mm_add_epi16(nh, _mm_add_epi16(nh, nh)), fh);
            _mm_storeu_si128((__m128i *)(v + k), lo);
            _mm_storeu_si128((__m128i *)(v + k + 8), hi);
        }
#endif
        for (; k < lanes; k++) v[k] = (uint16_t)(3 * near[k] + far[k]);
        for (int c = 0; c < 4; c++) {
            v[c - 4] = v[c];
            v[lanes + c] = v[lanes - 4 + c];
        }
        int whole = x0 == 0 && x1 == 2 * sw;
        uint8_t *out = (uint8_t *)(whole ? dst + y * dst_stride : row);
        ptrdiff_t sx = 0;
#if defined(CRISP_MAGNIFY_AVX2)
        if (wide) sx = horizontal_avx2(out, v, sw);
#endif
#if defined(__SSE2__)
        const __m128i eight = _mm_set1_epi16(8);
        for (; sx + 2 <= sw; sx += 2) {
            const uint16_t *p = v + 4 * sx;
            __m128i m = _mm_loadu_si128((const __m128i *)p);
            __m128i l = _mm_loadu_si128((const __m128i *)(p - 4)), r = _mm_loadu_si128((const __m128i *)(p + 4));
            __m128i m3 = _mm_add_epi16(_mm_add_epi16(m, _mm_add_epi16(m, m)), eight);
            __m128i even = _mm_srli_epi16(_mm_add_epi16(m3, l), 4), odd = _mm_srli_epi16(_mm_add_epi16(m3, r), 4);
            __m128i packed = _mm_packus_epi16(_mm_unpacklo_epi64(even, odd), _mm_unpackhi_epi64(even, odd));
            _mm_storeu_si128((__m128i *)(out + 8 * sx), packed);
        }
#endif
        for (; sx < sw; sx++) {
            for (int c = 0; c < 4; c++) {
                const uint16_t *p = v + 4 * sx + c;
                out[8 * sx + c] = (uint8_t)((3 * p[0] + p[-4] + 8) >> 4);
                out[8 * sx + 4 + c] = (uint8_t)((3 * p[0] + p[4] + 8) >> 4);
            }
        }
        if (!whole) memcpy(dst + y * dst_stride + x0, row + x0, (size_t)(x1 - x0) * sizeof(uint32_t));
    }
}

void crisp_magnify2x(const uint32_t *src, ptrdiff_t src_width, ptrdiff_t src_height, ptrdiff_t src_stride,
                     uint32_t *dst, ptrdiff_t dst_stride, ptrdiff_t x0, ptrdiff_t x1, ptrdiff_t y0, ptrdiff_t y1,
                     uint16_t *scratch, uint32_t *row) {
    magnify2x(src, src_width, src_height, src_stride, dst, dst_stride, x0, x1, y0, y1, scratch, row, 0);
}

void crisp_magnify2x_avx2(const uint32_t *src, ptrdiff_t src_width, ptrdiff_t src_height, ptrdiff_t src_stride,
                          uint32_t *dst, ptrdiff_t dst_stride, ptrdiff_t x0, ptrdiff_t x1, ptrdiff_t y0, ptrdiff_t y1,
                          uint16_t *scratch, uint32_t *row) {
    magnify2x(src, src_width, src_height, src_stride, dst, dst_stride, x0, x1, y0, y1, scratch, row, 1);
}
