// The rotation's cross-fade, a row of fully covered pixels: two pictures sampled bilinearly
// with SSE2, the second scaled by the fade's alpha and put over the first (opaque), bit for bit
// what `TransformedImageBlit.crossFadeRow` does in Swift (CGContext+TransformedImages.swift).
//
// A sample's four taps are two 64-bit loads (two neighbours of a row each) widened to 16-bit
// lanes; every lerp is Pixel.lerp's `scale(a, f) + scale(b, 255 − f)`, each scale the exact
// rounded division by 255 that SourceOverAVX2.c describes, `(v + 128)·257 >> 16`, on the lanes.
// A tap outside the picture (a sample within half a pixel of its edge) takes the scalar route,
// which clamps as the Swift code does.

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

void crisp_cross_fade_row(uint32_t *dest, ptrdiff_t count, const crisp_bilinear *under, int64_t uu, int64_t vu,
                          int64_t suu, int64_t svu, const crisp_bilinear *over, int64_t uo, int64_t vo, int64_t suo,
                          int64_t svo, uint32_t alpha) {
#if defined(__SSE2__)
    const __m128i a = _mm_set1_epi16((short)alpha), zero = _mm_setzero_si128();
#endif
    for (ptrdiff_t i = 0; i < count; i++) {
#if defined(__SSE2__)
        __m128i su, so;
        if (sample4(under, uu, vu, &su) && sample4(over, uo, vo, &so)) {
            // scale(over, alpha), and under · (255 − its alpha) / 255, packed to bytes and added
            // as 32-bit words, as Pixel.sourceOver adds.
            __m128i s = div255(_mm_mullo_epi16(so, a));
            uint32_t sp = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(s, zero));
            __m128i k = _mm_set1_epi16((short)(255 - (sp >> 24)));
            uint32_t dp = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(div255(_mm_mullo_epi16(su, k)), zero));
            dest[i] = sp + dp;
        } else
#endif
        {
            uint32_t s = sample1(under, uu, vu);
            uint32_t o = scale1(sample1(over, uo, vo), alpha);
            dest[i] = o + scale1(s, 255 - (o >> 24));
        }
        uu += suu; vu += svu; uo += suo; vo += svo;
    }
}
