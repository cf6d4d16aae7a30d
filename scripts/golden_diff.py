#!/usr/bin/env python3
"""Compares every PNG that differs from a base revision (default: main) with that revision's
version and prints, per image: pixels changed, the largest channel difference (straight alpha,
as stored), the largest difference of the premultiplied channels (what a pixel shows over
black: a nearly transparent pixel's stored colour can jump by 128 when its alpha moves by one),
and the mean premultiplied channel difference over the whole image. With --sheets DIR it also
writes contact sheets, eight images a sheet: old | new | premultiplied difference ×32, with every
changed pixel kept visible when an image is shrunk to fit.

    python3 scripts/golden_diff.py [--base main] [--sheets DIR] [PATHS...]
Needs Pillow (python3-pil)."""
import argparse, io, os, subprocess, sys
from PIL import Image, ImageDraw, ImageFilter

PANEL = 256

def changed(base):
    out = subprocess.run(["git", "diff", "--name-only", base, "--", "*.png"], capture_output=True, text=True, check=True)
    return [p for p in out.stdout.split() if os.path.exists(p)]

def load_base(base, path):
    blob = subprocess.run(["git", "show", f"{base}:{path}"], capture_output=True, check=True).stdout
    return Image.open(io.BytesIO(blob)).convert("RGBA")

def compare(old, new):
    """(pixels changed, max straight, max premultiplied, mean premultiplied, difference image)."""
    diff = Image.new("L", old.size)
    out = diff.load()
    po, pn = old.load(), new.load()
    changed = straight = premul = total = 0
    for y in range(old.height):
        for x in range(old.width):
            a, b = po[x, y], pn[x, y]
            if a == b:
                continue
            changed += 1
            straight = max(straight, max(abs(i - j) for i, j in zip(a, b)))
            pa = [c * a[3] / 255 for c in a[:3]] + [a[3]]
            pb = [c * b[3] / 255 for c in b[:3]] + [b[3]]
            d = [abs(i - j) for i, j in zip(pa, pb)]
            m = round(max(d))
            premul = max(premul, m)
            total += sum(d)
            out[x, y] = min(255, max(1, m) * 32)
    return changed, straight, premul, total / (old.width * old.height * 4), diff

def fit(im, scale, f):
    if scale > 1:
        im = im.resize((im.width * scale, im.height * scale), Image.NEAREST)
    if f < 1:
        im = im.resize((PANEL, max(1, round(im.height * f))), Image.LANCZOS)
    return im

def write_sheets(results, directory):
    os.makedirs(directory, exist_ok=True)
    for k in range(0, len(results), 8):
        rows = []
        for p, old, new, n, straight, premul, mean, diff in results[k:k + 8]:
            scale = max(1, min(4, PANEL // max(old.width, 1)))
            f = min(1.0, PANEL / (old.width * scale))
            # Shrunk, a difference keeps every changed pixel visible: a maximum filter first.
            spread = diff if f >= 1 else diff.filter(ImageFilter.MaxFilter(min(9, int(1 / f) | 1)))
            panels = []
            for im in (old, new):
                bg = Image.new("RGBA", im.size, (128, 128, 128, 255))
                bg.alpha_composite(im)
                panels.append(fit(bg.convert("RGB"), scale, f))
            panels.append(fit(spread.convert("RGB"), scale, f))
            rows.append((f"{os.path.relpath(p, 'Tests')}: {n} px, max {premul} premultiplied", panels))
        height = sum(r[1][0].height + 14 for r in rows)
        sheet = Image.new("RGB", (PANEL * 3 + 8, height), "white")
        draw = ImageDraw.Draw(sheet)
        y = 0
        for title, panels in rows:
            draw.text((2, y), title, fill="black")
            y += 14
            for i, im in enumerate(panels):
                sheet.paste(im, (i * (PANEL + 4), y))
            y += panels[0].height
        sheet.save(os.path.join(directory, f"sheet{k // 8:03}.png"))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="main")
    ap.add_argument("--sheets")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    results = []
    for p in a.paths or changed(a.base):
        old, new = load_base(a.base, p), Image.open(p).convert("RGBA")
        if old.size != new.size:
            print(f"{p}: size changed {old.size} -> {new.size}")
            continue
        results.append((p, old, new) + compare(old, new))
    results.sort(key=lambda r: (-r[5], -r[6]))
    print(f"{'golden':66} {'pixels':>8} {'of':>8} {'max':>4} {'premul':>6} {'mean':>7}")
    for p, old, new, n, straight, premul, mean, _ in results:
        print(f"{os.path.relpath(p, 'Tests'):66} {n:8} {old.width * old.height:8} {straight:4} {premul:6} {mean:7.4f}")
    if results:
        print(f"{len(results)} changed; worst max premultiplied {max(r[5] for r in results)}, "
              f"worst max straight {max(r[4] for r in results)}, worst mean {max(r[6] for r in results):.4f}")
    if a.sheets:
        write_sheets(results, a.sheets)

if __name__ == "__main__":
    sys.exit(main())
