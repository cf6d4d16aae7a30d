#!/usr/bin/env python3
"""Small colour fonts for ColorGlyphTests, made with fontTools (pip install fonttools).

Run from the repository root:
    python3 Tests/CrispGraphicsTests/Fixtures/fonts/make_color_fixtures.py

Every font has 1000 units per em and a few plain outlines (a square, a diamond, a bar, a
ring); the colour glyphs are mapped to capital letters:
  color-colrv0.ttf  COLR v0 + CPAL (3 palettes): A = red square, foreground diamond, blue bar;
                    B = one layer in the text colour.
  color-colrv1.ttf  COLR v1: A linear (pad), B radial, C sweep, D linear repeat, E linear reflect,
                    F rotated + scaled PaintColrGlyph of A, G PaintComposite (multiply),
                    H skewed square through PaintTransform; with a ClipList.
  color-colrv1-variable.ttf  COLR v1 with variable paints and an item variation store, a 'wght'
                    axis 400…700 (default 400; one region peaking at 700): A PaintVarSolid whose
                    alpha goes 1 → 0.5; B a square PaintVarTranslate'd 0 → +200 units in x;
                    C a bar PaintVarRotateAroundCenter'd 0° → 90° about (500, 400); D a
                    PaintVarLinearGradient whose p1 moves 900 → 500 in x and whose second stop's
                    alpha goes 1 → 0.5 (VarColorLine); E the same with a DeltaSetIndexMap (its
                    entries point 4 rows further than the indices it is given, each row its own).
  color-sbix.ttf    sbix: A has 16 and 64 ppem PNG strikes (a red/blue checker and a green disc),
                    B a 'dupe' of A.
  color-cbdt.ttf    CBDT/CBLC (index format 1, image format 17): A at 32 ppem (orange disc).
Hostile ones (drawn partially or refused, never a crash):
  hostile-colr.ttf  COLR v1: A = layers containing themselves (a cycle), B and C PaintColrGlyph of
                    each other, D 65 281 paints through shared layers, E 200 nested translates,
                    F a singular transform, G a bad paint format.
  hostile-colr-truncated.ttf  color-colrv1.ttf with its COLR table cut to 60 bytes.
  hostile-bitmap.ttf  sbix: A claims a 60000x60000 PNG, B is not a PNG, C a 'dupe' of itself,
                    D a PNG of 1x1 that is fine.
"""
import os
import struct
import zlib

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.colorLib.builder import buildCOLR, buildCPAL
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables import otTables as ot
from fontTools.ttLib.tables import sbixStrike, sbixGlyph

HERE = os.path.dirname(os.path.abspath(__file__))


def poly(points):
    pen = TTGlyphPen(None)
    pen.moveTo(points[0])
    for p in points[1:]:
        pen.lineTo(p)
    pen.closePath()
    return pen.glyph()


def ring():
    import math
    pen = TTGlyphPen(None)
    for r, sign in ((400, 1), (250, -1)):
        pts = [(500 + r * math.cos(sign * a * math.pi / 16), 400 + r * math.sin(sign * a * math.pi / 16)) for a in range(32)]
        pen.moveTo((round(pts[0][0]), round(pts[0][1])))
        for x, y in pts[1:]:
            pen.lineTo((round(x), round(y)))
        pen.closePath()
    return pen.glyph()


SHAPES = {
    ".notdef": poly([(100, 0), (100, 700), (500, 700), (500, 0)]),
    "square": poly([(100, 0), (100, 800), (900, 800), (900, 0)]),
    "diamond": poly([(500, 0), (100, 400), (500, 800), (900, 400)]),
    "bar": poly([(100, 300), (100, 500), (900, 500), (900, 300)]),
    "ring": ring(),
    "space": TTGlyphPen(None).glyph(),
}


def base_font(colour_glyphs, with_outlines=True):
    """A font with the shapes plus `colour_glyphs` (names, mapped to A, B, …)."""
    order = list(SHAPES) + colour_glyphs
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(order)
    cmap = {0x20: "space"}
    for i, name in enumerate(colour_glyphs):
        cmap[ord("A") + i] = name
    fb.setupCharacterMap(cmap)
    glyphs = dict(SHAPES)
    for name in colour_glyphs:
        glyphs[name] = SHAPES["square"] if with_outlines else TTGlyphPen(None).glyph()
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({n: (1000, 0) for n in order})
    fb.setupHorizontalHeader(ascent=900, descent=-200)
    fb.setupNameTable({"familyName": "Crisp Colour Test", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=900, sTypoDescender=-200, usWinAscent=900, usWinDescent=200)
    fb.setupPost()
    return fb


def save(fb_or_font, name):
    path = os.path.join(HERE, name)
    font = fb_or_font.font if isinstance(fb_or_font, FontBuilder) else fb_or_font
    font.save(path)
    print(name, os.path.getsize(path), "bytes")


PALETTES = [
    [(0.9, 0.1, 0.1, 1.0), (0.1, 0.3, 0.9, 1.0), (0.1, 0.7, 0.2, 1.0), (1.0, 0.8, 0.0, 1.0)],
    [(0.2, 0.2, 0.2, 1.0), (0.6, 0.6, 0.6, 1.0), (0.9, 0.5, 0.0, 1.0), (0.0, 0.6, 0.6, 1.0)],
    [(0.5, 0.0, 0.5, 1.0), (0.0, 0.5, 0.5, 0.5), (0.9, 0.9, 0.0, 1.0), (0.0, 0.0, 0.0, 1.0)],
]


def colrv0():
    fb = base_font(["A.color", "B.color"])
    fb.font["CPAL"] = buildCPAL(PALETTES)
    fb.font["COLR"] = buildCOLR({
        "A.color": [("square", 0), ("diamond", 0xFFFF), ("bar", 1)],
        "B.color": [("ring", 0xFFFF)],
    }, version=0)
    save(fb, "color-colrv0.ttf")


def solid(i, alpha=1.0):
    return {"Format": ot.PaintFormat.PaintSolid, "PaletteIndex": i, "Alpha": alpha}


def glyph(name, paint):
    return {"Format": ot.PaintFormat.PaintGlyph, "Paint": paint, "Glyph": name}


def line(extend, stops):
    return {"Extend": extend, "ColorStop": [{"StopOffset": o, "PaletteIndex": i, "Alpha": a} for o, i, a in stops]}


def colrv1():
    names = [c + ".color" for c in "ABCDEFGH"]
    fb = base_font(names)
    fb.font["CPAL"] = buildCPAL(PALETTES)
    three = [(0.0, 0, 1.0), (0.5, 3, 1.0), (1.0, 1, 1.0)]
    paints = {
        "A.color": glyph("square", {"Format": ot.PaintFormat.PaintLinearGradient, "ColorLine": line("pad", three),
                                    "x0": 100, "y0": 0, "x1": 900, "y1": 0, "x2": 100, "y2": 800}),
        "B.color": glyph("ring", {"Format": ot.PaintFormat.PaintRadialGradient, "ColorLine": line("pad", three),
                                  "x0": 500, "y0": 400, "r0": 0, "x1": 500, "y1": 400, "r1": 420}),
        "C.color": glyph("square", {"Format": ot.PaintFormat.PaintSweepGradient,
                                    "ColorLine": line("pad", [(0.0, 0, 1.0), (0.33, 3, 1.0), (0.66, 2, 1.0), (1.0, 0, 1.0)]),
                                    "centerX": 500, "centerY": 400, "startAngle": 0, "endAngle": 360}),
        "D.color": glyph("square", {"Format": ot.PaintFormat.PaintLinearGradient,
                                    "ColorLine": line("repeat", [(0.0, 0, 1.0), (0.5, 1, 1.0)]),
                                    "x0": 100, "y0": 0, "x1": 300, "y1": 200, "x2": 300, "y2": -200}),
        "E.color": glyph("square", {"Format": ot.PaintFormat.PaintLinearGradient,
                                    "ColorLine": line("reflect", [(0.0, 2, 1.0), (1.0, 3, 1.0)]),
                                    "x0": 100, "y0": 0, "x1": 100, "y1": 200, "x2": 300, "y2": 0}),
        "F.color": {"Format": ot.PaintFormat.PaintScaleAroundCenter, "scaleX": 0.7, "scaleY": 0.7, "centerX": 500, "centerY": 400,
                    "Paint": {"Format": ot.PaintFormat.PaintRotateAroundCenter, "angle": 30, "centerX": 500, "centerY": 400,
                              "Paint": {"Format": ot.PaintFormat.PaintColrGlyph, "Glyph": "A.color"}}},
        "G.color": {"Format": ot.PaintFormat.PaintComposite, "CompositeMode": "multiply",
                    "SourcePaint": glyph("diamond", solid(3)),
                    "BackdropPaint": {"Format": ot.PaintFormat.PaintColrLayers,
                                      "Layers": [glyph("square", solid(1)), glyph("bar", solid(0xFFFF, 0.8))]}},
        "H.color": {"Format": ot.PaintFormat.PaintTransform,
                    "Transform": {"xx": 1.0, "yx": 0.0, "xy": 0.3, "yy": 1.0, "dx": -120, "dy": 0},
                    "Paint": {"Format": ot.PaintFormat.PaintColrLayers,
                              "Layers": [glyph("square", solid(2, 0.5)), glyph("diamond", solid(0))]}},
    }
    fb.font["COLR"] = buildCOLR(paints, version=1, clipBoxes={n: (0, -100, 1000, 900) for n in names})
    save(fb, "color-colrv1.ttf")


def colrv1_variable():
    from fontTools.varLib.builder import buildVarRegionList, buildVarData, buildVarStore, buildDeltaSetIndexMap
    names = [c + ".color" for c in "ABCDE"]
    fb = base_font(names)
    # Left side bearings equal to the outlines' xMin, as in a real font: at an instance HarfBuzz
    # places a 'glyf' outline by its phantom points, which come from the bearing.
    glyf = fb.font["glyf"]
    for n in fb.font.getGlyphOrder():
        glyf[n].recalcBounds(glyf)
    fb.setupHorizontalMetrics({n: (1000, getattr(glyf[n], "xMin", 0)) for n in fb.font.getGlyphOrder()})
    fb.setupFvar(axes=[("wght", 400, 400, 700, "Weight")], instances=[])
    fb.font["CPAL"] = buildCPAL(PALETTES)
    # Deltas at wght 700 (normalized +1), in each field's units: F2Dot14 fields in 1/16384,
    # FWORDs in font units. One row per variable field, numbered by varIndexBase + field.
    rows = [
        [-8192],                                 # 0: A alpha -0.5
        [200], [0],                              # 1, 2: B dx, dy
        [8192], [0], [0],                        # 3-5: C angle +0.5 (x 180 degrees), centerX, centerY
        [0], [0], [-400], [0], [0], [0],         # 6-11: D x0, y0, x1, y1, x2, y2
        [0], [0],                                # 12, 13: D stop 0 offset, alpha
        [0], [-8192],                            # 14, 15: D stop 1 offset, alpha -0.5
        [0], [0], [0], [0],                      # 16-19: padding E's map skips
    ]
    regions = buildVarRegionList([{"wght": (0, 1.0, 1.0)}], ["wght"])
    store = buildVarStore(regions, [buildVarData([0], rows, optimize=False)])
    # E's paint asks for indices 100…; the map sends index 100 + k to row 6 + k (D's rows), so E
    # draws as D when the map is read, and with no deltas when it is not.
    mapping = list(range(100)) + [6 + k for k in range(10)]
    var_index_map = buildDeltaSetIndexMap(mapping)

    def var_line(stops):
        return {"Extend": "pad", "ColorStop": [{"StopOffset": o, "PaletteIndex": i, "Alpha": a, "VarIndexBase": b}
                                               for o, i, a, b in stops]}

    def var_linear(base):
        return {"Format": ot.PaintFormat.PaintVarLinearGradient,
                "ColorLine": var_line([(0.0, 0, 1.0, base + 6), (1.0, 1, 1.0, base + 8)]),
                "x0": 100, "y0": 0, "x1": 900, "y1": 0, "x2": 100, "y2": 800, "VarIndexBase": base}

    paints = {
        "A.color": glyph("square", {"Format": ot.PaintFormat.PaintVarSolid, "PaletteIndex": 0, "Alpha": 1.0, "VarIndexBase": 0}),
        "B.color": {"Format": ot.PaintFormat.PaintVarTranslate, "dx": 0, "dy": 0, "VarIndexBase": 1,
                    "Paint": glyph("square", solid(1))},
        "C.color": {"Format": ot.PaintFormat.PaintVarRotateAroundCenter, "angle": 0, "centerX": 500, "centerY": 400,
                    "VarIndexBase": 3, "Paint": glyph("bar", solid(2))},
        "D.color": glyph("square", var_linear(6)),
        "E.color": glyph("square", var_linear(100)),
    }
    fb.font["COLR"] = buildCOLR(paints, version=1, varStore=store, varIndexMap=var_index_map,
                                clipBoxes={n: (0, -100, 1000, 900) for n in names})
    save(fb, "color-colrv1-variable.ttf")


def png(width, height, pixel):
    """An RGBA PNG, pixel(x, y) -> (r, g, b, a)."""
    raw = b"".join(b"\0" + bytes(c for x in range(width) for c in pixel(x, y)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def checker(x, y):
    return (220, 40, 40, 255) if (x // 4 + y // 4) % 2 else (40, 60, 220, 255)


def disc(rgb, size):
    def f(x, y):
        d = ((x + 0.5 - size / 2) ** 2 + (y + 0.5 - size / 2) ** 2) ** 0.5
        return rgb + (255,) if d < size / 2 - 1 else (0, 0, 0, 0)
    return f


def sbix_table(strikes):
    """strikes: {ppem: {glyphName: (graphicType, data, originX, originY)}}."""
    table = newTable("sbix")
    table.version = 1
    table.flags = 1
    for ppem, glyphs in strikes.items():
        strike = sbixStrike.Strike(ppem=ppem, resolution=72)
        for name, (kind, data, ox, oy) in glyphs.items():
            g = sbixGlyph.Glyph(glyphName=name, graphicType=kind, imageData=data if kind != "dupe" else None,
                                originOffsetX=ox, originOffsetY=oy)
            if kind == "dupe":
                g.referenceGlyphName = data
            strike.glyphs[name] = g
        table.strikes[ppem] = strike
    return table


def sbix():
    fb = base_font(["A.color", "B.color"], with_outlines=False)
    fb.font["sbix"] = sbix_table({
        16: {"A.color": ("png ", png(16, 16, checker), 1, 0)},
        64: {"A.color": ("png ", png(64, 64, disc((40, 170, 60), 64)), 2, -6),
             "B.color": ("dupe", "A.color", 0, 0)},
    })
    save(fb, "color-sbix.ttf")


def cbdt():
    fb = base_font(["A.color"], with_outlines=False)
    font = fb.font
    gid = font.getGlyphID("A.color")
    image = png(32, 32, disc((240, 140, 20), 32))
    # CBDT: header, then one glyph in image format 17 (small metrics, PNG).
    glyph_data = struct.pack(">BBbbB", 32, 32, 1, 28, 34) + struct.pack(">I", len(image)) + image
    cbdt_bytes = struct.pack(">HH", 3, 0) + glyph_data
    # CBLC: header, one BitmapSize, one IndexSubTableArray entry, an index subtable format 1.
    array_offset = 8 + 48
    sub_offset = 8     # from the array's start
    metrics = struct.pack(">bbBbbbbbbbbb", 28, -4, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    size = (struct.pack(">IIII", array_offset, 8 + 16, 1, 0) + metrics + metrics
            + struct.pack(">HHBBBb", gid, gid, 32, 32, 32, 1))
    array = struct.pack(">HHI", gid, gid, sub_offset)
    subtable = struct.pack(">HHI", 1, 17, 4) + struct.pack(">II", 0, len(glyph_data))
    cblc_bytes = struct.pack(">HHI", 3, 0, 1) + size + array + subtable
    for tag, data in (("CBDT", cbdt_bytes), ("CBLC", cblc_bytes)):
        font[tag] = _RawTable(tag, data)
    save(fb, "color-cbdt.ttf")


class _RawTable:
    """A table written as given bytes (fontTools' own CBDT builder is not needed for one glyph)."""
    def __init__(self, tag, data):
        self.tableTag = tag
        self.data = data

    def compile(self, font):
        return self.data

    def ensureDecompiled(self, recurse=False):
        pass


def hostile_colr():
    names = [c + ".color" for c in "ABCDEFG"]
    fb = base_font(names)
    fb.font["CPAL"] = buildCPAL(PALETTES)
    font = fb.font
    gid = font.getGlyphID
    square, diamond = gid("square"), gid("diamond")
    # Hand-written COLR v1: header (34 bytes), LayerList, paints, BaseGlyphList at the end.
    body = bytearray()
    paints = {}

    def here():
        return 34 + len(body)

    def add(data):
        at = here()
        body.extend(data)
        return at

    def off24(v):
        return struct.pack(">I", v)[1:]

    # BaseGlyphList first (offsets are forward only), filled in at the end.
    base_list = here()
    body.extend(b"\0" * (4 + 6 * len(names)))
    # Then the LayerList, with room for 2 + 255 + 255 + 1 entries, filled in below.
    layer_list = here()
    n_layers = 2 + 255 + 255 + 1
    body.extend(struct.pack(">I", n_layers) + b"\0" * (4 * n_layers))

    def set_layer(i, absolute):
        struct.pack_into(">I", body, layer_list - 34 + 4 + 4 * i, absolute - layer_list)

    def paint_glyph(g, palette_index):
        # PaintGlyph (6 bytes) followed by its PaintSolid.
        at = add(struct.pack(">B", 10) + off24(6) + struct.pack(">H", g))
        add(struct.pack(">BHh", 2, palette_index, 0x4000))
        return at

    red_square = paint_glyph(square, 0)
    blue_diamond = paint_glyph(diamond, 1)
    # A: ColrLayers(2, first 0): layer 0 = red square, layer 1 = A itself.
    a = add(struct.pack(">BBI", 1, 2, 0))
    set_layer(0, red_square)
    set_layer(1, a)
    paints["A.color"] = a
    # B: ColrLayers[blue diamond, ColrGlyph(C)]; C: ColrGlyph(B).
    b_ref = add(struct.pack(">BH", 11, gid("C.color")))
    set_layer(n_layers - 1, b_ref)
    paints["B.color"] = add(struct.pack(">BBI", 1, 1, n_layers - 1))
    paints["C.color"] = add(struct.pack(">BH", 11, gid("B.color")))
    # D: ColrLayers(255 from 2) -> each ColrLayers(255 from 257) -> red square: 65 281 paints.
    inner = add(struct.pack(">BBI", 1, 255, 257))
    for i in range(255):
        set_layer(2 + i, inner)
        set_layer(257 + i, blue_diamond)
    paints["D.color"] = add(struct.pack(">BBI", 1, 255, 2))
    # E: 200 nested PaintTranslate(1, 0) around a blue square (offsets point forward only).
    chain = []
    for k in range(200):
        chain.append(here())
        body.extend(struct.pack(">B", 14) + b"\0\0\0" + struct.pack(">hh", 1, 0))
    leaf = paint_glyph(square, 1)
    for k in range(200):
        target = chain[k + 1] if k + 1 < 200 else leaf
        body[chain[k] - 34 + 1:chain[k] - 34 + 4] = off24(target - chain[k])
    paints["E.color"] = chain[0]
    # F: PaintTransform with a singular matrix (determinant 0) around a red solid.
    f_at = add(struct.pack(">B", 12) + off24(31) + off24(7))
    body.extend(struct.pack(">iiiiii", 0x10000, 0x20000, 0x8000, 0x10000, 0, 0))
    add(struct.pack(">BHh", 2, 0, 0x4000))
    paints["F.color"] = f_at
    # G: a paint of format 99.
    paints["G.color"] = add(struct.pack(">BBB", 99, 0, 0))
    records = sorted((gid(n), at) for n, at in paints.items())
    struct.pack_into(">I", body, base_list - 34, len(records))
    for i, (g, at) in enumerate(records):
        struct.pack_into(">HI", body, base_list - 34 + 4 + 6 * i, g, at - base_list)
    header = struct.pack(">HHIIHIIIII", 1, 0, 0, 0, 0, base_list, layer_list, 0, 0, 0)
    assert len(header) == 34
    font["COLR"] = _RawTable("COLR", bytes(header + body))
    save(fb, "hostile-colr.ttf")


def truncate_table(src, dst, tag, length):
    data = bytearray(open(os.path.join(HERE, src), "rb").read())
    count = struct.unpack(">H", data[4:6])[0]
    for i in range(count):
        r = 12 + 16 * i
        if data[r:r + 4] == tag.encode():
            struct.pack_into(">I", data, r + 12, length)
    open(os.path.join(HERE, dst), "wb").write(data)
    print(dst, len(data), "bytes")


def hostile_bitmap():
    fb = base_font(["A.color", "B.color", "C.color", "D.color"], with_outlines=False)
    huge = bytearray(png(1, 1, lambda x, y: (255, 0, 0, 255)))
    struct.pack_into(">II", huge, 16, 60000, 60000)
    fb.font["sbix"] = sbix_table({
        20: {"A.color": ("png ", bytes(huge), 0, 0),
             "B.color": ("png ", b"this is not a PNG file at all", 0, 0),
             "C.color": ("dupe", "C.color", 0, 0),
             "D.color": ("png ", png(1, 1, lambda x, y: (255, 0, 0, 255)), 0, 0)},
    })
    save(fb, "hostile-bitmap.ttf")


if __name__ == "__main__":
    import sys
    makers = {
        "colrv0": colrv0, "colrv1": colrv1, "colrv1_variable": colrv1_variable, "sbix": sbix, "cbdt": cbdt,
        "hostile_colr": hostile_colr,
        "hostile_colr_truncated": lambda: truncate_table("color-colrv1.ttf", "hostile-colr-truncated.ttf", "COLR", 60),
        "hostile_bitmap": hostile_bitmap,
    }
    # Names on the command line make only those fonts (python3 make_color_fixtures.py colrv1_variable).
    for name in sys.argv[1:] or makers:
        makers[name]()
