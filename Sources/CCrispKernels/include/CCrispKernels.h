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

#endif
