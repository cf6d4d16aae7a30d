# Work counts for whole shapes: chords (Wang's count at tau) and the row pieces / cell pieces
# they give, against approach (b): quadratics within tau_q and their grid pieces (one root each).
import math, sys
import numpy as np
from model import ellipse_cubics, pieces
from model_b import quads, split_quad

def cells_of(segs):
    rows = cells = 0
    for (pa, pb, _) in segs:
        rows += abs(math.floor(pb[1]) - math.floor(pa[1])) + 1
        cells += abs(math.floor(pb[1]) - math.floor(pa[1])) + abs(math.floor(pb[0]) - math.floor(pa[0])) + 1
    return rows, cells

print("R      | chords 0.2: n rows cells | chords 0.05: n rows cells | (b) q 0.01: quads pieces | (b) q 0.002: quads pieces")
for R in [2, 5, 10, 22, 50, 100, 250, 500, 1500]:
    cubics = ellipse_cubics(3000.3, 3000.7, R, R)
    out = []
    for tau in (0.2, 0.05):
        segs = [s for cb in cubics for s in pieces(cb, tau)]
        out.append((len(segs),) + cells_of(segs))
    for tq in (0.01, 0.002):
        qs = [q for cb in cubics for q in quads(cb, tq)]
        segs = [s for q in qs for s in split_quad(q, 0, 0)]
        out.append((len(qs), len(segs)))
    print(f"{R:<6} | {out[0][0]:5d} {out[0][1]:5d} {out[0][2]:5d} | {out[1][0]:5d} {out[1][1]:5d} {out[1][2]:5d} | {out[2][0]:5d} {out[2][1]:5d} | {out[3][0]:5d} {out[3][1]:5d}")
