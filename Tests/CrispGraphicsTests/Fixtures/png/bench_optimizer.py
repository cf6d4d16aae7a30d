#!/usr/bin/env python3
"""Compare `crisp png optimize` with oxipng and Pillow on the project's goldens (and more PNGs).

    pip install pyoxipng pillow
    swift build -c release --product crisp
    python3 Tests/CrispGraphicsTests/Fixtures/png/bench_optimizer.py [--level 2] [--oxipng-level 4] [extra.png ...]
    python3 Tests/CrispGraphicsTests/Fixtures/png/bench_optimizer.py --sweep 0,1,2,3,4 [extra.png ...]
    python3 Tests/CrispGraphicsTests/Fixtures/png/bench_optimizer.py --ref-cache ~/png-ref-cache --level 4 [extra.png ...]

For every input: Crisp's output size and time, oxipng's (`oxipng.optimize(level=N)`, default 4)
and Pillow's (`Image.save(optimize=True)`), and the time Crisp's decoder takes on each output
(`crisp png info`, median of 3). Prints a Markdown table per image and the totals with the two
ratios crisp/oxipng and crisp/Pillow (below 1 means Crisp's files are smaller). Every Crisp output
is also checked to decode to the input's pixels with Pillow (RGBA, 8-bit) as an outside witness.
With --sweep, only Crisp runs, once per level, and the total size and time per level are printed.
With --ref-cache DIR, oxipng's and Pillow's outputs are kept in DIR under the input's SHA-256 (with
their times in DIR/times.json), so a second run only pays for Crisp (oxipng -o 4 takes about 40 CPU
minutes over the goldens); their times are then the first run's.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import oxipng
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))


def decode_ms(crisp, path):
    out = subprocess.run([crisp, "png", "info", path], check=True, capture_output=True, text=True).stdout
    return float(re.search(r"decode ([0-9.]+) ms", out).group(1))


def same_pixels(a, b):
    ia, ib = Image.open(a), Image.open(b)
    if ia.size != ib.size:
        return False
    # 16-bit images: compare in the widest mode Pillow keeps for both.
    mode = "RGBA" if "16" not in ia.mode and "I" not in ia.mode else ia.mode
    return ia.convert(mode).tobytes() == ib.convert(mode).tobytes()


def reference(cache, path, tag, make, out):
    """Makes a reference tool's output `out` for `path`, or copies it from `cache`; returns its seconds."""
    if cache is None:
        t = time.perf_counter(); make(out); return time.perf_counter() - t
    os.makedirs(cache, exist_ok=True)
    with open(path, "rb") as f:
        key = f"{hashlib.sha256(f.read()).hexdigest()}.{tag}"
    kept, times_path = os.path.join(cache, key + ".png"), os.path.join(cache, "times.json")
    times = json.load(open(times_path)) if os.path.exists(times_path) else {}
    temporary = os.path.join(cache, key + ".tmp.png")
    if not os.path.exists(kept) or key not in times:
        t = time.perf_counter(); make(temporary); times[key] = time.perf_counter() - t
        os.replace(temporary, kept)
        with open(times_path + ".tmp", "w") as f:
            json.dump(times, f, indent=0, sort_keys=True)
        os.replace(times_path + ".tmp", times_path)
    shutil.copyfile(kept, out)
    return times[key]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--crisp", default=os.path.join(ROOT, ".build", "release", "crisp"))
    parser.add_argument("--level", type=int, default=None, help="crisp png optimize --level (default: its default)")
    parser.add_argument("--oxipng-level", type=int, default=4)
    parser.add_argument("--no-goldens", action="store_true", help="only the extra files")
    parser.add_argument("--ref-cache", help="directory keeping oxipng's and Pillow's outputs by input SHA-256")
    parser.add_argument("--sweep", help="comma-separated levels: total size and time of Crisp alone at each")
    parser.add_argument("files", nargs="*", help="more PNG files (e.g. crisp-demo --snapshot outputs)")
    args = parser.parse_args()

    inputs = [] if args.no_goldens else sorted(glob.glob(os.path.join(ROOT, "Tests", "**", "Golden", "**", "*.png"), recursive=True))
    inputs += args.files
    work = tempfile.mkdtemp(prefix="crisp-png-bench-")
    if args.sweep:
        total_in = sum(os.path.getsize(p) for p in inputs)
        print(f"{len(inputs)} images, {total_in} bytes")
        print("| level | total bytes | vs input | seconds (incl. process start) | slowest image s |")
        print("|---:|---:|---:|---:|---:|")
        for level in [int(v) for v in args.sweep.split(",")]:
            total, seconds, slowest = 0, 0.0, 0.0
            for i, path in enumerate(inputs):
                out = os.path.join(work, f"{i}.sweep.png")
                t = time.perf_counter()
                subprocess.run([args.crisp, "png", "optimize", "--quiet", "--level", str(level), path, out], check=True)
                elapsed = time.perf_counter() - t
                seconds += elapsed
                slowest = max(slowest, elapsed)
                total += os.path.getsize(out)
            print(f"| {level} | {total} | {total / total_in:.3f} | {seconds:.1f} | {slowest:.2f} |")
        return
    totals = {"input": 0, "crisp": 0, "oxipng": 0, "pillow": 0}
    seconds = {"crisp": 0.0, "oxipng": 0.0, "pillow": 0.0}
    decode = {"crisp": [], "oxipng": [], "pillow": []}
    print("| image | input | crisp | oxipng | Pillow | crisp s | decode ms crisp / oxipng / Pillow |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for i, path in enumerate(inputs):
        name = os.path.relpath(path, ROOT) if path.startswith(ROOT) else path
        outs = {k: os.path.join(work, f"{i}.{k}.png") for k in ("crisp", "oxipng", "pillow")}
        cmd = [args.crisp, "png", "optimize", "--quiet", path, outs["crisp"]]
        if args.level is not None:
            cmd += ["--level", str(args.level)]
        t = time.perf_counter(); subprocess.run(cmd, check=True); crisp_s = time.perf_counter() - t
        seconds["crisp"] += crisp_s
        references = {
            "oxipng": (f"oxipng{args.oxipng_level}", lambda out: oxipng.optimize(path, out, level=args.oxipng_level)),
            "pillow": ("pillow", lambda out: Image.open(path).save(out, optimize=True)),
        }
        for k, (tag, make) in references.items():
            seconds[k] += reference(args.ref_cache, path, tag, make, outs[k])
        if not same_pixels(path, outs["crisp"]):
            sys.exit(f"{name}: crisp's output does not have the input's pixels")
        sizes = {k: os.path.getsize(v) for k, v in outs.items()}
        size_in = os.path.getsize(path)
        totals["input"] += size_in
        for k in sizes:
            totals[k] += sizes[k]
        ms = {k: decode_ms(args.crisp, v) for k, v in outs.items()}
        for k in ms:
            decode[k].append(ms[k])
        print(f"| {name} | {size_in} | {sizes['crisp']} | {sizes['oxipng']} | {sizes['pillow']} | "
              f"{crisp_s:.2f} | {ms['crisp']:.2f} / {ms['oxipng']:.2f} / {ms['pillow']:.2f} |")
    print()
    print(f"{len(inputs)} images: input {totals['input']} bytes; crisp {totals['crisp']}, oxipng -o {args.oxipng_level} "
          f"{totals['oxipng']}, Pillow optimize=True {totals['pillow']}")
    print(f"ratio crisp/oxipng {totals['crisp'] / totals['oxipng']:.3f}, crisp/Pillow {totals['crisp'] / totals['pillow']:.3f}")
    print(f"time (incl. process start): crisp {seconds['crisp']:.1f} s, oxipng {seconds['oxipng']:.1f} s, Pillow {seconds['pillow']:.1f} s")
    print("decode ms, total over all outputs (Crisp's decoder): " +
          ", ".join(f"{k} {sum(v):.1f}" for k, v in decode.items()))


if __name__ == "__main__":
    main()
