#!/usr/bin/python3
"""The exact area against the samplers (issue 32): a circle of r 22 at (32.3, 31.6) in a
64×64 SVG (circle-r22.svg beside this script), its true covered area per edge pixel integrated
numerically, against PNGs rendered from it:

    crisp render circle-r22.svg exact.png
    CRISP_EXACT_CURVES=0 crisp render circle-r22.svg chords.png
    resvg circle-r22.svg resvg.png ; resvg -z 16 circle-r22.svg resvg16.png
    cairosvg circle-r22.svg -o cairo.png
    /usr/bin/python3 against_samplers.py DIR     # the folder holding those PNGs

(resvg and cairosvg: ../shared/bench's .venv after its setup.sh.) Prints each renderer's worst
and mean error in levels of 255 and the pixel where resvg departs most. The reference is the
true circle; renderers draw an SVG circle as four cubics, which lie up to r·2.7·10⁻⁴ = 0.006 px
outside it, so an exact renderer reads about half a level high on average (Crisp +0.63, resvg at
16× +0.44). Needs numpy and Pillow."""
import os, sys
import numpy as np
from PIL import Image

folder = sys.argv[1] if len(sys.argv) > 1 else "."
cx, cy, r = 32.3, 31.6, 22.0

def area(px, py, n=200000):
    """The disk's area inside the pixel [px, px+1] × [py, py+1]: its vertical extent at n
    column midpoints, clamped to the pixel (exact in y, n-point midpoint rule in x)."""
    x = px + (np.arange(n) + 0.5) / n
    s = np.sqrt(np.clip(r * r - (x - cx) ** 2, 0, None))
    lo = np.maximum(cy - s, py); hi = np.minimum(cy + s, py + 1)
    return np.clip(hi - lo, 0, None).mean()

def alpha(name):
    return np.asarray(Image.open(os.path.join(folder, name)).convert("RGBA"))[..., 3].astype(float)

exact, chords, resvg, cairo = (alpha(n) for n in ("exact.png", "chords.png", "resvg.png", "cairo.png"))
resvg16 = alpha("resvg16.png").reshape(64, 16, 64, 16).mean(axis=(1, 3))
rows = []
for py in range(64):
    for px in range(64):
        if 0 < exact[py, px] < 255 or 0 < resvg[py, px] < 255:
            rows.append((px, py, area(px, py) * 255, exact[py, px], chords[py, px], resvg[py, px], cairo[py, px], resvg16[py, px]))
rows = np.array(rows)
print(f"{len(rows)} edge pixels")
for name, k in [("crisp (exact)", 3), ("crisp chords 0.05 px", 4), ("resvg", 5), ("cairosvg", 6), ("resvg 16x, box-reduced", 7)]:
    e = rows[:, k] - rows[:, 2]
    print(f"{name:24s} worst {np.abs(e).max():5.1f}  mean {e.mean():+5.2f}  mean |e| {np.abs(e).mean():4.2f}")
i = int(np.argmax(np.abs(rows[:, 5] - rows[:, 2])))
px, py, true, *rest = rows[i]
print(f"pixel ({int(px)}, {int(py)}): true {true:.1f}; crisp {rest[0]:.0f}, chords {rest[1]:.0f}, resvg {rest[2]:.0f}, "
      f"cairosvg {rest[3]:.0f}, resvg 16x reduced {rest[4]:.1f}")
