#!/usr/bin/env python3
"""Renders feature documents with the bench's peers and prints their spread next to Crisp.

    BENCH=../shared/bench; $BENCH/.venv/bin/python spread.py --bench $BENCH --crisp .build/debug/crisp \
        [--write-references] name...

For each `name.svg` beside this script: resvg, Skia (SVGDOM) and CairoSVG render it through
the bench's renderer contract (`R in.svg out.png`; exit 77 = cannot express it), and every pair
is measured with the bench's compare.py (PSNR over premultiplied RGBA, share of pixels off by
more than 16/255). On the bench scenes every peer draws everything, so the worst pair is the
spread, and the same holds on a feature document when every pair agrees within 30 dB. A peer
that lacks a feature (Skia has no <symbol>, <switch> or transform-origin; CairoSVG no
transform-origin) disagrees by 10-40 dB, and the worst pair then says nothing; the bar is then
the closest peer to resvg. Crisp is within when it agrees with resvg at least as well as the
bar (PSNR at least as high, share at most as large).
`--write-references` copies resvg's PNG to `name.resvg.png`, the reference the tests use.

Text: every peer is given the bundled Roboto (Resources/Fonts) — resvg as its only fonts, for
every generic family, at CSS's initial font size of 16 px (resvg's own default is 12); Skia and
CairoSVG through a fontconfig file that adds the folder, so `font-family="Roboto"` finds it.
"""
import argparse
import itertools
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--crisp", required=True)
    ap.add_argument("--write-references", action="store_true")
    ap.add_argument("names", nargs="+")
    args = ap.parse_args()
    bench = os.path.abspath(args.bench)
    sys.path.insert(0, bench)
    import compare  # the bench's metric

    python = os.path.join(bench, ".venv", "bin", "python")
    fonts = os.path.abspath(os.path.join(HERE, "..", "..", "..", "..", "Resources", "Fonts"))
    resvg_fonts = ["--skip-system-fonts", "--use-fonts-dir", fonts, "--font-size", "16"]
    for family in ["font-family", "serif-family", "sans-serif-family", "cursive-family", "fantasy-family", "monospace-family"]:
        resvg_fonts += ["--" + family, "Roboto"]
    peers = {
        "resvg": [os.path.join(bench, ".venv", "bin", "resvg")] + resvg_fonts,
        "skia": [python, os.path.join(bench, "peers", "skia_peer.py")],
        "cairosvg": [python, os.path.join(bench, "peers", "cairosvg_peer.py")],
    }
    print("| document | pairs of peers | bar | Crisp–resvg | within |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        conf = os.path.join(tmp, "fonts.conf")
        with open(conf, "w") as f:
            f.write('<?xml version="1.0"?><fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
                    f'<dir>{fonts}</dir></fontconfig>')
        env = dict(os.environ, FONTCONFIG_FILE=conf)
        for name in args.names:
            svg = os.path.join(HERE, name + ".svg")
            out = {}
            for peer, command in peers.items():
                png = os.path.join(tmp, f"{name}.{peer}.png")
                r = subprocess.run(command + [svg, png], cwd=bench, capture_output=True, env=env)
                if r.returncode == 0 and os.path.exists(png):
                    out[peer] = png
            crisp = os.path.join(tmp, name + ".crisp.png")
            subprocess.run([os.path.abspath(args.crisp), "render", svg, crisp], check=True)
            pairs, closest, worst = [], None, None
            for a, b in itertools.combinations(sorted(out), 2):
                m = compare.metrics(out[a], out[b])
                pairs.append(f"{a}–{b} {m['psnr']:.1f} dB {m['pct_gt16']:.3f} %")
                if "resvg" in (a, b) and (closest is None or m["psnr"] > closest[1]["psnr"]):
                    closest = (b if a == "resvg" else a, m)
                worst = m if worst is None else {"psnr": min(worst["psnr"], m["psnr"]),
                                                  "pct_gt16": max(worst["pct_gt16"], m["pct_gt16"])}
            if worst is not None and len(out) == len(peers) and worst["psnr"] >= 30:
                bar, label = worst, "worst pair"
            elif closest is not None:
                bar, label = closest[1], f"closest peer ({closest[0]})"
            else:
                bar, label = None, "none"
            c = compare.metrics(crisp, out["resvg"])
            within = bar is not None and c["psnr"] >= bar["psnr"] and c["pct_gt16"] <= bar["pct_gt16"]
            shown = f"{label}: {bar['psnr']:.2f} dB, {bar['pct_gt16']:.3f} %" if bar else label
            print(f"| {name} | {'; '.join(pairs)} | {shown} "
                  f"| {c['psnr']:.2f} dB, {c['pct_gt16']:.3f} % | {'yes' if within else 'no'} |")
            if args.write_references:
                shutil.copy(out["resvg"], os.path.join(HERE, name + ".resvg.png"))


if __name__ == "__main__":
    main()
