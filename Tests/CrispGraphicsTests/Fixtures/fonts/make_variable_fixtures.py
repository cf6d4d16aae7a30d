#!/usr/bin/python3
"""Builds Tests/CrispGraphicsTests/Fixtures/fonts/VariableTest.ttf (glyf + gvar + avar),
VariableTest-CFF2.otf (CFF2 blends) and VariableTest-MVAR.ttf (the glyf font whose masters
also differ in their line metrics, so varLib adds an 'MVAR': typographic ascender 760 / 800 /
900, descender -180 / -200 / -240, line gap 0 / 0 / 100, cap height 650 / 700 / 760, x height
480 / 500 / 540 at Thin / Regular / Black; 'hhea' stays the Regular's, as MVAR varies it): a 'wght' axis 100...900 (default 400) with named instances
Thin, Regular and Bold, and an 'avar' map that moves wght 700 to the normalized 0.8 instead of
0.5. Glyphs: .notdef, space, 'I' (a bar whose stem is 40 units at 100, 100 at 400, 260 at 900)
and 'H'. Needs python3-fonttools (Debian); run from the repository root."""
import os, sys
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.designspaceLib import DesignSpaceDocument, AxisDescriptor, SourceDescriptor, InstanceDescriptor
from fontTools import varLib

OUT = sys.argv[1] if len(sys.argv) > 1 else "Tests/CrispGraphicsTests/Fixtures/fonts"
GLYPHS = [".notdef", "space", "I", "H"]

def rect(pen, x0, y0, x1, y1):
    pen.moveTo((x0, y0)); pen.lineTo((x0, y1)); pen.lineTo((x1, y1)); pen.lineTo((x1, y0)); pen.closePath()

def draw(name, pen, stem):
    if name == ".notdef": rect(pen, 50, 0, 450, 700)
    elif name == "I": rect(pen, 60, 0, 60 + stem, 700)
    elif name == "H":
        rect(pen, 60, 0, 60 + stem, 700); rect(pen, 500 - stem, 0, 500, 700); rect(pen, 60, 320, 500, 320 + stem)

# Line metrics per master, for VariableTest-MVAR.ttf: (typo ascender, typo descender, typo
# line gap, cap height, x height).
MVAR_METRICS = {"Thin": (760, -180, 0, 650, 480), "Regular": (800, -200, 0, 700, 500), "Black": (900, -240, 100, 760, 540)}

def master(stem, cff, path, style, metrics=False):
    fb = FontBuilder(1000, isTTF=not cff)
    fb.setupGlyphOrder(GLYPHS)
    fb.setupCharacterMap({0x20: "space", 0x49: "I", 0x48: "H"})
    adv = {".notdef": 500, "space": 250, "I": 120 + stem, "H": 560}
    if cff:
        cs = {}
        for g in GLYPHS:
            pen = T2CharStringPen(adv[g], None); draw(g, pen, stem); cs[g] = pen.getCharString()
        fb.setupCFF("VariableTest-" + style, {"FullName": "Variable Test " + style}, cs, {})
    else:
        gl = {}
        for g in GLYPHS:
            pen = TTGlyphPen(None); draw(g, pen, stem); gl[g] = pen.glyph()
        fb.setupGlyf(gl)
    fb.setupHorizontalMetrics({g: (adv[g], 0) for g in GLYPHS})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Variable Test", "styleName": style})
    if metrics:
        asc, desc, gap, cap, x = MVAR_METRICS[style]
        fb.setupOS2(sTypoAscender=asc, sTypoDescender=desc, sTypoLineGap=gap, usWinAscent=800, usWinDescent=200,
                    usWeightClass=400, sCapHeight=cap, sxHeight=x, version=4)
    else:
        fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200, usWeightClass=400)
    fb.setupPost()
    fb.save(path)

def build(cff, metrics=False):
    ext = "otf" if cff else "ttf"
    ds = DesignSpaceDocument()
    a = AxisDescriptor(); a.tag = "wght"; a.name = "Weight"; a.minimum = 100; a.default = 400; a.maximum = 900
    a.map = [(100, 100), (400, 400), (700, 820), (900, 900)]   # avar: 700 -> normalized 0.84
    ds.addAxis(a)
    for w, stem, style in [(100, 40, "Thin"), (400, 100, "Regular"), (900, 260, "Black")]:
        p = f"/tmp/vf/master-{style}.{ext}"; master(stem, cff, p, style, metrics)
        s = SourceDescriptor(); s.path = p; s.location = {"Weight": {100: 100, 400: 400, 900: 900}[w]}; ds.addSource(s)
    for w, style in [(100, "Thin"), (400, "Regular"), (700, "Bold")]:
        i = InstanceDescriptor(); i.styleName = style; i.familyName = "Variable Test"; i.userLocation = {"Weight": w}; ds.addInstance(i)
    vf, _, _ = varLib.build(ds)
    vf.save(os.path.join(OUT, "VariableTest-MVAR.ttf" if metrics else "VariableTest-CFF2.otf" if cff else "VariableTest.ttf"))

os.makedirs("/tmp/vf", exist_ok=True)
build(False)
build(True)
build(False, metrics=True)
