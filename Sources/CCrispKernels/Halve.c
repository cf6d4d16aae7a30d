// An image at half its width and height (rounded up): each pixel the rounded mean of the 2×2
// block under it, `(a + b + c + d + 2) >> 2` per channel, the last column or row of an odd size
// repeated (what `ImageLevel.halved` does in Swift, bit for bit: the pyramid minified drawing
// samples, and the rotation's half-resolution pictures).
//
// With SSE2 (every x86-64), four source pixels of each of the two rows a step: both rows
// widened to 16-bit lanes and added, each pixel's lanes added to its right neighbour's (the
// pairs are lanes 0–3 + 4–7 of each register), then rounded, shifted and packed: two
// destination pixels a step.

#include "CCrispKernels.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline uint32_t mean4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    const uint32_t low = 0x00FF00FFu, round = 0x00020002u;
    uint32_t even = (a & low) + (b & low) + (c & low) + (d & low) + round;
    uint32_t odd = ((a >> 8) & low) + ((b >> 8) & low) + ((c >> 8) & low) + ((d >> 8) & low) + round;
    return ((even >> 2) & low) | (((odd >> 2) & low) << 8);
}

void crisp_halve(const uint32_t *src, ptrdiff_t width, ptrdiff_t height, uint32_t *dst) {
    const ptrdiff_t w = (width + 1) / 2, h = (height + 1) / 2;
    for (ptrdiff_t y = 0; y < h; y++) {
        const uint32_t *row0 = src + (2 * y) * width;
        const uint32_t *row1 = src + (2 * y + 1 < height ? 2 * y + 1 : height - 1) * width;
        uint32_t *out = dst + y * w;
        ptrdiff_t x = 0;
#if defined(__SSE2__)
        const __m128i zero = _mm_setzero_si128(), two = _mm_set1_epi16(2);
        // Whole pairs: source pixels 2x … 2x + 3 of both rows exist while 2x + 3 < width.
        for (; 2 * x + 3 < width; x += 2) {
            __m128i t = _mm_loadu_si128((const __m128i *)(row0 + 2 * x));
            __m128i b = _mm_loadu_si128((const __m128i *)(row1 + 2 * x));
            // Lanes 0–3 pixel 0, 4–7 pixel 1 (lo), pixels 2 and 3 (hi); the two rows summed.
            __m128i lo = _mm_add_epi16(_mm_unpacklo_epi8(t, zero), _mm_unpacklo_epi8(b, zero));
            __m128i hi = _mm_add_epi16(_mm_unpackhi_epi8(t, zero), _mm_unpackhi_epi8(b, zero));
            // [pixel 0, pixel 2] + [pixel 1, pixel 3].
            __m128i sum = _mm_add_epi16(_mm_unpacklo_epi64(lo, hi), _mm_unpackhi_epi64(lo, hi));
            sum = _mm_srli_epi16(_mm_add_epi16(sum, two), 2);
            _mm_storel_epi64((__m128i *)(out + x), _mm_packus_epi16(sum, zero));
        }
#endif
        for (; x < w; x++) {
            ptrdiff_t x0 = 2 * x, x1 = 2 * x + 1 < width ? 2 * x + 1 : width - 1;
            out[x] = mean4(row0[x0], row0[x1], row1[x0], row1[x1]);
        }
    }
}
