#!/usr/bin/env python3
"""Hostile but well-formed fonts for the regression tests of FontErrorTests (fontTools).

Run from the repository root:
    python3 Tests/CrispGraphicsTests/Fixtures/fonts/make_hostile.py

Writes
  * huge-notdef.ttf: unitsPerEm 16, one glyph ('.notdef', mapped from 'A') whose diamond contour
    spans -32000..32000 units: drawn at 20 px the glyph's box is 80 000 px wide (once asked for
    6.4 GB of glyph bitmap);
  * nested-composites.ttf: unitsPerEm 16, a 20-unit square and eight levels of composites, each
    placing the one below twice with a scale of 1.99 ('A' is the top): 1.99^8 ~ 246 times the
    square, far outside the em (once asked for 25.6 GB).
"""
import os
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

HERE = os.path.dirname(os.path.abspath(__file__))


def square(lo, hi):
    pen = TTGlyphPen(None)
    pen.moveTo((lo, lo))
    pen.lineTo((lo, hi))
    pen.lineTo((hi, hi))
    pen.lineTo((hi, lo))
    pen.closePath()
    return pen.glyph()


def diamond(r):
    """A diamond reaching r units each way (a square's deltas of 2r would not fit in 16 bits)."""
    pen = TTGlyphPen(None)
    pen.moveTo((-r, 0))
    pen.lineTo((0, r))
    pen.lineTo((r, 0))
    pen.lineTo((0, -r))
    pen.closePath()
    return pen.glyph()


def build(name, order, glyphs, cmap, lsb=None):
    fb = FontBuilder(16, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap(cmap)
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({g: (16, (lsb or {}).get(g, 0)) for g in order})
    fb.setupHorizontalHeader(ascent=12, descent=-4)
    fb.setupNameTable({"familyName": "Hostile", "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost()
    path = os.path.join(HERE, name)
    fb.save(path)
    print(path, os.path.getsize(path), "bytes")


build("huge-notdef.ttf", [".notdef"], {".notdef": diamond(32000)}, {0x41: ".notdef"}, lsb={".notdef": -32000})

order = [".notdef", "base"] + ["level%d" % i for i in range(1, 8)] + ["A"]
glyphs = {".notdef": Glyph(), "base": square(0, 20)}
below = "base"
for name in order[2:]:
    g = Glyph()
    g.numberOfContours = -1
    g.components = []
    for dx in (0, 40):
        c = GlyphComponent()
        c.glyphName = below
        c.x, c.y = dx, 0
        c.flags = 0x0001 | 0x0002   # ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES
        c.transform = [[1.99, 0], [0, 1.99]]
        g.components.append(c)
    glyphs[name] = g
    below = name
build("nested-composites.ttf", order, glyphs, {0x41: "A"})
