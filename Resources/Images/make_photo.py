#!/usr/bin/env python3
"""Makes Resources/Images/photo.png once: a 56x56 photo-like 1x picture (a sunset over hills
and a lake, with grain) for the controls screen's bitmap-inside-vectors demo.

It is a bitmap on purpose: drawn into a vector button at 2x it is visibly softer than the
frame around it, which is the essay's point. Pure standard library (zlib, struct), seeded,
so running it again makes the same bytes.

    python3 Resources/Images/make_photo.py
"""
import math
import os
import random
import struct
import zlib

W = H = 56
rng = random.Random(1004)

# Value noise on a coarse grid, bilinearly smoothed: the "texture" of the hills and the water.
GRID = 8
lattice = [[rng.random() for _ in range(GRID + 2)] for _ in range(GRID + 2)]


def noise(x, y):
    gx, gy = (x / W * GRID) % GRID, (y / H * GRID) % GRID
    ix, iy = int(gx), int(gy)
    fx, fy = gx - ix, gy - iy
    a = lattice[iy][ix] * (1 - fx) + lattice[iy][ix + 1] * fx
    b = lattice[iy + 1][ix] * (1 - fx) + lattice[iy + 1][ix + 1] * fx
    return a * (1 - fy) + b * fy


def mix(c1, c2, t):
    t = min(max(t, 0.0), 1.0)
    return tuple(a + (b - a) * t for a, b in zip(c1, c2))


def ridge(x, base, amp, freq, phase):
    return base + amp * math.sin(x * freq + phase) + amp * 0.4 * math.sin(x * freq * 2.7 + phase * 1.3)


SUN = (38.0, 24.0)
rows = []
for y in range(H):
    row = bytearray([0])  # filter type 0
    for x in range(W):
        horizon = 34
        if y < horizon:
            # Sky: deep blue to orange at the horizon, a sun with a halo.
            c = mix((40, 60, 140), (250, 150, 70), y / horizon)
            d = math.hypot(x - SUN[0], y - SUN[1])
            c = mix(c, (255, 236, 170), max(0.0, 1 - d / 14) ** 2)
            if d < 4.5:
                c = mix((255, 250, 220), c, max(0.0, d - 3.5))
            far = ridge(x, 27, 2.5, 0.16, 1.0)
            near = ridge(x, 30, 3.0, 0.11, 4.0)
            if y > far:
                c = mix((90, 70, 110), (70, 55, 90), noise(x, y))
            if y > near:
                c = mix((40, 70, 45), (25, 45, 30), noise(x * 1.7, y * 1.7))
        else:
            # The lake mirrors the sky, darker, with ripples.
            my = 2 * horizon - y - 1
            c = mix((40, 60, 140), (250, 150, 70), my / horizon)
            d = math.hypot(x - SUN[0], (my - SUN[1]) * 0.6)
            c = mix(c, (255, 220, 150), max(0.0, 1 - d / 12) ** 2 * 0.8)
            ripple = 0.5 + 0.5 * math.sin(y * 1.9 + noise(x, y) * 6)
            c = mix(c, (20, 30, 60), 0.35 + 0.25 * ripple)
        grain = (rng.random() - 0.5) * 14
        row += bytes(int(min(max(v + grain, 0), 255)) for v in c)
    rows.append(bytes(row))


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


png = b"\x89PNG\r\n\x1a\n"
png += chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
png += chunk(b"IEND", b"")
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "photo.png")
with open(out, "wb") as f:
    f.write(png)
print(f"wrote {out} ({W}x{H})")
