// Writes the raster fixtures of Tests/CrispSVGTests/Fixtures/features/images/ with the system
// encoders (libjpeg-turbo, giflib, libwebp): cc make_images.c -lturbojpeg -lgif -lwebp -lwebpmux
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <gif_lib.h>
#include <webp/encode.h>
#include <webp/mux.h>

enum { W = 48, H = 32 };

// Four quadrants (red, green / blue, yellow) with a white dot near the top-left corner and a
// soft diagonal gradient, so that orientation, offsets and scaling all show.
static void pattern(unsigned char *rgba, int alpha) {
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) {
        unsigned char *p = rgba + 4 * (y * W + x);
        int right = x >= W / 2, bottom = y >= H / 2;
        int r = (!bottom && !right) || (bottom && right) ? 230 : 20;
        int g = (!bottom && right) || (bottom && right) ? 200 : 30;
        int b = bottom && !right ? 220 : 40;
        int t = (x + y) * 2;
        p[0] = (unsigned char)(r > t ? r - t / 4 : r); p[1] = (unsigned char)g; p[2] = (unsigned char)(b + t / 8 > 255 ? 255 : b + t / 8);
        p[3] = 255;
        if (x >= 4 && x < 10 && y >= 4 && y < 10) { p[0] = p[1] = p[2] = 255; }
        if (alpha) p[3] = (unsigned char)(x < 8 ? 0 : (x < 24 ? 64 + 8 * (x - 8) : 255));
    }
}

static void write(const char *name, const unsigned char *data, size_t size) {
    FILE *f = fopen(name, "wb");
    if (!f || fwrite(data, 1, size, f) != size) { perror(name); exit(1); }
    fclose(f);
}

static void jpeg(const char *name, int flags, int gray, int orientation) {
    unsigned char rgba[W * H * 4];
    pattern(rgba, 0);
    tjhandle h = tjInitCompress();
    unsigned char *out = NULL; unsigned long size = 0;
    if (tjCompress2(h, rgba, W, 0, H, TJPF_RGBA, &out, &size, gray ? TJSAMP_GRAY : TJSAMP_420, 90, flags) != 0) {
        fprintf(stderr, "%s: %s\n", name, tjGetErrorStr2(h)); exit(1);
    }
    if (orientation) {
        // APP1 Exif: TIFF header (big-endian), one IFD with one entry: 0x0112 orientation.
        unsigned char app1[] = { 0xFF, 0xE1, 0, 34, 'E', 'x', 'i', 'f', 0, 0,
            'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, (unsigned char)orientation, 0, 0, 0, 0, 0, 0 };
        unsigned char *with = malloc(size + sizeof app1);
        memcpy(with, out, 2); memcpy(with + 2, app1, sizeof app1); memcpy(with + 2 + sizeof app1, out + 2, size - 2);
        write(name, with, size + sizeof app1);
        free(with);
    } else {
        write(name, out, size);
    }
    tjFree(out); tjDestroy(h);
}

static void gif(const char *name, int interlace) {
    unsigned char rgba[W * H * 4];
    pattern(rgba, 0);
    int err = 0;
    GifFileType *g = EGifOpenFileName(name, 0, &err);
    if (!g) { fprintf(stderr, "%s: %s\n", name, GifErrorString(err)); exit(1); }
    // A palette of 4 levels per channel (64 colours); index 0 transparent.
    GifColorType colors[64];
    for (int i = 0; i < 64; i++) { colors[i].Red = (i >> 4) * 85; colors[i].Green = ((i >> 2) & 3) * 85; colors[i].Blue = (i & 3) * 85; }
    ColorMapObject *map = GifMakeMapObject(64, colors);
    EGifSetGifVersion(g, true);
    EGifPutScreenDesc(g, W, H, 6, 0, map);
    unsigned char gce[4] = { 1, 0, 0, 0 };   // transparent index 0
    EGifPutExtension(g, GRAPHICS_EXT_FUNC_CODE, 4, gce);
    EGifPutImageDesc(g, 0, 0, W, H, interlace, NULL);
    unsigned char line[W];
    int rows[H], n = 0;
    if (interlace) {
        int starts[4] = { 0, 4, 2, 1 }, steps[4] = { 8, 8, 4, 2 };
        for (int p = 0; p < 4; p++) for (int y = starts[p]; y < H; y += steps[p]) rows[n++] = y;
    } else for (int y = 0; y < H; y++) rows[n++] = y;
    for (int k = 0; k < H; k++) {
        int y = rows[k];
        for (int x = 0; x < W; x++) {
            unsigned char *p = rgba + 4 * (y * W + x);
            int i = ((p[0] * 3 + 127) / 255) << 4 | ((p[1] * 3 + 127) / 255) << 2 | ((p[2] * 3 + 127) / 255);
            if (i == 0) i = 1;                       // keep 0 for transparency
            if (x >= 40 && y >= 24) i = 0;           // a transparent corner
            line[x] = (unsigned char)i;
        }
        EGifPutLine(g, line, W);
    }
    // A second frame, all white: only the first is drawn.
    EGifPutExtension(g, GRAPHICS_EXT_FUNC_CODE, 4, gce);
    EGifPutImageDesc(g, 0, 0, W, H, false, NULL);
    memset(line, 63, W);
    for (int y = 0; y < H; y++) EGifPutLine(g, line, W);
    GifFreeMapObject(map);
    EGifCloseFile(g, &err);
}

static void webp(const char *name, int lossless) {
    unsigned char rgba[W * H * 4];
    pattern(rgba, 1);
    uint8_t *out = NULL;
    size_t size = lossless ? WebPEncodeLosslessRGBA(rgba, W, H, W * 4, &out) : WebPEncodeRGBA(rgba, W, H, W * 4, 85, &out);
    if (!size) { fprintf(stderr, "%s: encoding failed\n", name); exit(1); }
    write(name, out, size);
    WebPFree(out);
}

int main(void) {
    jpeg("baseline.jpg", 0, 0, 0);
    jpeg("progressive.jpg", TJFLAG_PROGRESSIVE, 0, 0);
    jpeg("gray.jpg", 0, 1, 0);
    jpeg("exif6.jpg", 0, 0, 6);
    gif("first.gif", 0);
    gif("interlaced.gif", 1);
    webp("lossy.webp", 0);
    webp("lossless.webp", 1);
    return 0;
}
