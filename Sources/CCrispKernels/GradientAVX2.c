// Radial gradients shaded and blended in one call, eight pixels a step, in AVX2.
//
// The Swift path shades a span into a scratch row (Paint/RadialGradientPaint.swift) and then
// calls source-over on that row: two calls a span, a store and a load a pixel, lanes four wide
// (SSE2: two doubles a register for the two-circle quadratic, whose `sqrtpd` and `divpd` bound
// it), and the one to three pixels after the last group one at a time. Here a step computes
// eight table positions in vector registers (four doubles a register), looks the eight colours
// up with one `vpgatherdd`, and blends them straight from the register (the steps of
// SourceOverAVX2.c, shared through OverAVX2.h); the same kernels, told to store, shade into
// memory for the other blend modes and for opaque spans stored whole. A long span's steps go
// in two passes over chunks of up to eight steps, all the indices first, then the gathers
// and blends (see `GRADIENT_LOOP`): the kernels are bound by the latency of each step's chain
// (square root, gather, blend), not by their instructions, and one pass a step left the
// processor little to overlap.
//
// Bit for bit the Swift shaders: every lane repeats the Swift lane's operations in the same
// order and precision (no contraction into fused multiply-adds: `fp contract(off)`, and the
// target has no FMA), and the table position is clamped and truncated to the integer `lookUp`
// gives (which finds it by the 2²³ bias). A pixel's colour is a function of the pixel alone
// (the Swift essay says why), so steps of eight, overlapping last steps and the short-span
// layout of `load_short` give the Swift values wherever the pixels fall. What the plain lookup
// does not serve stays in Swift: a kernel stops before the first step with such a pixel (a
// non-finite position, no root, a negative radius, t beyond an end that does not extend) and
// returns where it stopped; the caller shades that step by the general rule and calls again
// (`GradientKernel`).
//
// Short spans (1–7 pixels, most of a clipped shape's edge spans) are one step in the layout
// `load_short` gives: pixels 0–3 and n−4…n−1, or 0, 1, n−2, n−1, each lane shaded for the pixel
// it holds. A long span's last partial step is a full step over its last eight pixels, with
// the destination read before the loop wrote any of them (SourceOverAVX2.c).
//
// Measured and rejected (docs/performance.md, "After branch `gradfuse`"): the same fusion for linear gradients
// (positions stepped in 64-bit lanes, clamped, gathered) — slower than the Swift loop's one add,
// shift and load a pixel followed by the row kernel, `gradients` 1.03 against 0.95 ms a render;
// scalar loads instead of `vpgatherdd` (indices stored, eight loads, the vector rebuilt): no
// faster on the radial kernels, slower on the linear one.

#include "CCrispKernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include "OverAVX2.h"
#include <math.h>

#pragma clang fp contract(off)

/// Eight table positions (finite, in float) clamped to 0…top and truncated: the indices `lookUp`
/// in RadialGradientPaint.swift finds by the 2²³ bias (Swift has no vector truncation that
/// lowers to one instruction), here one `vcvttps2dq`, the same integer for any v in 0…top.
CRISP_AVX2 __m256i index8(__m256 u, float top) {
    __m256 v = _mm256_min_ps(_mm256_max_ps(u, _mm256_setzero_ps()), _mm256_set1_ps(top));
    return _mm256_cvttps_epi32(v);
}

/// The eight entries at `index`, gathered.
CRISP_AVX2 __m256i gather8(const uint32_t *entries, __m256i index) {
    return _mm256_i32gather_epi32((const int *)entries, index, 4);
}

/// Pixel offsets 0…7 from `i`.
CRISP_AVX2 __m256i offsets8(ptrdiff_t i) {
    return _mm256_add_epi32(_mm256_set1_epi32((int)i), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/// The pixels of `load_short`'s lanes for a span of `n` (1…7) pixels; lanes it leaves unused
/// repeat used ones, so that every lane is a pixel of the span.
CRISP_AVX2 __m256i short_offsets(ptrdiff_t n) {
    int m = (int)n;
    if (n >= 4) return _mm256_setr_epi32(0, 1, 2, 3, m - 4, m - 3, m - 2, m - 1);
    if (n >= 2) return _mm256_setr_epi32(0, 1, m - 2, m - 1, 0, 1, m - 2, m - 1);
    return _mm256_setzero_si256();
}

/// A padded concentric gradient's eight table indices at `offsets`; 0 when a position is not
/// finite.
CRISP_AVX2 int concentric8(const crisp_concentric *g, __m256i offsets, __m256i *out) {
    __m256 k = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(g->first), offsets));
    __m256 ux = _mm256_add_ps(_mm256_set1_ps(g->ux0), _mm256_mul_ps(_mm256_set1_ps(g->step_x), k));
    __m256 uy = _mm256_add_ps(_mm256_set1_ps(g->uy0), _mm256_mul_ps(_mm256_set1_ps(g->step_y), k));
    __m256 r = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(ux, ux), _mm256_mul_ps(uy, uy)));
    __m256 t = _mm256_mul_ps(_mm256_sub_ps(r, _mm256_set1_ps(g->start)), _mm256_set1_ps(g->per_radius));
    __m256 u = _mm256_add_ps(_mm256_mul_ps(t, _mm256_set1_ps(g->top)), _mm256_set1_ps(0.5f));
    __m256 finite = _mm256_cmp_ps(_mm256_sub_ps(u, u), _mm256_setzero_ps(), _CMP_EQ_OQ);
    if (_mm256_movemask_ps(finite) != 0xFF) return 0;
    *out = index8(u, g->top);
    return 1;
}

/// Four pixels of a two-circle gradient: t in float, and whether the plain rule serves all four.
CRISP_AVX2 __m128 two_circles4(const crisp_two_circles *g, __m128i offsets, int *plain) {
    __m256d xs = _mm256_add_pd(_mm256_cvtepi32_pd(_mm_add_epi32(_mm_set1_epi32(g->x), offsets)), _mm256_set1_pd(0.5));
    __m256d ux = _mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(g->ta), xs), _mm256_set1_pd(g->cpy)),
                                             _mm256_set1_pd(g->tx)), _mm256_set1_pd(g->cx0));
    __m256d uy = _mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(g->tb), xs), _mm256_set1_pd(g->dpy)),
                                             _mm256_set1_pd(g->ty)), _mm256_set1_pd(g->cy0));
    __m256d b = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ux, _mm256_set1_pd(g->dcx)), _mm256_mul_pd(uy, _mm256_set1_pd(g->dcy))),
                              _mm256_set1_pd(g->r0dr));
    __m256d c = _mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(ux, ux), _mm256_mul_pd(uy, uy)), _mm256_set1_pd(g->r0r0));
    __m256d a = _mm256_set1_pd(g->a), zero = _mm256_setzero_pd();
    __m256d disc = _mm256_sub_pd(_mm256_mul_pd(b, b), _mm256_mul_pd(a, c));
    __m256d t = _mm256_div_pd(_mm256_add_pd(b, _mm256_mul_pd(_mm256_set1_pd(g->sign), _mm256_sqrt_pd(disc))), a);
    __m256d radius = _mm256_add_pd(_mm256_set1_pd(g->r0), _mm256_mul_pd(t, _mm256_set1_pd(g->dr)));
    __m256d ok = _mm256_and_pd(_mm256_cmp_pd(disc, zero, _CMP_GE_OQ), _mm256_cmp_pd(radius, zero, _CMP_GE_OQ));
    ok = _mm256_and_pd(ok, _mm256_cmp_pd(_mm256_sub_pd(t, t), zero, _CMP_EQ_OQ));
    if (g->check_start) ok = _mm256_and_pd(ok, _mm256_cmp_pd(t, zero, _CMP_GE_OQ));
    if (g->check_end) ok = _mm256_and_pd(ok, _mm256_cmp_pd(t, _mm256_set1_pd(1.0), _CMP_LE_OQ));
    *plain = _mm256_movemask_pd(ok) == 0xF;
    return _mm256_cvtpd_ps(t);
}

/// A two-circle gradient's eight table indices at `offsets`; 0 when the plain rule does not
/// serve one of them.
CRISP_AVX2 int two_circles8(const crisp_two_circles *g, __m256i offsets, __m256i *out) {
    int low_plain, high_plain;
    __m128 low = two_circles4(g, _mm256_castsi256_si128(offsets), &low_plain);
    __m128 high = two_circles4(g, _mm256_extracti128_si256(offsets, 1), &high_plain);
    if (!(low_plain && high_plain)) return 0;
    __m256 t = _mm256_insertf128_ps(_mm256_castps128_ps256(low), high, 1);
    *out = index8(_mm256_add_ps(_mm256_mul_ps(t, _mm256_set1_ps(g->top)), _mm256_set1_ps(0.5f)), g->top);
    return 1;
}

/// The indices of a span of `n` (1…7) pixels in `short_offsets`' lanes.
CRISP_AVX2 int concentric_short(const crisp_concentric *g, ptrdiff_t n, __m256i *out) {
    return concentric8(g, short_offsets(n), out);
}

/// The indices of a span of `n` (1…7) pixels in `short_offsets`' lanes: for n ≤ 4 the two halves
/// hold the same pixels, so one half is computed (one square root and one division of four
/// doubles, not two) and copied.
CRISP_AVX2 int two_circles_short(const crisp_two_circles *g, ptrdiff_t n, __m256i *out) {
    if (n > 4) return two_circles8(g, short_offsets(n), out);
    int plain;
    __m128 t = two_circles4(g, _mm256_castsi256_si128(short_offsets(n)), &plain);
    if (!plain) return 0;
    __m256 u = _mm256_insertf128_ps(_mm256_castps128_ps256(t), t, 1);
    *out = index8(_mm256_add_ps(_mm256_mul_ps(u, _mm256_set1_ps(g->top)), _mm256_set1_ps(0.5f)), g->top);
    return 1;
}

/// Eight shaded colours `s` as `op` wants them in place of `d`.
CRISP_AVX2 __m256i apply8(int op, __m256i s, __m256i d, int scales, __m256i f, uint64_t c, __m256i al, __m256i ah) {
    if (op == CRISP_STORE) return s;
    if (op == CRISP_OVER) return row_step(s, d, scales, f, al, ah);
    return row_coverage_step(s, c, d, al, ah);
}

// One kernel per shader, the same loop (a macro, so that each shader and each `op` is compiled
// into its own loop with nothing left to decide per step). A span of eight pixels or more goes
// in chunks of up to `CHUNK` steps, each in two passes: the table indices of every step, then
// the gathers and blends. One pass per step chained each step's arithmetic, gather and blend,
// and the processor overlapped little of it (latency-bound: docs/performance.md, "After branch `grad3`"). The
// steps and the pixels are the one-pass loop's: full steps from 0, a last one over the span's
// last eight pixels blended against what they held before the loop, steps whose eight
// coverages are 0 skipped, and a stop at the first step that needs the general rule (the steps
// before it done).
#define CHUNK 8
#define GRADIENT_LOOP(indices, short_indices, op)                                                                    \
    do {                                                                                                   \
        __m256i s;                                                                                         \
        if (count < 8) {                                                                                   \
            uint64_t c = op == CRISP_OVER_COVERAGES ? coverage_short(coverages, count) : 0;                \
            if (op == CRISP_OVER_COVERAGES && c == 0) return count;                                        \
            if (!short_indices(g, count, &s)) return 0;                                                    \
            s = gather8(g->entries, s);                                                                    \
            __m256i d = op == CRISP_STORE ? s : load_short(row, count);                                    \
            store_short(row, count, apply8(op, s, d, scales, f, c, al, ah));                               \
            return count;                                                                                  \
        }                                                                                                  \
        __m256i last = op == CRISP_STORE ? _mm256_setzero_si256() : load8(row + count - 8);                \
        __m256i index[CHUNK];                                                                              \
        ptrdiff_t at[CHUNK];                                                                               \
        uint64_t cw[CHUNK];                                                                                \
        ptrdiff_t i = 0;                                                                                   \
        while (i < count) {                                                                                \
            int n = 0, stopped = 0;                                                                        \
            while (n < CHUNK && i < count) {                                                               \
                ptrdiff_t a = i + 8 <= count ? i : count - 8;                                              \
                uint64_t c = op == CRISP_OVER_COVERAGES ? coverage_word(coverages + a) : 0;                \
                if (op != CRISP_OVER_COVERAGES || c != 0) {                                                \
                    if (!indices(g, offsets8(a), &index[n])) { stopped = 1; break; }                       \
                    at[n] = a;                                                                             \
                    cw[n++] = c;                                                                           \
                }                                                                                          \
                i = a + 8;                                                                                 \
            }                                                                                              \
            for (int q = 0; q < n; q++) {                                                                  \
                s = gather8(g->entries, index[q]);                                                         \
                __m256i d = op == CRISP_STORE ? s : at[q] + 8 == count ? last : load8(row + at[q]);            \
                store8(row + at[q], apply8(op, s, d, scales, f, cw[q], al, ah));                           \
            }                                                                                              \
            if (stopped) return i;                                                                         \
        }                                                                                                  \
        return count;                                                                                      \
    } while (0)

// The loop for each `op`, with `g`, `row`, `count`, `op`, `coverage` and `coverages` in scope.
#define GRADIENT_SWITCH(shade, shade_short)                                                                \
    do {                                                                                                   \
        __m256i al = alpha_low(3), ah = alpha_high(3), f = _mm256_set1_epi16((short)coverage);             \
        int scales = coverage != 255;                                                                      \
        switch (op) {                                                                                      \
        case CRISP_STORE: GRADIENT_LOOP(shade, shade_short, CRISP_STORE);                                  \
        case CRISP_OVER: GRADIENT_LOOP(shade, shade_short, CRISP_OVER);                                    \
        default: GRADIENT_LOOP(shade, shade_short, CRISP_OVER_COVERAGES);                                  \
        }                                                                                                  \
    } while (0)

#define GRADIENT_KERNEL(name, type, shade, shade_short)                                                    \
    __attribute__((target("avx2")))                                                                       \
    ptrdiff_t name(uint32_t *row, ptrdiff_t count, const type *g, int op, uint32_t coverage,               \
                   const uint8_t *coverages) {                                                             \
        if (count <= 0) return 0;                                                                          \
        GRADIENT_SWITCH(shade, shade_short);                                                               \
    }

GRADIENT_KERNEL(crisp_concentric_avx2, crisp_concentric, concentric8, concentric_short)
GRADIENT_KERNEL(crisp_two_circles_avx2, crisp_two_circles, two_circles8, two_circles_short)

// The focal kernel. SVG's two-circle gradients are one shape: a focal point (r0 = 0) inside
// the end circle (a < 0), padded both ways. There every pixel has its root (b² − a·c ≥ b², so
// t ≥ 0 and its radius t·dr ≥ 0), so the plain rule always serves, and all a step needs is
// the table index of the double-precision t above, whose two `vsqrtpd` and two `vdivpd` of four
// doubles bound the kernel (docs/performance.md, "After branch `grad4`"). This kernel computes t in single
// precision, eight lanes a register, and proves per step that it gives the same index:
//   - t is the gauge of the end disk seen from the focal point, so it changes with the user
//     offset q by at most L = 1/(dr − |dc|) per unit (dr being √(|dc|² − a), the disk of the a
//     the exact path uses);
//   - the offset in single precision (the span's first pixel's offset, worked out in double,
//     plus k steps) is within δ of the true one, and so is the exact path's own double offset
//     (`focal_begin`);
//   - from the offset, t = (s − b)/|a| where b ≤ 0 and t = c/(s + b) where b > 0 (s = √(b² +
//     |a|·c)): neither subtracts nearly equal values, so every rounding on the way moves t by a
//     bounded fraction of t, and b's own rounding (b is a sum of two products of either sign) by
//     a bounded fraction too, since |q| ≤ t·(dr + |dc|); the exact path's roundings likewise
//     (`relative`, worked out once per gradient with a margin of two);
//   - so the exact path's t lies within ε = relative·t + 2·L·δ (+ 2⁻⁴⁰ for anything below
//     float's normal range) of this one. Its index is clamp(float(t)·top + ½) truncated, every
//     step monotonic in t: if t − ε and t + ε give the same index, so does the exact t.
// A step where they differ (an index boundary within ε, a few lanes in a hundred) or anything
// is not finite is shaded by the exact path (`two_circles8`, which may stop as the two-circle
// kernel stops); a span whose offsets are too large for single precision goes to it whole.
// Bit for bit the two-circle kernel, then, whatever the rounding here
// (`GradientKernelTests+Focal` compares them on random focal gradients, and fails with t off
// by 10⁻⁵ of itself). Against
// the two-circle kernel's index pass of about 110 instructions, two `vsqrtpd` and two `vdivpd`
// for eight pixels, about 40 and one `vsqrtps` and one `vdivps`: in a C microbenchmark, spans
// of 64 pixels 186 → 115 ns, of 24 pixels 73 → 47 ns (about 4 steps in 100 in doubt); in
// the `gradients` scene the kernel's share of the samples 12.6 → 10 %.

/// A focal gradient's span: the gradient, the span's first offset and ε's part that does not
/// scale with t, and the exact path's parameters for it, filled in when a step first needs them.
typedef struct {
    const uint32_t *entries;
    const crisp_focal *focal;
    __m256 qx0, qy0, absolute;
    int32_t x;
    double cpy, dpy;
    int exact_ready;
    crisp_two_circles exact;
} focal_span;

/// Sets up `span` for pixels x…x + count − 1 of the row whose offset terms are `cpy`, `dpy`;
/// 0 when the offsets are too large for the bound (then only the exact path serves).
CRISP_AVX2 int focal_begin(focal_span *span, const crisp_focal *g, int32_t x, double cpy, double dpy,
                           ptrdiff_t count) {
    const crisp_two_circles *e = &g->exact;
    span->entries = e->entries;
    span->focal = g;
    span->x = x;
    span->cpy = cpy;
    span->dpy = dpy;
    span->exact_ready = 0;
    double xs = (double)x + 0.5, k = (double)count;
    double qx = ((e->ta * xs + cpy) + e->tx) - e->cx0, qy = ((e->tb * xs + dpy) + e->ty) - e->cy0;
    double sx = fabs(e->ta) * k, sy = fabs(e->tb) * k;
    if (!(fabs(qx) + fabs(qy) + sx + sy <= 0x1p24)) return 0;
    // The single-precision offset: its start (rounded once), k·step (the step rounded, the
    // product rounded) and their sum (rounded): within 2⁻²²·(|q0| + |step|·k) of the double one.
    // Both it and the exact path's double offsets are within 2⁻⁵¹ of the sum of their terms'
    // magnitudes of the true offset: 2⁻⁴⁸ covers both.
    double far = fabs((double)x) + k + 1;
    double dx = 0x1p-22 * (fabs(qx) + sx) + 0x1p-48 * (fabs(e->ta) * far + fabs(cpy) + fabs(e->tx) + fabs(e->cx0));
    double dy = 0x1p-22 * (fabs(qy) + sy) + 0x1p-48 * (fabs(e->tb) * far + fabs(dpy) + fabs(e->ty) + fabs(e->cy0));
    span->qx0 = _mm256_set1_ps((float)qx);
    span->qy0 = _mm256_set1_ps((float)qy);
    span->absolute = _mm256_set1_ps((float)(2 * g->lipschitz * (dx + dy) + 0x1p-40));
    return 1;
}

/// The exact path's indices for a step whose single-precision one is in doubt (out of line: a
/// few steps in a hundred).
__attribute__((target("avx2"), noinline))
static int focal_exact8(focal_span *g, __m256i offsets, __m256i *out) {
    if (!g->exact_ready) {
        g->exact = g->focal->exact;
        g->exact.cpy = g->cpy;
        g->exact.dpy = g->dpy;
        g->exact.x = g->x;
        g->exact_ready = 1;
    }
    return two_circles8(&g->exact, offsets, out);
}

/// A focal gradient's eight table indices at `offsets` (pixels from the span's first).
CRISP_AVX2 int focal8(focal_span *g, __m256i offsets, __m256i *out) {
    const crisp_focal *f = g->focal;
    __m256 zero = _mm256_setzero_ps(), top = _mm256_set1_ps(f->exact.top), half = _mm256_set1_ps(0.5f);
    __m256 k = _mm256_cvtepi32_ps(offsets);
    __m256 qx = _mm256_add_ps(g->qx0, _mm256_mul_ps(_mm256_set1_ps(f->step_x), k));
    __m256 qy = _mm256_add_ps(g->qy0, _mm256_mul_ps(_mm256_set1_ps(f->step_y), k));
    __m256 b = _mm256_add_ps(_mm256_mul_ps(qx, _mm256_set1_ps(f->dcx)), _mm256_mul_ps(qy, _mm256_set1_ps(f->dcy)));
    __m256 c = _mm256_add_ps(_mm256_mul_ps(qx, qx), _mm256_mul_ps(qy, qy));
    __m256 s = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(b, b), _mm256_mul_ps(_mm256_set1_ps(f->abs_a), c)));
    __m256 t = _mm256_blendv_ps(_mm256_mul_ps(_mm256_sub_ps(s, b), _mm256_set1_ps(f->inv_a)),
                                _mm256_div_ps(c, _mm256_add_ps(s, b)), _mm256_cmp_ps(b, zero, _CMP_GT_OQ));
    __m256 eps = _mm256_add_ps(_mm256_mul_ps(t, _mm256_set1_ps(f->relative)), g->absolute);
    __m256 lo = _mm256_sub_ps(t, eps), hi = _mm256_add_ps(t, eps);
    __m256i low = index8(_mm256_add_ps(_mm256_mul_ps(lo, top), half), f->exact.top);
    __m256i high = index8(_mm256_add_ps(_mm256_mul_ps(hi, top), half), f->exact.top);
    __m256 same = _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(low, high)),
                                _mm256_cmp_ps(hi, _mm256_set1_ps(0x1p30f), _CMP_LT_OQ));
    if (_mm256_movemask_ps(same) != 0xFF) return focal_exact8(g, offsets, out);
    *out = low;
    return 1;
}

/// The indices of a span of `n` (1…7) pixels in `short_offsets`' lanes.
CRISP_AVX2 int focal_short(focal_span *g, ptrdiff_t n, __m256i *out) { return focal8(g, short_offsets(n), out); }

__attribute__((target("avx2")))
ptrdiff_t crisp_focal_avx2(uint32_t *row, ptrdiff_t count, const crisp_focal *focal, int32_t x, double cpy, double dpy,
                           int op, uint32_t coverage, const uint8_t *coverages) {
    if (count <= 0) return 0;
    focal_span span;
    if (!focal_begin(&span, focal, x, cpy, dpy, count)) {
        crisp_two_circles exact = focal->exact;
        exact.cpy = cpy;
        exact.dpy = dpy;
        exact.x = x;
        return crisp_two_circles_avx2(row, count, &exact, op, coverage, coverages);
    }
    focal_span *g = &span;
    GRADIENT_SWITCH(focal8, focal_short);
}

#else

#include <stdlib.h>

// Not an x86 CPU: no AVX2, so `KernelDispatch` never calls the kernels below.
ptrdiff_t crisp_concentric_avx2(uint32_t *row, ptrdiff_t count, const crisp_concentric *g, int op,
                                uint32_t coverage, const uint8_t *coverages) { abort(); }
ptrdiff_t crisp_two_circles_avx2(uint32_t *row, ptrdiff_t count, const crisp_two_circles *g, int op,
                                 uint32_t coverage, const uint8_t *coverages) { abort(); }
ptrdiff_t crisp_focal_avx2(uint32_t *row, ptrdiff_t count, const crisp_focal *g, int32_t x, double cpy, double dpy,
                           int op, uint32_t coverage, const uint8_t *coverages) { abort(); }

#endif
