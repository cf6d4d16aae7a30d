#!/usr/bin/python3
"""Which goldens exact-area curves move, and how: for every `.actual.png` under
.build/golden-failures/ (left by a test run with CRISP_EXACT_CURVES=1 or the new default), the
committed golden of the same area and name, and per image: pixels changed, the largest channel
difference (premultiplied), and the share of changed pixels on an edge — a pixel whose 3×3 neighbourhood in the
golden is not one colour (an antialiased boundary; a change inside a flat region, a leak or a
winding error, is not on an edge). Changed pixels off an edge are listed (first few) per image.

    /usr/bin/python3 scripts/curves/golden_moves.py [--min-worst N]
Needs Pillow and numpy (python3-pil, python3-numpy)."""
import glob, os, sys
import numpy as np
from PIL import Image

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = os.path.join(root, ".build", "golden-failures")
goldens = {}
for p in glob.glob(os.path.join(root, "Tests", "*", "Golden", "**", "*.png"), recursive=True):
    rel = os.path.relpath(p, os.path.join(root, "Tests"))
    parts = rel.split(os.sep)  # Target/Golden/area.../name.png
    key = os.path.join(*parts[2:])
    goldens.setdefault(key, []).append(p)

def load(p):
    """Premultiplied RGBA (what a pixel shows over black): PNGs store straight alpha, where a
    nearly transparent pixel's colour can jump by 128 when its alpha moves by one."""
    a = np.asarray(Image.open(p).convert("RGBA")).astype(np.int32)
    a[..., :3] = (a[..., :3] * a[..., 3:4] + 127) // 255
    return a.astype(np.int16)

rows = []
for actual in sorted(glob.glob(os.path.join(failures, "**", "*.actual.png"), recursive=True)):
    key = os.path.relpath(actual, failures)[: -len(".actual.png")] + ".png"
    cands = goldens.get(key, [])
    if len(cands) != 1:
        rows.append((key, None, "golden not found" if not cands else "ambiguous: " + ", ".join(cands)))
        continue
    a, g = load(actual), load(cands[0])
    if a.shape != g.shape:
        rows.append((key, None, f"size {a.shape} vs {g.shape}"))
        continue
    d = np.abs(a - g).max(axis=2)
    changed = d > 0
    n = int(changed.sum())
    # Edge: the golden's 3×3 neighbourhood is not uniform.
    h, w = g.shape[:2]
    pad = np.pad(g, ((1, 1), (1, 1), (0, 0)), mode="edge")
    uniform = np.ones((h, w), bool)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            uniform &= (pad[dy:dy + h, dx:dx + w] == g).all(axis=2)
    off = changed & uniform
    share = 1.0 if n == 0 else float((changed & ~uniform).sum()) / n
    ys, xs = np.nonzero(off)
    where = ", ".join(f"({x},{y}) {d[y, x]}" for y, x in list(zip(ys, xs))[:4])
    rows.append((key, (n, int(d.max()), share, int(off.sum()), d[changed]), where))

minimum = int(sys.argv[sys.argv.index("--min-worst") + 1]) if "--min-worst" in sys.argv else 0
print(f"{'golden':60} {'changed':>8} {'worst':>5} {'on edge':>8} {'off':>5}  ≤2  ≤8  >8")
alld = []
for key, r, note in rows:
    if r is None:
        print(f"{key:60} {note}")
        continue
    n, worst, share, off, ds = r
    alld.append(ds)
    if worst < minimum:
        continue
    print(f"{key:60} {n:8d} {worst:5d} {share:8.1%} {off:5d} {int((ds <= 2).sum()):4d}"
          f" {int(((ds > 2) & (ds <= 8)).sum()):3d} {int((ds > 8).sum()):3d}  {note}")
if alld:
    ds = np.concatenate(alld)
    print(f"{len(alld)} goldens, {ds.size} changed pixels; worst {ds.max()}; "
          f"≤2: {(ds <= 2).mean():.1%}, ≤8: {(ds <= 8).mean():.1%}")
    # Per area (the folder of the golden): goldens, changed pixels, worst, changed pixels off an edge.
    areas = {}
    for key, r, note in rows:
        if r is None:
            continue
        area = key.split(os.sep)[0]
        e = areas.setdefault(area, [0, 0, 0, 0, 0])
        e[0] += 1; e[1] += r[0]; e[2] = max(e[2], r[1]); e[3] += r[3]; e[4] += int((r[4] <= 8).sum())
    for area, (n, c, worst, off, small) in sorted(areas.items()):
        print(f"  {area:16} {n:4d} goldens {c:8d} changed, worst {worst:3d}, off an edge {off:5d}, ≤8 levels {small / max(c, 1):.1%}")
