// The rasterizer's cells resolved and composited in one pass, eight pixels a step, in AVX2:
// a solid colour under source-over into native pixels, straight from a row's accumulated
// coverage differences (Scan/Rasterizer+Resolve.swift) to the destination.
//
// The general path resolves a row's cells into coverage bytes (`scanRow`, four cells a step in
// SSE2 lanes, a cell at a time for runs under four), lists the row's pieces, and hands each
// piece to the blitter, whose kernel loads the bytes again (SourceOverAVX2.c). Here one call
// takes a stretch of cells: a step loads eight cells and clears them, adds them up (two shifted
// adds within each 128-bit half, the low half's total into the high half, the running sum into
// all eight lanes), applies the fill rule in 32-bit lanes, and moves each result's low byte
// into its pixel's four 16-bit factor lanes with the two `vpshufb` patterns `coverage8` uses
// for coverage bytes; the blend is `over8`, shared with the other source-over kernels
// (OverAVX2.h). Every value is the Swift path's: integer sums are exact in any order (and wrap
// alike; the rasterizer keeps the sums a non-zero kernel meets within 32 bits, the winding
// limit in its essay, so only even-odd's wrap, harmlessly), the rule is `NonZeroRule`/`EvenOddRule`'s lane-wise form (`alphas`), and a byte is
// the low byte of its lane, as `UInt8(truncatingIfNeeded:)` takes it; the blend gives a pixel
// the same value from any lane (SourceOverAVX2.c), a block of zero coverage is left alone and
// a block of full coverage under an opaque colour is stored, as there.
//
// The stretch's last cells (fewer than eight) are one step over eight cells with the lanes
// past the stretch masked out of the sums and stored back as they were (they may be the next
// run's), and their pixels in `load_short`'s layout, the results permuted into it by one
// `vpermd`; so a hairline's row of two to seven cells is one call and one step.
//
// The same steps without the blend write the coverage bytes alone, eight a step, for the
// blitters that composite coverage themselves (gradients, clipped fills, glyph and alpha masks:
// `Rasterizer.resolveRowsCoverage`). Measured (docs/performance.md, "After branch `raster3`"): polys_nz_40 −32 %,
// hairlines −25 % instructions a render against the general path, the same pixels. Not tried:
// a table of the colour scaled by each coverage level, which would cost a gather a step
// (`vpgatherdd`, which branch `gradfuse` measured no faster than eight scalar loads here).

#include "CCrispKernels.h"
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)

#include "OverAVX2.h"

/// One pixel's worth of accumulated coverage (`Rasterizer.fullCoverage`).
#define FULL (1 << 17)

/// The running sums of eight cells after `carry` (in every lane).
CRISP_AVX2 __m256i prefix8(__m256i v, __m256i carry) {
    __m256i s = _mm256_add_epi32(v, _mm256_slli_si256(v, 4));
    s = _mm256_add_epi32(s, _mm256_slli_si256(s, 8));
    // Each half's total in all its lanes; the low half's moved into the high half.
    __m256i totals = _mm256_shuffle_epi32(s, 0xFF);
    s = _mm256_add_epi32(s, _mm256_permute2x128_si256(totals, totals, 0x08));
    return _mm256_add_epi32(s, carry);
}

/// The last lane of `s` in every lane.
CRISP_AVX2 __m256i last_lane(__m256i s) { return _mm256_permutevar8x32_epi32(s, _mm256_set1_epi32(7)); }

/// The running sums of the eight cells at `cells` after `*carry`, which becomes the last of
/// them; the cells are cleared.
CRISP_AVX2 __m256i sums8(int32_t *cells, __m256i *carry) {
    __m256i *at = (__m256i *)cells;
    __m256i sums = prefix8(_mm256_loadu_si256(at), *carry);
    _mm256_storeu_si256(at, _mm256_setzero_si256());
    *carry = last_lane(sums);
    return sums;
}

/// `sums8` for the first `n` (1…7) cells: the others count as 0 and are stored back as they
/// were (they may be the next run's).
CRISP_AVX2 __m256i sums_short(int32_t *cells, ptrdiff_t n, __m256i *carry) {
    __m256i *at = (__m256i *)cells;
    __m256i inside = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    __m256i v = _mm256_loadu_si256(at);
    _mm256_storeu_si256(at, _mm256_andnot_si256(inside, v));
    __m256i sums = prefix8(_mm256_and_si256(v, inside), *carry);
    *carry = last_lane(sums);
    return sums;
}

/// Coverage sums to levels 0…255 (in the low byte of each lane), as `NonZeroRule.alphas` or
/// `EvenOddRule.alphas`: |s| clamped to one pixel, or s folded with period two pixels; then
/// (a·255 + 2¹⁶) >> 17 with the product as a shift and a subtraction.
CRISP_AVX2 __m256i levels8(__m256i s, int even_odd) {
    __m256i full = _mm256_set1_epi32(FULL), a;
    if (even_odd) {
        a = _mm256_and_si256(s, _mm256_set1_epi32(2 * FULL - 1));
        __m256i folded = _mm256_sub_epi32(_mm256_set1_epi32(2 * FULL), a);
        a = _mm256_blendv_epi8(a, folded, _mm256_cmpgt_epi32(a, full));
    } else {
        a = _mm256_min_epi32(_mm256_abs_epi32(s), full);
    }
    __m256i product = _mm256_sub_epi32(_mm256_slli_epi32(a, 8), a);
    return _mm256_srai_epi32(_mm256_add_epi32(product, _mm256_set1_epi32(65536)), 17);
}

/// The factor lanes of eight levels (one per 32-bit lane, low byte): `low` for pixels 0, 1, 4,
/// 5, `high` for 2, 3, 6, 7, as `coverage8` lays them out.
CRISP_AVX2 void factors8(__m256i levels, __m256i *low, __m256i *high) {
    *low = _mm256_shuffle_epi8(levels, _mm256_setr_epi8(LANES(0, 4), LANES(0, 4)));
    *high = _mm256_shuffle_epi8(levels, _mm256_setr_epi8(LANES(8, 12), LANES(8, 12)));
}

/// For a short step of `n` (1…7) pixels, the lane whose level each of `load_short`'s lanes
/// takes: pixels 0–3 and n−4…n−1, or 0, 1, n−2, n−1, or 0.
static const int32_t short_lanes[8][8] = {
    {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 0, 1, 0, 0, 0, 0}, {0, 1, 1, 2, 0, 0, 0, 0},
    {0, 1, 2, 3, 0, 1, 2, 3}, {0, 1, 2, 3, 1, 2, 3, 4}, {0, 1, 2, 3, 2, 3, 4, 5}, {0, 1, 2, 3, 3, 4, 5, 6},
};

/// A stretch's last `n` (1…7) cells, or all of a short stretch's, as one masked step after
/// `carry`; returns the running sum after them in every lane.
CRISP_AVX2 __m256i over_short(uint32_t *row, int32_t *cells, ptrdiff_t n, uint32_t source, __m256i carry,
                              int even_odd) {
    __m256i levels = _mm256_and_si256(levels8(sums_short(cells, n, &carry), even_odd), _mm256_set1_epi32(0xFF));
    levels = _mm256_permutevar8x32_epi32(levels, _mm256_loadu_si256((const __m256i *)short_lanes[n]));
    if (!_mm256_testz_si256(levels, levels)) {
        __m256i low, high;
        factors8(levels, &low, &high);
        __m256i s = scale8(_mm256_set1_epi32((int)source), low, high);
        store_short(row, n, over8(s, load_short(row, n), alpha_low(3), alpha_high(3)));
    }
    return carry;
}

/// A stretch of eight cells or more: whole steps, then `over_short` for what is left.
CRISP_AVX2 int32_t over_long(uint32_t *row, int32_t *cells, ptrdiff_t count, uint32_t source, int32_t sum,
                             int even_odd) {
    __m256i s = _mm256_set1_epi32((int)source), al = alpha_low(3), ah = alpha_high(3);
    __m256i bytes = _mm256_set1_epi32(0xFF), carry = _mm256_set1_epi32(sum);
    int opaque = source >> 24 == 255;
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i levels = _mm256_and_si256(levels8(sums8(cells + i, &carry), even_odd), bytes);
        if (_mm256_testz_si256(levels, levels)) continue;
        if (opaque && _mm256_movemask_epi8(_mm256_cmpeq_epi32(levels, bytes)) == -1) {
            store8(row + i, s);
            continue;
        }
        __m256i low, high;
        factors8(levels, &low, &high);
        store8(row + i, over8(scale8(s, low, high), load8(row + i), al, ah));
    }
    if (i < count) carry = over_short(row + i, cells + i, count - i, source, carry, even_odd);
    return _mm_cvtsi128_si32(_mm256_castsi256_si128(carry));
}

// A short stretch (a thin stroke's row: two to seven cells) takes the entry's own path, which
// needs no stack frame; a longer one calls on to the loop, out of line (inlined, its registers
// made every call save and realign the stack).
__attribute__((target("avx2"), noinline))
static int32_t over_long_nonzero(uint32_t *row, int32_t *cells, ptrdiff_t count, uint32_t source, int32_t sum) {
    return over_long(row, cells, count, source, sum, 0);
}

__attribute__((target("avx2"), noinline))
static int32_t over_long_evenodd(uint32_t *row, int32_t *cells, ptrdiff_t count, uint32_t source, int32_t sum) {
    return over_long(row, cells, count, source, sum, 1);
}

/// Eight levels' low bytes (one per 32-bit lane) as eight coverage bytes at `p`.
CRISP_AVX2 void store_levels(uint8_t *p, __m256i levels) {
    __m256i packed = _mm256_shuffle_epi8(levels, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                                                 0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    __m128i both = _mm_unpacklo_epi32(_mm256_castsi256_si128(packed), _mm256_extracti128_si256(packed, 1));
    _mm_storel_epi64((__m128i *)p, both);
}

/// A step of eight untouched cells (all 0: a wide shape's interior, which a gradient's joined
/// row is mostly) leaves the running sum as it is, so its eight bytes are the level of the sum
/// carried in: stored from `flat` (that level in every byte, worked out when the first such
/// step after a touched one comes) with no prefix sum, no clearing store and nothing on the
/// carry's chain of latencies. The bytes are the same either way.
CRISP_AVX2 int32_t cells_coverage(uint8_t *mask, int32_t *cells, ptrdiff_t count, int32_t sum, int even_odd) {
    __m256i carry = _mm256_set1_epi32(sum);
    uint64_t flat = 0;
    int flat_known = 0;
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(cells + i));
        if (_mm256_testz_si256(v, v)) {
            if (!flat_known) {
                flat = (uint64_t)(uint8_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(levels8(carry, even_odd)))
                       * 0x0101010101010101ull;
                flat_known = 1;
            }
            memcpy(mask + i, &flat, 8);
            continue;
        }
        flat_known = 0;
        store_levels(mask + i, levels8(sums8(cells + i, &carry), even_odd));
    }
    if (i < count) store_levels(mask + i, levels8(sums_short(cells + i, count - i, &carry), even_odd));
    return _mm_cvtsi128_si32(_mm256_castsi256_si128(carry));
}

__attribute__((target("avx2")))
int32_t crisp_cells_coverage_nonzero_avx2(uint8_t *mask, int32_t *cells, ptrdiff_t count, int32_t sum) {
    return cells_coverage(mask, cells, count, sum, 0);
}

__attribute__((target("avx2")))
int32_t crisp_cells_coverage_evenodd_avx2(uint8_t *mask, int32_t *cells, ptrdiff_t count, int32_t sum) {
    return cells_coverage(mask, cells, count, sum, 1);
}

__attribute__((target("avx2")))
int32_t crisp_over_cells_nonzero_avx2(uint32_t *row, int32_t *cells, ptrdiff_t count, uint32_t source, int32_t sum) {
    if (count >= 8) return over_long_nonzero(row, cells, count, source, sum);
    return _mm_cvtsi128_si32(_mm256_castsi256_si128(over_short(row, cells, count, source, _mm256_set1_epi32(sum), 0)));
}

__attribute__((target("avx2")))
int32_t crisp_over_cells_evenodd_avx2(uint32_t *row, int32_t *cells, ptrdiff_t count, uint32_t source, int32_t sum) {
    if (count >= 8) return over_long_evenodd(row, cells, count, source, sum);
    return _mm_cvtsi128_si32(_mm256_castsi256_si128(over_short(row, cells, count, source, _mm256_set1_epi32(sum), 1)));
}

#else

#include <stdlib.h>

// Not an x86 CPU: no AVX2, so the rasterizer never calls the kernels below.
int32_t crisp_over_cells_nonzero_avx2(uint32_t *row, int32_t *cells, ptrdiff_t count, uint32_t source, int32_t sum) {
    abort();
}
int32_t crisp_over_cells_evenodd_avx2(uint32_t *row, int32_t *cells, ptrdiff_t count, uint32_t source, int32_t sum) {
    abort();
}
int32_t crisp_cells_coverage_nonzero_avx2(uint8_t *mask, int32_t *cells, ptrdiff_t count, int32_t sum) { abort(); }
int32_t crisp_cells_coverage_evenodd_avx2(uint8_t *mask, int32_t *cells, ptrdiff_t count, int32_t sum) { abort(); }

#endif
