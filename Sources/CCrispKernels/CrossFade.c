// The rotation's cross-fade, a row of fully covered pixels: two pictures sampled bilinearly
// with SSE2, the second scaled by the fade's alpha and put over the first (opaque), bit for bit
// what `TransformedImageBlit.crossFadeRow` does in Swift (CGContext+TransformedImages.swift).
//
// Two pixels a step: a sample's four taps are two 64-bit loads (two neighbours of a row each),
// the two pixels' taps interleaved and widened to 16-bit lanes, pixel A in lanes 0–3 and B in
// 4–7; every lerp is Pixel.lerp's `scale(a, f) + scale(b, 255 − f)`, each scale the exact
// rounded division by 255 that SourceOverAVX2.c describes, `(v + 128)·257 >> 16`, on the lanes.
// A tap outside the picture (a sample within half a pixel of its edge) takes the scalar route,
// which clamps as the Swift code does.
//
// With AVX2, four pixels a step (`crisp_cross_fade_row_avx2`): the four pixels' 32.32
// coordinates ride in 64-bit lanes, so their tap indices (`vpmuludq`) and weights (the low 32
// bits times 255, rounded, moved into each pixel's channel lanes by `vpshufb`) are computed four
// at a time rather than in scalar registers (the SSE2 loop spent most of its ~130 instructions a
// pixel there, and spilled); the lerps then run on sixteen lanes. The span where every tap of
// both pictures is inside is found once per row (a tap's coordinate is affine along the row, so
// its two ends decide), so the loop tests nothing; the pixels before and after it take the SSE2
// route. The same arithmetic, so the same bits.

#include "CCrispKernels.h"

static inline uint32_t scale1(uint32_t p, uint32_t f) {
    uint32_t rb = (p & 0x00FF00FFu) * f + 0x00800080u;
    rb = ((rb + ((rb >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
    uint32_t ag = ((p >> 8) & 0x00FF00FFu) * f + 0x00800080u;
    ag = (ag + ((ag >> 8) & 0x00FF00FFu)) & 0xFF00FF00u;
    return rb | ag;
}

static inline uint32_t lerp1(uint32_t dst, uint32_t src, uint32_t f) { return scale1(src, f) + scale1(dst, 255 - f); }

static inline ptrdiff_t clampi(ptrdiff_t v, ptrdiff_t hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

static inline uint32_t sample1(const crisp_bilinear *s, int64_t u, int64_t v) {
    ptrdiff_t x0 = (ptrdiff_t)(u >> 32), y0 = (ptrdiff_t)(v >> 32);
    uint32_t ax = (uint32_t)((((uint64_t)u & 0xFFFFFFFFu) * 255 + 0x80000000u) >> 32);
    uint32_t ay = (uint32_t)((((uint64_t)v & 0xFFFFFFFFu) * 255 + 0x80000000u) >> 32);
    ptrdiff_t c0 = clampi(x0, s->width - 1), c1 = clampi(x0 + 1, s->width - 1);
    const uint32_t *top = s->pixels + clampi(y0, s->height - 1) * s->width;
    const uint32_t *bottom = s->pixels + clampi(y0 + 1, s->height - 1) * s->width;
    return lerp1(lerp1(top[c0], top[c1], ax), lerp1(bottom[c0], bottom[c1], ax), ay);
}

#if defined(__SSE2__)
#include <emmintrin.h>

// div255 of 16-bit lanes holding x·f (≤ 65025), rounded.
static inline __m128i div255(__m128i v) {
    return _mm_mulhi_epu16(_mm_add_epi16(v, _mm_set1_epi16(128)), _mm_set1_epi16(257));
}

// Lanes 0–3: lerp(a, b, f) per channel, a and b in lanes 0–3 and f, 255 − f broadcast.
static inline __m128i lerp4(__m128i a, __m128i b, __m128i f, __m128i g) {
    return _mm_add_epi16(div255(_mm_mullo_epi16(b, f)), div255(_mm_mullo_epi16(a, g)));
}

// The bilinear sample as 16-bit lanes 0–3 (lanes 4–7 garbage), or -1 when a tap is outside.
static inline int sample4(const crisp_bilinear *s, int64_t u, int64_t v, __m128i *out) {
    ptrdiff_t x0 = (ptrdiff_t)(u >> 32), y0 = (ptrdiff_t)(v >> 32);
    if (x0 < 0 || y0 < 0 || x0 >= s->width - 1 || y0 >= s->height - 1) return 0;
    uint32_t ax = (uint32_t)((((uint64_t)u & 0xFFFFFFFFu) * 255 + 0x80000000u) >> 32);
    uint32_t ay = (uint32_t)((((uint64_t)v & 0xFFFFFFFFu) * 255 + 0x80000000u) >> 32);
    const uint32_t *top = s->pixels + y0 * s->width + x0;
    const __m128i zero = _mm_setzero_si128();
    // top[0], top[1] widened: lanes 0–3 the left tap, 4–7 the right one.
    __m128i t = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)top), zero);
    __m128i b = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(top + s->width)), zero);
    __m128i fx = _mm_set1_epi16((short)ax), gx = _mm_set1_epi16((short)(255 - ax));
    // Row lerps: left in lanes 0–3 (a), right in lanes 4–7 (b) moved down.
    __m128i tl = lerp4(t, _mm_srli_si128(t, 8), fx, gx);
    __m128i bl = lerp4(b, _mm_srli_si128(b, 8), fx, gx);
    __m128i fy = _mm_set1_epi16((short)ay), gy = _mm_set1_epi16((short)(255 - ay));
    *out = lerp4(tl, bl, fy, gy);
    return 1;
}
#endif

// One pixel: the SSE2 route when every tap is inside both pictures, else the scalar one.
static inline uint32_t cross_fade_one(const crisp_bilinear *under, int64_t uu, int64_t vu, const crisp_bilinear *over,
                                      int64_t uo, int64_t vo, uint32_t alpha) {
#if defined(__SSE2__)
    __m128i su, so;
    if (sample4(under, uu, vu, &su) && sample4(over, uo, vo, &so)) {
        // scale(over, alpha), and under · (255 − its alpha) / 255, packed to bytes and added
        // as 32-bit words, as Pixel.sourceOver adds.
        const __m128i a = _mm_set1_epi16((short)alpha), zero = _mm_setzero_si128();
        __m128i s = div255(_mm_mullo_epi16(so, a));
        uint32_t sp = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(s, zero));
        __m128i k = _mm_set1_epi16((short)(255 - (sp >> 24)));
        uint32_t dp = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(div255(_mm_mullo_epi16(su, k)), zero));
        return sp + dp;
    }
#endif
    uint32_t s = sample1(under, uu, vu);
    uint32_t o = scale1(sample1(over, uo, vo), alpha);
    return o + scale1(s, 255 - (o >> 24));
}

#if defined(__SSE2__)
// Whether all four taps of the sample at (u, v) are inside the picture.
static inline int inside(const crisp_bilinear *s, int64_t u, int64_t v) {
    ptrdiff_t x0 = (ptrdiff_t)(u >> 32), y0 = (ptrdiff_t)(v >> 32);
    return x0 >= 0 && y0 >= 0 && x0 < s->width - 1 && y0 < s->height - 1;
}

static inline short weight(int64_t u) { return (short)((((uint64_t)u & 0xFFFFFFFFu) * 255 + 0x80000000u) >> 32); }

// Two neighbouring pixels' bilinear samples at once, every tap inside: pixel A in 16-bit lanes
// 0–3, pixel B in lanes 4–7, the same lerps as sample4 (so the same bits), each done once for
// both pixels.
static inline __m128i sample2(const crisp_bilinear *s, int64_t ua, int64_t va, int64_t ub, int64_t vb) {
    const uint32_t *pa = s->pixels + (va >> 32) * s->width + (ua >> 32);
    const uint32_t *pb = s->pixels + (vb >> 32) * s->width + (ub >> 32);
    const __m128i zero = _mm_setzero_si128(), full = _mm_set1_epi16(255);
    // [left A, left B, right A, right B] of the top and the bottom row, widened.
    __m128i t = _mm_unpacklo_epi32(_mm_loadl_epi64((const __m128i *)pa), _mm_loadl_epi64((const __m128i *)pb));
    __m128i b = _mm_unpacklo_epi32(_mm_loadl_epi64((const __m128i *)(pa + s->width)),
                                   _mm_loadl_epi64((const __m128i *)(pb + s->width)));
    short axa = weight(ua), axb = weight(ub), aya = weight(va), ayb = weight(vb);
    __m128i fx = _mm_set_epi16(axb, axb, axb, axb, axa, axa, axa, axa), gx = _mm_sub_epi16(full, fx);
    __m128i fy = _mm_set_epi16(ayb, ayb, ayb, ayb, aya, aya, aya, aya), gy = _mm_sub_epi16(full, fy);
    __m128i top = lerp4(_mm_unpacklo_epi8(t, zero), _mm_unpackhi_epi8(t, zero), fx, gx);
    __m128i bottom = lerp4(_mm_unpacklo_epi8(b, zero), _mm_unpackhi_epi8(b, zero), fx, gx);
    return lerp4(top, bottom, fy, gy);
}
#endif

void crisp_cross_fade_row(uint32_t *dest, ptrdiff_t count, const crisp_bilinear *under, int64_t uu, int64_t vu,
                          int64_t suu, int64_t svu, const crisp_bilinear *over, int64_t uo, int64_t vo, int64_t suo,
                          int64_t svo, uint32_t alpha) {
    ptrdiff_t i = 0;
#if defined(__SSE2__)
    // Two pixels a step where all their taps are inside both pictures (almost every pixel of a
    // turn): each lerp and the fade work on both at once.
    const __m128i a = _mm_set1_epi16((short)alpha), zero = _mm_setzero_si128(), full = _mm_set1_epi16(255);
    for (; i + 1 < count; i += 2) {
        int64_t uu1 = uu + suu, vu1 = vu + svu, uo1 = uo + suo, vo1 = vo + svo;
        if (inside(under, uu, vu) && inside(under, uu1, vu1) && inside(over, uo, vo) && inside(over, uo1, vo1)) {
            __m128i su = sample2(under, uu, vu, uu1, vu1), so = sample2(over, uo, vo, uo1, vo1);
            __m128i s = div255(_mm_mullo_epi16(so, a));
            // Each pixel's alpha (lanes 3 and 7) across its four lanes: what is left of the under one.
            __m128i k = _mm_sub_epi16(full, _mm_shufflehi_epi16(_mm_shufflelo_epi16(s, 0xFF), 0xFF));
            __m128i d = div255(_mm_mullo_epi16(su, k));
            _mm_storel_epi64((__m128i *)(dest + i), _mm_add_epi32(_mm_packus_epi16(s, zero), _mm_packus_epi16(d, zero)));
        } else {
            dest[i] = cross_fade_one(under, uu, vu, over, uo, vo, alpha);
            dest[i + 1] = cross_fade_one(under, uu1, vu1, over, uo1, vo1, alpha);
        }
        uu = uu1 + suu; vu = vu1 + svu; uo = uo1 + suo; vo = vo1 + svo;
    }
#endif
    for (; i < count; i++) {
        dest[i] = cross_fade_one(under, uu, vu, over, uo, vo, alpha);
        uu += suu; vu += svu; uo += suo; vo += svo;
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

// Whether the samples at (c + i·s) >> 32 for every i in [a, b) have both their taps, p and
// p + 1, in [0, last]: the coordinate is affine in i, so its ends decide.
static inline int taps_inside(int64_t c, int64_t s, ptrdiff_t a, ptrdiff_t b, ptrdiff_t last) {
    int64_t p = (c + a * s) >> 32, q = (c + (b - 1) * s) >> 32;
    return p >= 0 && q >= 0 && p < last && q < last;
}

// One coordinate of a row: c + i·s at pixel i (32.32), its taps inside while c >> 32 is in [0, last).
typedef struct { int64_t c, s; ptrdiff_t last; } crisp_axis;

// The pixels [*a, *b) of a row whose every tap is inside both pictures, found from a double
// estimate and then moved until the exact test holds at both ends (so for all between).
static void inside_span(const crisp_axis *axes, ptrdiff_t count, ptrdiff_t *a, ptrdiff_t *b) {
    double lo = 0, hi = (double)count;
    for (int k = 0; k < 4; k++) {
        double c = (double)axes[k].c / 4294967296.0, s = (double)axes[k].s / 4294967296.0, top = (double)axes[k].last;
        if (axes[k].last <= 0) { *a = *b = 0; return; }
        if (s > 0) { double l = -c / s, h = (top - c) / s; if (l > lo) lo = l; if (h < hi) hi = h; }
        else if (s < 0) { double l = (top - c) / s, h = -c / s; if (l > lo) lo = l; if (h < hi) hi = h; }
        else if (c < 0 || c >= top) { *a = *b = 0; return; }
    }
    if (!(lo < hi) || lo >= (double)count || hi <= 0) { *a = *b = 0; return; }
    ptrdiff_t s = lo > 0 ? (ptrdiff_t)lo + 1 : 0, e = hi < (double)count ? (ptrdiff_t)hi : count;
    if (s < 0) s = 0;
    if (e > count) e = count;
    for (;;) {
        if (e - s <= 0) { *a = *b = 0; return; }
        int ok = 1;
        for (int k = 0; k < 4; k++) ok &= taps_inside(axes[k].c, axes[k].s, s, e, axes[k].last);
        if (ok) break;
        s++;
        e--;
    }
    *a = s;
    *b = e;
}

__attribute__((target("avx2"))) static inline __m256i div255x(__m256i v) {
    return _mm256_mulhi_epu16(_mm256_add_epi16(v, _mm256_set1_epi16(128)), _mm256_set1_epi16(257));
}
__attribute__((target("avx2"))) static inline __m256i lerpx(__m256i a, __m256i b, __m256i f, __m256i g) {
    return _mm256_add_epi16(div255x(_mm256_mullo_epi16(b, f)), div255x(_mm256_mullo_epi16(a, g)));
}

// Four pixels' samples of one picture: 16-bit lanes, pixels 0, 1 in the low half and 2, 3 in
// the high one (four lanes each). U and V hold the four pixels' 32.32 coordinates.
__attribute__((target("avx2"))) static inline __m256i sample4x(const uint32_t *px, ptrdiff_t width, __m256i U, __m256i V) {
    const __m256i c255 = _mm256_set1_epi64x(255), half = _mm256_set1_epi64x(0x80000000LL), zero = _mm256_setzero_si256();
    const __m256i full = _mm256_set1_epi16(255);
    // Each 64-bit lane's weight byte (0) into its pixel's four 16-bit lanes.
    const __m256i spread = _mm256_setr_epi8(0, -1, 0, -1, 0, -1, 0, -1, 8, -1, 8, -1, 8, -1, 8, -1,
                                            0, -1, 0, -1, 0, -1, 0, -1, 8, -1, 8, -1, 8, -1, 8, -1);
    __m256i idx = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(V, 32), _mm256_set1_epi64x(width)), _mm256_srli_epi64(U, 32));
    __m256i fx = _mm256_shuffle_epi8(_mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epu32(U, c255), half), 32), spread);
    __m256i fy = _mm256_shuffle_epi8(_mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epu32(V, c255), half), 32), spread);
    __m256i gx = _mm256_sub_epi16(full, fx), gy = _mm256_sub_epi16(full, fy);
    int64_t at[4];
    _mm256_storeu_si256((__m256i *)at, idx);
    const uint32_t *p0 = px + at[0], *p1 = px + at[1], *p2 = px + at[2], *p3 = px + at[3];
    __m128i t01 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)p0), _mm_loadl_epi64((const __m128i *)p1));
    __m128i t23 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)p2), _mm_loadl_epi64((const __m128i *)p3));
    __m128i b01 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(p0 + width)), _mm_loadl_epi64((const __m128i *)(p1 + width)));
    __m128i b23 = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(p2 + width)), _mm_loadl_epi64((const __m128i *)(p3 + width)));
    // [left 0, right 0, left 1, right 1 | 2, 3 likewise] → [left 0, left 1, right 0, right 1 | …].
    __m256i T = _mm256_shuffle_epi32(_mm256_inserti128_si256(_mm256_castsi128_si256(t01), t23, 1), 0xD8);
    __m256i B = _mm256_shuffle_epi32(_mm256_inserti128_si256(_mm256_castsi128_si256(b01), b23, 1), 0xD8);
    __m256i top = lerpx(_mm256_unpacklo_epi8(T, zero), _mm256_unpackhi_epi8(T, zero), fx, gx);
    __m256i bottom = lerpx(_mm256_unpacklo_epi8(B, zero), _mm256_unpackhi_epi8(B, zero), fx, gx);
    return lerpx(top, bottom, fy, gy);
}

__attribute__((target("avx2")))
void crisp_cross_fade_row_avx2(uint32_t *dest, ptrdiff_t count, const crisp_bilinear *under, int64_t uu, int64_t vu,
                               int64_t suu, int64_t svu, const crisp_bilinear *over, int64_t uo, int64_t vo, int64_t suo,
                               int64_t svo, uint32_t alpha) {
    crisp_axis axes[4] = {{uu, suu, under->width - 1}, {vu, svu, under->height - 1},
                          {uo, suo, over->width - 1}, {vo, svo, over->height - 1}};
    ptrdiff_t a, b;
    inside_span(axes, count, &a, &b);
    // Too few pixels inside to be worth the setup: the SSE2 route for the whole row.
    if (b - a < 8) {
        crisp_cross_fade_row(dest, count, under, uu, vu, suu, svu, over, uo, vo, suo, svo, alpha);
        return;
    }
    if (a > 0) crisp_cross_fade_row(dest, a, under, uu, vu, suu, svu, over, uo, vo, suo, svo, alpha);
    __m256i UU = _mm256_setr_epi64x(uu + a * suu, uu + (a + 1) * suu, uu + (a + 2) * suu, uu + (a + 3) * suu);
    __m256i VU = _mm256_setr_epi64x(vu + a * svu, vu + (a + 1) * svu, vu + (a + 2) * svu, vu + (a + 3) * svu);
    __m256i UO = _mm256_setr_epi64x(uo + a * suo, uo + (a + 1) * suo, uo + (a + 2) * suo, uo + (a + 3) * suo);
    __m256i VO = _mm256_setr_epi64x(vo + a * svo, vo + (a + 1) * svo, vo + (a + 2) * svo, vo + (a + 3) * svo);
    const __m256i dUU = _mm256_set1_epi64x(4 * suu), dVU = _mm256_set1_epi64x(4 * svu);
    const __m256i dUO = _mm256_set1_epi64x(4 * suo), dVO = _mm256_set1_epi64x(4 * svo);
    const __m256i al = _mm256_set1_epi16((short)alpha), full = _mm256_set1_epi16(255), zero = _mm256_setzero_si256();
    const uint32_t *up = under->pixels, *op = over->pixels;
    const ptrdiff_t uw = under->width, ow = over->width;
    ptrdiff_t i = a;
    for (; i + 4 <= b; i += 4) {
        __m256i su = sample4x(up, uw, UU, VU), so = sample4x(op, ow, UO, VO);
        __m256i s = div255x(_mm256_mullo_epi16(so, al));
        __m256i k = _mm256_sub_epi16(full, _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(s, 0xFF), 0xFF));
        __m256i d = div255x(_mm256_mullo_epi16(su, k));
        __m256i sum = _mm256_add_epi32(_mm256_packus_epi16(s, zero), _mm256_packus_epi16(d, zero));
        _mm_storeu_si128((__m128i *)(dest + i), _mm256_castsi256_si128(_mm256_permute4x64_epi64(sum, 0x08)));
        UU = _mm256_add_epi64(UU, dUU); VU = _mm256_add_epi64(VU, dVU);
        UO = _mm256_add_epi64(UO, dUO); VO = _mm256_add_epi64(VO, dVO);
    }
    if (i < count) crisp_cross_fade_row(dest + i, count - i, under, uu + i * suu, vu + i * svu, suu, svu,
                                        over, uo + i * suo, vo + i * svo, suo, svo, alpha);
}
#else
void crisp_cross_fade_row_avx2(uint32_t *dest, ptrdiff_t count, const crisp_bilinear *under, int64_t uu, int64_t vu,
                               int64_t suu, int64_t svu, const crisp_bilinear *over, int64_t uo, int64_t vo, int64_t suo,
                               int64_t svo, uint32_t alpha) {
    crisp_cross_fade_row(dest, count, under, uu, vu, suu, svu, over, uo, vo, suo, svo, alpha);
}
#endif
