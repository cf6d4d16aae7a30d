#!/usr/bin/env python3
"""Test fonts and expected values for TrueTypeFontTests, made with fontTools (pip install fonttools).

Run from the repository root:
    python3 Tests/CrispGraphicsTests/Fixtures/fonts/make_fixtures.py

Writes kern-cmap12.ttf: the bundled Roboto-Regular subset with
  * its format 4 cmaps replaced by a single (3,10) format 12 cmap, plus U+1D400 -> 'A';
  * its GPOS pair kerning flattened into a legacy 'kern' table (format 0), GPOS dropped;
  * 'Aring' rebuilt as a composite of 'A' and the ring (glyph00138) scaled by 0.5 (WE_HAVE_A_SCALE), and
    'Atilde' as 'A' plus the tilde (glyph00139) placed by point matching (ARGS_ARE_XY_VALUES clear);
then prints the values the Swift tests record, read back through fontTools.
"""
import os
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
from fontTools.ttLib.tables._k_e_r_n import KernTable_format_0
from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
REGULAR = os.path.join(ROOT, "Resources", "Fonts", "Roboto-Regular.ttf")


def gpos_pairs(font):
    """Every non-zero first-glyph XAdvance adjustment of the GPOS 'kern' lookups."""
    order = font.getGlyphOrder()
    gpos = font["GPOS"].table
    pairs = {}
    for lookup in gpos.LookupList.Lookup:
        for sub in lookup.SubTable:
            if sub.Format == 1:
                for first, pset in zip(sub.Coverage.glyphs, sub.PairSet):
                    for rec in pset.PairValueRecord:
                        v = getattr(rec.Value1, "XAdvance", 0) if rec.Value1 else 0
                        pairs.setdefault((first, rec.SecondGlyph), v)
            else:
                c1 = sub.ClassDef1.classDefs
                c2 = sub.ClassDef2.classDefs
                for first in sub.Coverage.glyphs:
                    for second in order:
                        if (first, second) in pairs:
                            continue
                        rec = sub.Class1Record[c1.get(first, 0)].Class2Record[c2.get(second, 0)]
                        v = getattr(rec.Value1, "XAdvance", 0) if rec.Value1 else 0
                        if v:
                            pairs[(first, second)] = v
    return {k: v for k, v in pairs.items() if v}


def make_fixture():
    font = TTFont(REGULAR)
    cmap = font.getBestCmap()
    pairs = gpos_pairs(font)

    sub = CmapSubtable.newSubtable(12)
    sub.platformID, sub.platEncID, sub.language = 3, 10, 0
    mapping = dict(cmap)
    mapping[0x1D400] = "A"
    sub.cmap = mapping
    font["cmap"].tables = [sub]

    kern = newTable("kern")
    kern.version = 0
    table = KernTable_format_0()
    table.version, table.format, table.coverage, table.tupleIndex = 0, 0, 1, 0
    table.kernTable = pairs
    kern.kernTables = [table]
    font["kern"] = kern
    del font["GPOS"]

    glyf = font["glyf"]
    ring = Glyph()
    a, r = GlyphComponent(), GlyphComponent()
    a.glyphName, a.x, a.y, a.flags = "A", 0, 0, 0
    r.glyphName, r.x, r.y, r.flags = "glyph00138", 300, 400, 0
    r.transform = [[0.5, 0], [0, 0.5]]
    ring.numberOfContours, ring.components = -1, [a, r]
    glyf["Aring"] = ring

    tilde = Glyph()
    a2, t = GlyphComponent(), GlyphComponent()
    a2.glyphName, a2.x, a2.y, a2.flags = "A", 0, 0, 0
    t.glyphName, t.flags = "glyph00139", 0
    t.firstPt, t.secondPt = 2, 0        # tilde's point 0 lands on A's point 2
    tilde.numberOfContours, tilde.components = -1, [a2, t]
    glyf["Atilde"] = tilde

    out = os.path.join(HERE, "kern-cmap12.ttf")
    font.save(out)
    return out, len(pairs)


def report(path, pair_count):
    for p in [REGULAR, os.path.join(ROOT, "Resources", "Fonts", "Roboto-Bold.ttf"), path]:
        f = TTFont(p)
        order = f.getGlyphOrder()
        cmap = f.getBestCmap()
        print(os.path.basename(p))
        print("  unitsPerEm", f["head"].unitsPerEm, "numGlyphs", f["maxp"].numGlyphs,
              "hhea", f["hhea"].ascent, f["hhea"].descent, f["hhea"].lineGap)
        os2 = f["OS/2"]
        print("  OS/2 typo", os2.sTypoAscender, os2.sTypoDescender, os2.sTypoLineGap,
              "capHeight", os2.sCapHeight, "xHeight", os2.sxHeight)
        print("  names", f["name"].getDebugName(1), "|", f["name"].getDebugName(2), "|",
              f["name"].getDebugName(4), "|", f["name"].getDebugName(6))
        for ch in "AVaäßñ¡¿€•−.0 ":
            g = cmap[ord(ch)]
            print("  U+%04X %-12s glyph %3d advance %d" % (ord(ch), g, order.index(g), f["hmtx"][g][0]))
        print("  U+0100 mapped:", 0x100 in cmap, " U+1D400:", order.index(cmap[0x1D400]) if 0x1D400 in cmap else None)
        glyf = f["glyf"]
        for name in ["Adieresis", "Aring", "Atilde", "A", "glyph00138", "glyph00139", "o", ".notdef"]:
            coords, ends, _ = glyf[name].getCoordinates(glyf)
            print("  %-10s glyph %3d composite %s points %d contours %d first %s last %s" % (
                name, order.index(name), glyf[name].isComposite(), len(coords), len(ends),
                tuple(coords[0]) if len(coords) else None, tuple(coords[-1]) if len(coords) else None))
        if "GPOS" in f:
            pairs = gpos_pairs(f)
        else:
            pairs = f["kern"].kernTables[0].kernTable
        for a, b in [("A", "V"), ("T", "o"), ("V", "A"), ("L", "T"), ("F", "a"), ("o", "o"), ("quoteright", "s")]:
            print("  kern %s %s (%d, %d): %d" % (a, b, order.index(a), order.index(b), pairs.get((a, b), 0)))
    print("kern-cmap12.ttf pairs:", pair_count)


if __name__ == "__main__":
    out, n = make_fixture()
    report(out, n)
