// Source-over kernels in AVX2, eight pixels a step, for CPUs that have it. CrispGraphics keeps
// its Swift SSE2 kernels as the fallback and decides once which ones run (`KernelDispatch`,
// which calls a kernel only if `crisp_cpu_has_avx2`). Pixels are premultiplied 32-bit words;
// every kernel gives the Swift kernels' bits exactly (SourceOverAVX2.c says how).

#ifndef CCRISPKERNELS_H
#define CCRISPKERNELS_H

#include <stddef.h>
#include <stdint.h>

/// Whether the CPU (and the OS, which must save the YMM registers) supports AVX2.
int crisp_cpu_has_avx2(void);

// The calling thread's kernel choice (`KernelDispatch` in CrispGraphics): spans of at least
// `crisp_dispatch_minimum_span` pixels go to the AVX2 kernels, and `crisp_dispatch_decided`
// says whether the choice was made on this thread yet. Thread-local, so a test can force one
// path on its own thread while other threads draw with theirs (no data race: ThreadSanitizer).
// The initial-exec model makes a read one load from the thread pointer. Swift reads and writes
// them directly (each thread only its own, hence `nonisolated(unsafe)`): behind a C accessor,
// even `static inline` and always-inline, a protocol witness called it out of line, a call
// and its register saves on every span (callgrind, ui_emboss +0.7 % instructions).
extern __attribute__((tls_model("initial-exec"))) __attribute__((swift_attr("nonisolated(unsafe)")))
_Thread_local ptrdiff_t crisp_dispatch_minimum_span;
extern __attribute__((tls_model("initial-exec"))) __attribute__((swift_attr("nonisolated(unsafe)")))
_Thread_local int crisp_dispatch_decided;

/// `source` at one coverage (1…255) over `count` pixels; its alpha is the byte at `alpha_shift`
/// (0 or 24), and `set` is the mask of a skipped byte to set to 255 in every pixel (or 0).
void crisp_over_color_avx2(uint32_t *row, ptrdiff_t count, uint32_t source, uint32_t coverage, uint32_t alpha_shift,
                           uint32_t set);

/// `source` over the row with a coverage byte per pixel; its alpha is the byte at
/// `alpha_shift` (0 or 24). A pixel of coverage 0 is left alone unless `set` (a skipped
/// byte's mask) is not 0, when every pixel gets the byte set.
void crisp_over_color_coverage_avx2(uint32_t *row, ptrdiff_t count, uint32_t source, const uint8_t *coverage,
                                    uint32_t alpha_shift, uint32_t set);

/// A row of colours over the row at one coverage (1…255).
void crisp_over_row_avx2(uint32_t *row, ptrdiff_t count, const uint32_t *sources, uint32_t coverage);

/// A row of colours over the row with a coverage byte per pixel (0 leaves a pixel alone).
void crisp_over_row_coverage_avx2(uint32_t *row, ptrdiff_t count, const uint32_t *sources,
                                  const uint8_t *coverage);

// The rasterizer's cells composited straight into native pixels (CellsOverAVX2.c).

/// `source` over `count` (≥ 1) native pixels at `row` under source-over, pixel i's coverage
/// being the fill rule's alpha of `sum` plus cells 0…i (`NonZeroRule` or `EvenOddRule` in
/// Scan/AlphaRule.swift); clears those cells and returns the running sum after the last one.
/// Reads (and writes back unchanged) up to seven cells past `count`.
int32_t crisp_over_cells_nonzero_avx2(uint32_t *row, int32_t *cells, ptrdiff_t count, uint32_t source, int32_t sum);

/// `crisp_over_cells_nonzero_avx2` under the even-odd rule.
int32_t crisp_over_cells_evenodd_avx2(uint32_t *row, int32_t *cells, ptrdiff_t count, uint32_t source, int32_t sum);

/// The coverage bytes alone: `mask[i]` gets pixel i's alpha under the non-zero rule, as
/// `crisp_over_cells_nonzero_avx2` computes it; writes up to seven bytes past `count`.
int32_t crisp_cells_coverage_nonzero_avx2(uint8_t *mask, int32_t *cells, ptrdiff_t count, int32_t sum);

/// `crisp_cells_coverage_nonzero_avx2` under the even-odd rule.
int32_t crisp_cells_coverage_evenodd_avx2(uint8_t *mask, int32_t *cells, ptrdiff_t count, int32_t sum);

// Radial gradients shaded eight pixels a step and stored or blended in the same step
// (GradientAVX2.c).
// Each kernel takes the span's `count` pixels at `row` and, by `op`, stores their colours
// (`CRISP_STORE`), blends them under source-over at one coverage `coverage` 1…255
// (`CRISP_OVER`) or with the coverage bytes at `coverages` (`CRISP_OVER_COVERAGES`). A kernel
// stops before the first step with a pixel that needs the general per-pixel rule and
// returns the index of the first pixel it left undone (`count` when none); the caller does
// those pixels itself and calls again for the rest.

/// What a gradient kernel does with the colours it shades.
enum { CRISP_STORE = 0, CRISP_OVER = 1, CRISP_OVER_COVERAGES = 2 };

/// A padded concentric radial gradient's span: pixel i is at k = first + i steps from the
/// anchor column, user offset (ux0 + step_x·k, uy0 + step_y·k), t = (|offset| − start)·per_radius
/// in single precision. `first + count` must stay within ±2²⁴ (k exact).
typedef struct {
    const uint32_t *entries;
    /// The largest table position (the table's size less one).
    float top;
    float ux0, uy0, step_x, step_y, start, per_radius;
    int32_t first;
} crisp_concentric;

/// A two-circle radial gradient's span in row `y`: pixel i at xs = x + i + ½, its user offset
/// ((ta·xs + cpy) + tx) − cx0 and ((tb·xs + dpy) + ty) − cy0, the larger root
/// t = (b + sign·√(b² − a·c)) / a in double precision (RadialGradientPaint.swift).
typedef struct {
    const uint32_t *entries;
    /// The largest table position (the table's size less one).
    float top;
    double ta, tb, cpy, dpy, tx, ty, cx0, cy0, dcx, dcy, r0dr, r0r0, a, sign, r0, dr;
    int32_t x;
    int32_t check_start, check_end;
} crisp_two_circles;

/// A two-circle gradient of SVG's focal shape, shaded in single precision with the exact entry
/// proven per step (GradientAVX2.c, "The focal kernel"): the start circle a point (r0 = 0)
/// inside the end circle (a < 0), both ends extended. `exact` is the gradient's
/// `crisp_two_circles` (its `cpy`, `dpy` and `x` are the span's, set by the kernel), which
/// shades any step whose entry the single-precision bound leaves in doubt. `relative` and
/// `lipschitz` are the bound's constants (`RadialGradientPaint.focalKernel` works them out).
typedef struct {
    crisp_two_circles exact;
    /// dc, |a| and 1/|a| in single precision, and the steps of the user offset per pixel.
    float dcx, dcy, abs_a, inv_a, step_x, step_y;
    /// The bound on t's error relative to t, margin included.
    float relative;
    /// 1 / (dr − |dc|): how fast t can change with the user offset.
    double lipschitz;
} crisp_focal;

/// A padded concentric radial gradient's span; stops before a step with a position that is not finite.
ptrdiff_t crisp_concentric_avx2(uint32_t *row, ptrdiff_t count, const crisp_concentric *g, int op,
                                uint32_t coverage, const uint8_t *coverages);

/// A two-circle radial gradient's span; stops before a step with a pixel the plain rule does
/// not serve (no root, a negative radius, t not finite or beyond an end that does not extend).
ptrdiff_t crisp_two_circles_avx2(uint32_t *row, ptrdiff_t count, const crisp_two_circles *g, int op,
                                 uint32_t coverage, const uint8_t *coverages);

/// A focal gradient's span in row `y` from column `x`, `cpy` and `dpy` being the row's terms
/// of the user offset (as in `crisp_two_circles`): the pixels `crisp_two_circles_avx2` gives,
/// bit for bit; stops where it would.
ptrdiff_t crisp_focal_avx2(uint32_t *row, ptrdiff_t count, const crisp_focal *g, int32_t x, double cpy, double dpy,
                           int op, uint32_t coverage, const uint8_t *coverages);

/// Asks for the cache lines of the `bytes` (≥ 1) bytes at `p`, to be written soon.
static inline void crisp_prefetch_span(const void *p, ptrdiff_t bytes) {
    const char *c = (const char *)p;
    for (ptrdiff_t i = 0; i < bytes; i += 64) __builtin_prefetch(c + i, 1, 3);
    __builtin_prefetch(c + bytes - 1, 1, 3);
}

/// Writes rows `y0..<y1`, columns `x0..<x1` of `src` (`src_width` × `src_height` pixels,
/// `src_stride` pixels a row) magnified 2× bilinearly into `dst` (`dst_stride` pixels a row;
/// 2·`src_width` × 2·`src_height`): each destination pixel is 9/16 of its source pixel and 3/16,
/// 3/16, 1/16 of the nearer neighbours, edges clamped (Magnify.c). `scratch` holds
/// 4·(`src_width` + 2) 16-bit lanes, `row` 2·`src_width` pixels (used when the columns are not
/// the whole row).
void crisp_magnify2x(const uint32_t *src, ptrdiff_t src_width, ptrdiff_t src_height, ptrdiff_t src_stride,
                     uint32_t *dst, ptrdiff_t dst_stride, ptrdiff_t x0, ptrdiff_t x1, ptrdiff_t y0, ptrdiff_t y1,
                     uint16_t *scratch, uint32_t *row);

/// `crisp_magnify2x` with AVX2 (Magnify.c), the same bits; only on a CPU that has AVX2.
void crisp_magnify2x_avx2(const uint32_t *src, ptrdiff_t src_width, ptrdiff_t src_height, ptrdiff_t src_stride,
                          uint32_t *dst, ptrdiff_t dst_stride, ptrdiff_t x0, ptrdiff_t x1, ptrdiff_t y0, ptrdiff_t y1,
                          uint16_t *scratch, uint32_t *row);

/// A picture a bilinear sample reads: `width` × `height` pixels, `width` a row.
/// Destination pixels (x, y), x in [`x0`, `x1`), y in [`y0`, `y1`), of rows `dst_stride` pixels
/// apart, set to src[`start` + x·`sx` + y·`sy`]: a picture turned by quarter turns or mirrored,
/// copied (CopyTurned.c). Every such index must be inside `src`.
void crisp_copy_turned(uint32_t *dst, ptrdiff_t dst_stride, ptrdiff_t x0, ptrdiff_t x1, ptrdiff_t y0, ptrdiff_t y1,
                       const uint32_t *src, ptrdiff_t start, ptrdiff_t sx, ptrdiff_t sy);

/// `src` (`width` × `height` pixels, rows packed) at half its width and height, rounded up, into
/// `dst`: each pixel the rounded mean of the 2×2 block under it, per channel, the last column or
/// row of an odd size repeated (Halve.c; bit for bit `ImageLevel.halved`).
void crisp_halve(const uint32_t *src, ptrdiff_t width, ptrdiff_t height, uint32_t *dst);

typedef struct {
    const uint32_t *pixels;
    ptrdiff_t width, height;
} crisp_bilinear;

/// `count` fully covered pixels of the rotation's cross-fade (CrossFade.c): pixel i is the
/// bilinear sample of `over` at (uo + i·suo, vo + i·svo), scaled by `alpha`, over that of the
/// opaque `under` at (uu + i·suu, vu + i·svu) — coordinates in 32.32 fixed point, biased by −½,
/// clamped to the pictures' edges — bit for bit `TransformedImageBlit`'s Swift samples.
void crisp_cross_fade_row(uint32_t *dest, ptrdiff_t count, const crisp_bilinear *under, int64_t uu, int64_t vu,
                          int64_t suu, int64_t svu, const crisp_bilinear *over, int64_t uo, int64_t vo, int64_t suo,
                          int64_t svo, uint32_t alpha);

/// `crisp_cross_fade_row` four pixels a step with AVX2 (CrossFade.c), the same bits; only on a
/// CPU that has AVX2 (`crisp_cpu_has_avx2`).
void crisp_cross_fade_row_avx2(uint32_t *dest, ptrdiff_t count, const crisp_bilinear *under, int64_t uu, int64_t vu,
                               int64_t suu, int64_t svu, const crisp_bilinear *over, int64_t uo, int64_t vo,
                               int64_t suo, int64_t svo, uint32_t alpha);

#endif
