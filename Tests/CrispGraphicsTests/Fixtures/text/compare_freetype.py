#!/usr/bin/env python3
"""Compare Crisp's text rendering with FreeType's, string by string.

One-off quality check (not part of the test suite). Needs a release build of `crisp` and, in a
virtual environment, `pip install freetype-py pillow numpy`. Run from the repository root:

    swift build -c release
    python3 Tests/CrispGraphicsTests/Fixtures/text/compare_freetype.py

For every string, size, face and start position, Crisp renders the line with `crisp text`
(kerning off: FreeType's own kerning API reads only legacy 'kern' tables, and Roboto's kerning
is in GPOS), and FreeType renders the same glyphs unhinted (FT_LOAD_NO_HINTING, anti-aliased,
FT_RENDER_MODE_NORMAL) at the exact fractional pen positions given by the unhinted advances,
coverage added glyph by glyph. Both are 8-bit coverage on the same pixel grid.

Reported per case: mean |difference| over pixels either renderer inks, and over the whole
image (0-255); the largest difference; total ink (sum of coverage) of Crisp relative to
FreeType (weight); and the difference of the inked extent's left and right edges, measured as
the x where half a pixel of ink has accumulated from either side (spacing/width).
"""
import os
import subprocess
import sys
import tempfile

import freetype
import numpy as np
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
CRISP = os.path.join(ROOT, ".build", "release", "crisp")
FONTS = {"regular": "Roboto-Regular.ttf", "bold": "Roboto-Bold.ttf"}
STRINGS = [
    "Touch to return to call",
    "signal quality / time",
    "Zum Gespräch zurückkehren: Größe, Straße",
    "¿Volver a la llamada? ¡Señal! Año, niño",
    "0123456789 %°•…–—",
]
SIZES = [12, 17, 34]
STARTS = [4.0, 4.3]
# With --quantized, FreeType's pen positions are rounded to 1/4 px as Crisp's glyph cache does,
# which isolates the outline rendering from the sub-pixel positioning.
QUANTIZE = "--quantized" in sys.argv


def crisp_coverage(text, size, bold, x, width, height, baseline):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "crisp.png")
        cmd = [CRISP, "text", text, "-o", out, "--size", str(size), "--x", str(x), "--no-kerning",
               "--width", str(width), "--height", str(height), "--baseline", str(baseline)]
        if bold:
            cmd.append("--bold")
        subprocess.run(cmd, check=True)
        rgb = np.asarray(Image.open(out).convert("RGB"), dtype=np.float64)
        return 255.0 - rgb[:, :, 0]


def freetype_coverage(text, size, face, x, width, height, baseline):
    face.set_char_size(int(round(size * 64)), 0, 72, 72)
    flags = freetype.FT_LOAD_NO_HINTING | freetype.FT_LOAD_NO_BITMAP | freetype.FT_LOAD_RENDER
    canvas = np.zeros((height, width), dtype=np.float64)
    pen = x
    for ch in text:
        index = face.get_char_index(ord(ch))
        at = round(pen * 4) / 4 if QUANTIZE else pen
        whole = int(np.floor(at))
        frac = at - whole
        face.set_transform(freetype.Matrix(0x10000, 0, 0, 0x10000), freetype.Vector(int(round(frac * 64)), 0))
        face.load_glyph(index, flags)
        g = face.glyph
        bm = g.bitmap
        if bm.width and bm.rows:
            data = np.array(bm.buffer, dtype=np.float64).reshape(bm.rows, bm.pitch)[:, :bm.width]
            left = whole + g.bitmap_left
            top = baseline - g.bitmap_top
            x0, y0 = max(left, 0), max(top, 0)
            x1, y1 = min(left + bm.width, width), min(top + bm.rows, height)
            if x1 > x0 and y1 > y0:
                canvas[y0:y1, x0:x1] += data[y0 - top:y1 - top, x0 - left:x1 - left]
        pen += g.linearHoriAdvance / 65536.0
    return np.minimum(canvas, 255.0), pen


def edges(cov):
    """Where the ink starts and ends: the x at which the ink mass left of it (right of it)
    reaches half a fully covered pixel, interpolated within the column."""
    cols = cov.sum(axis=0) / 255.0
    def first(c):
        total = 0.0
        for i, m in enumerate(c):
            if total + m >= 0.5:
                return i + (0.5 - total) / m
            total += m
        return 0.0
    return first(cols), len(cols) - first(cols[::-1])


def main():
    if not os.path.exists(CRISP):
        sys.exit("build first: swift build -c release")
    rows = []
    for weight, file in FONTS.items():
        face = freetype.Face(os.path.join(ROOT, "Resources", "Fonts", file))
        for size in SIZES:
            for text in STRINGS:
                for x in STARTS:
                    height = int(2 * size)
                    baseline = int(round(size * 1.4))
                    _, end = freetype_coverage(text, size, face, x, 1, 1, 0)
                    width = int(np.ceil(end + x))
                    ft, _ = freetype_coverage(text, size, face, x, width, height, baseline)
                    cr = crisp_coverage(text, size, weight == "bold", x, width, height, baseline)
                    diff = np.abs(ft - cr)
                    ink = (ft > 0) | (cr > 0)
                    fl, fr = edges(ft)
                    cl, cr_ = edges(cr)
                    rows.append((weight, size, x, text, diff[ink].mean(), diff.mean(), diff.max(),
                                 cr.sum() / ft.sum(), cl - fl, cr_ - fr))
    print("%-8s %4s %4s  %-42s %7s %7s %5s %7s %7s %7s" % (
        "face", "px", "x", "text", "meanInk", "meanAll", "max", "weight", "dLeft", "dRight"))
    for r in rows:
        print("%-8s %4d %4.1f  %-42s %7.2f %7.3f %5.0f %7.4f %+7.3f %+7.3f" % r)
    a = np.array([r[4:] for r in rows], dtype=np.float64)
    print("\nover %d cases: mean |diff| over ink %.2f (worst case %.2f), over all pixels %.3f; "
          "max |diff| %d; weight ratio %.4f (min %.4f, max %.4f); |edge shift| mean %.3f px, max %.3f px"
          % (len(rows), a[:, 0].mean(), a[:, 0].max(), a[:, 1].mean(), a[:, 2].max(), a[:, 3].mean(),
             a[:, 3].min(), a[:, 3].max(), np.abs(a[:, 4:6]).mean(), np.abs(a[:, 4:6]).max()))


if __name__ == "__main__":
    main()
