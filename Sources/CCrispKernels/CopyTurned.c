// A picture turned by quarter turns or mirrored, copied pixel for pixel (the first frame of
// the emulator's rotation: the old screen turned into the new one's shape). Destination pixel
// (x, y) is src[start + x·sx + y·sy]. When a destination row walks a source column (|sx| is the
// source's width, a quarter turn), 4 × 4 blocks are transposed in SSE2 registers: four 16-byte
// loads along source rows, four stores along destination rows; a mirrored row (sx = −1) is
// copied backwards, an upright one (sx = 1) with memcpy.

#include "CCrispKernels.h"
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void crisp_copy_turned(uint32_t *dst, ptrdiff_t dst_stride, ptrdiff_t x0, ptrdiff_t x1, ptrdiff_t y0, ptrdiff_t y1,
                       const uint32_t *src, ptrdiff_t start, ptrdiff_t sx, ptrdiff_t sy) {
    if (sx == 1 || sx == -1) {
        for (ptrdiff_t y = y0; y < y1; y++) {
            uint32_t *d = dst + y * dst_stride;
            const uint32_t *s = src + start + x0 * sx + y * sy;
            if (sx == 1) memcpy(d + x0, s, (size_t)(x1 - x0) * 4);
            else for (ptrdiff_t x = x0; x < x1; x++, s--) d[x] = *s;
        }
        return;
    }
    // Tiles of 256 × 256: 1.8–2.0 ms for the retina iPad's 3 Mpx against 2.4–2.8 for 32–64 and
    // 3.7 for whole rows (a C bench on the AMD EPYC; the Swift loop this replaced took 6–13).
    const ptrdiff_t T = 256;
    for (ptrdiff_t ty = y0; ty < y1; ty += T) {
        ptrdiff_t ty1 = ty + T < y1 ? ty + T : y1;
        for (ptrdiff_t tx = x0; tx < x1; tx += T) {
            ptrdiff_t tx1 = tx + T < x1 ? tx + T : x1;
            ptrdiff_t y = ty;
#if defined(__SSE2__)
            if (sy == 1 || sy == -1) {
                for (; y + 4 <= ty1; y += 4) {
                    ptrdiff_t x = tx;
                    for (; x + 4 <= tx1; x += 4) {
                        // Four source runs (one per destination column x + i), each holding that
                        // column's pixels of the four destination rows; a 4 × 4 transpose.
                        __m128i r[4];
                        for (int i = 0; i < 4; i++) {
                            const uint32_t *s = src + start + (x + i) * sx + y * sy;
                            if (sy == 1) r[i] = _mm_loadu_si128((const __m128i *)s);
                            else r[i] = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(s - 3)), 0x1B);
                        }
                        __m128i a = _mm_unpacklo_epi32(r[0], r[1]), b = _mm_unpackhi_epi32(r[0], r[1]);
                        __m128i c = _mm_unpacklo_epi32(r[2], r[3]), d = _mm_unpackhi_epi32(r[2], r[3]);
                        _mm_storeu_si128((__m128i *)(dst + y * dst_stride + x), _mm_unpacklo_epi64(a, c));
                        _mm_storeu_si128((__m128i *)(dst + (y + 1) * dst_stride + x), _mm_unpackhi_epi64(a, c));
                        _mm_storeu_si128((__m128i *)(dst + (y + 2) * dst_stride + x), _mm_unpacklo_epi64(b, d));
                        _mm_storeu_si128((__m128i *)(dst + (y + 3) * dst_stride + x), _mm_unpackhi_epi64(b, d));
                    }
                    for (; x < tx1; x++)
                        for (int j = 0; j < 4; j++) dst[(y + j) * dst_stride + x] = src[start + x * sx + (y + j) * sy];
                }
            }
#endif
            for (; y < ty1; y++)
                for (ptrdiff_t x = tx; x < tx1; x++) dst[y * dst_stride + x] = src[start + x * sx + y * sy];
        }
    }
}
