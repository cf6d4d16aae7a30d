#!/usr/bin/env python3
"""Writes the PNG decoder fixtures with encoders other than Crisp's own (pypng and Pillow).

One-off generator; the files it made are committed, and neither library is needed to run
the tests. Made with:

    python3 -m venv /tmp/pngvenv && /tmp/pngvenv/bin/pip install pypng==0.20220715.0 pillow==13.0.0
    cd Tests/CrispGraphicsTests/Fixtures/png && /tmp/pngvenv/bin/python make_fixtures.py

For every NAME.png it writes NAME.rgba: the expected pixels as straight 8-bit R, G, B, A,
row-major from the top row, computed here from the source samples (not by decoding):
gray of depth d < 8 scales as v * 255 / (2^d - 1); 16-bit samples reduce to round(v / 257);
a pixel matching the tRNS colour key gets alpha 0. manifest.txt lists "NAME WIDTH HEIGHT".
"""

import random
import shutil
import struct
import zlib
from fractions import Fraction

import png
from PIL import Image, PngImagePlugin

W, H = 13, 7
manifest = []


def to8(v, depth):
    """The 8-bit value of a `depth`-bit sample, as the decoder must produce it."""
    if depth == 16:
        return int(Fraction(v * 255, 65535) + Fraction(1, 2))
    return v * 255 // ((1 << depth) - 1)


def save_expected(name, w, h, rgba):
    assert len(rgba) == w * h
    with open(name + ".rgba", "wb") as f:
        f.write(bytes(c for px in rgba for c in px))
    manifest.append(f"{name} {w} {h}")


def samples(rng, depth, count):
    """Random samples that always include 0 and the maximum value."""
    top = (1 << depth) - 1
    out = [rng.randint(0, top) for _ in range(count)]
    out[0], out[-1] = 0, top
    return out


def pypng_fixtures():
    for interlace in (False, True):
        suffix = "-adam7" if interlace else ""
        for w, h in ((W, H),) + (((3, 2), (1, 1)) if interlace else ()):
            size = "" if (w, h) == (W, H) else f"-{w}x{h}"
            rng = random.Random(f"{w}x{h}{interlace}")

            for depth in (1, 2, 4, 8, 16):
                for trns in (False, True):
                    v = samples(rng, depth, w * h)
                    key = v[len(v) // 2] if trns else None
                    name = f"gray{depth}{'-trns' if trns else ''}{suffix}{size}"
                    writer = png.Writer(w, h, greyscale=True, bitdepth=depth, interlace=interlace,
                                        transparent=key)
                    with open(name + ".png", "wb") as f:
                        writer.write_array(f, v)
                    save_expected(name, w, h, [(to8(s, depth),) * 3 + (0 if s == key else 255,) for s in v])

            for depth in (8, 16):
                for trns in (False, True):
                    v = samples(rng, depth, 3 * w * h)
                    px = [tuple(v[3 * i:3 * i + 3]) for i in range(w * h)]
                    key = None
                    if trns:
                        key = px[len(px) // 2]
                        px[-1] = key  # the key appears at least twice (unless 1×1)
                        v = [c for p in px for c in p]
                    name = f"rgb{depth}{'-trns' if trns else ''}{suffix}{size}"
                    writer = png.Writer(w, h, greyscale=False, bitdepth=depth, interlace=interlace,
                                        transparent=key)
                    with open(name + ".png", "wb") as f:
                        writer.write_array(f, v)
                    save_expected(name, w, h, [tuple(to8(c, depth) for c in p) + (0 if p == key else 255,) for p in px])

            for depth in (8, 16):
                for planes, kind in ((2, "graya"), (4, "rgba")):
                    v = samples(rng, depth, planes * w * h)
                    name = f"{kind}{depth}{suffix}{size}"
                    writer = png.Writer(w, h, greyscale=planes == 2, alpha=True, bitdepth=depth,
                                        interlace=interlace)
                    with open(name + ".png", "wb") as f:
                        writer.write_array(f, v)
                    expected = []
                    for i in range(w * h):
                        p = [to8(c, depth) for c in v[planes * i:planes * i + planes]]
                        expected.append((p[0], p[0], p[0], p[1]) if planes == 2 else tuple(p))
                    save_expected(name, w, h, expected)

            for depth in (1, 2, 4, 8):
                for with_alpha in (False, True):
                    entries = (1 << depth) if depth < 8 else 200
                    if with_alpha and depth > 1:
                        entries -= 1  # a palette shorter than the index range
                    palette = [(rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))
                               for _ in range(entries)]
                    if with_alpha:  # tRNS shorter than the palette: the last entry is opaque
                        palette = [p + (rng.choice((0, 1, 128, 254, 255)),) if i < entries - 1 else p
                                   for i, p in enumerate(palette)]
                    idx = [rng.randrange(entries) for _ in range(w * h)]
                    idx[0], idx[-1] = 0, entries - 1
                    name = f"indexed{depth}{'-trns' if with_alpha else ''}{suffix}{size}"
                    writer = png.Writer(w, h, palette=palette, bitdepth=depth, interlace=interlace)
                    with open(name + ".png", "wb") as f:
                        writer.write_array(f, idx)
                    save_expected(name, w, h, [tuple(palette[i][:3]) + (palette[i][3] if len(palette[i]) == 4 else 255,)
                                               for i in idx])

    # An ancillary gAMA chunk (ignored by the decoder).
    rng = random.Random("gama")
    v = samples(rng, 8, 4 * W * H)
    writer = png.Writer(W, H, alpha=True, greyscale=False, bitdepth=8, gamma=0.45455)
    with open("rgba8-gama.png", "wb") as f:
        writer.write_array(f, v)
    save_expected("rgba8-gama", W, H, [tuple(v[4 * i:4 * i + 4]) for i in range(W * H)])


def pillow_fixtures():
    """Smooth gradients with noise, so Pillow's adaptive filtering uses Sub, Up, Average and Paeth."""
    w, h = 29, 17
    rng = random.Random("pillow")

    def channel(x, y, k):
        return max(0, min(255, (x * (7 + k) + y * (11 - 3 * k)) % 256 + rng.randint(-3, 3)))

    rgba = [(channel(x, y, 0), channel(x, y, 1), channel(x, y, 2), channel(x, y, 3))
            for y in range(h) for x in range(w)]
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "written by Pillow for Crisp's PNG tests")

    def save(name, image, expected, **options):
        image.save(name + ".png", pnginfo=info, **options)
        save_expected(name, w, h, expected)

    rgb = Image.new("RGB", (w, h))
    rgb.putdata([p[:3] for p in rgba])
    save("pillow-rgb", rgb, [p[:3] + (255,) for p in rgba])
    im = Image.new("RGBA", (w, h))
    im.putdata(rgba)
    save("pillow-rgba", im, rgba)
    gray = Image.new("L", (w, h))
    gray.putdata([p[0] for p in rgba])
    save("pillow-gray", gray, [(p[0],) * 3 + (255,) for p in rgba])
    la = Image.new("LA", (w, h))
    la.putdata([(p[0], p[3]) for p in rgba])
    save("pillow-graya", la, [(p[0],) * 3 + (p[3],) for p in rgba])
    bits = Image.new("1", (w, h))
    bits.putdata([255 if (x * y + x) % 3 else 0 for y in range(h) for x in range(w)])
    save("pillow-gray1", bits, [(255 if (x * y + x) % 3 else 0,) * 3 + (255,) for y in range(h) for x in range(w)])
    wide = Image.new("I;16", (w, h))
    v16 = [(x * 2311 + y * 3907 + rng.randint(0, 40)) % 65536 for y in range(h) for x in range(w)]
    wide.putdata(v16)
    save("pillow-gray16", wide, [(to8(v, 16),) * 3 + (255,) for v in v16])
    pal = Image.new("P", (w, h))
    colours = [(rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255)) for _ in range(16)]
    pal.putpalette([c for p in colours for c in p])
    idx = [(x // 2 + y) % 16 for y in range(h) for x in range(w)]
    pal.putdata(idx)
    save("pillow-indexed-trns", pal, [colours[i] + (0 if i == 5 else 255,) for i in idx], transparency=5)


def read_chunks(name):
    data = open(name + ".png", "rb").read()
    chunks, i = [], 8
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        chunks.append((kind, data[i + 8:i + 8 + n]))
        i += 12 + n
    return chunks


def write_chunks(name, chunks, source):
    with open(name + ".png", "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        for kind, payload in chunks:
            f.write(struct.pack(">I", len(payload)) + kind + payload)
            f.write(struct.pack(">I", zlib.crc32(kind + payload)))
    shutil.copyfile(source + ".rgba", name + ".rgba")
    w, h = struct.unpack(">II", chunks[0][1][:8])
    manifest.append(f"{name} {w} {h}")


def split_idat(source, name, size):
    """Rewrites `source` with its image data in IDAT chunks of `size` bytes, one of them empty."""
    chunks = read_chunks(source)
    data = b"".join(p for k, p in chunks if k == b"IDAT")
    pieces = [data[i:i + size] for i in range(0, len(data), size)]
    pieces.insert(1, b"")
    first = next(i for i, (k, _) in enumerate(chunks) if k == b"IDAT")
    rest = [c for c in chunks if c[0] != b"IDAT"]
    write_chunks(name, rest[:first] + [(b"IDAT", p) for p in pieces] + rest[first:], source)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def refilter(source, name):
    """Rewrites `source` (all rows filter 0, as pypng writes) with row r of each pass using
    filter r mod 5, following the PNG spec's definitions independently of Crisp's code."""
    chunks = read_chunks(source)
    w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    bits = depth * {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    dist = max(1, bits // 8)
    raw = zlib.decompress(b"".join(p for k, p in chunks if k == b"IDAT"))
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] \
        if interlace else [(0, 0, 1, 1)]
    out, pos = bytearray(), 0
    for x0, y0, dx, dy in passes:
        pw, ph = (max(0, (w - x0 + dx - 1) // dx), max(0, (h - y0 + dy - 1) // dy))
        if pw == 0 or ph == 0:
            continue
        n = (pw * bits + 7) // 8
        prior = bytes(n)
        for r in range(ph):
            assert raw[pos] == 0
            line = raw[pos + 1:pos + 1 + n]
            pos += 1 + n
            kind = r % 5
            filtered = bytearray()
            for i, x in enumerate(line):
                a = line[i - dist] if i >= dist else 0
                b = prior[i]
                c = prior[i - dist] if i >= dist else 0
                pred = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]
                filtered.append((x - pred) % 256)
            out += bytes([kind]) + filtered
            prior = line
    first = next(i for i, (k, _) in enumerate(chunks) if k == b"IDAT")
    rest = [c for c in chunks if c[0] != b"IDAT"]
    write_chunks(name, rest[:first] + [(b"IDAT", zlib.compress(bytes(out), 9))] + rest[first:], source)


if __name__ == "__main__":
    pypng_fixtures()
    pillow_fixtures()
    split_idat("rgba8-gama", "rgba8-many-idat", 16)
    for source in ("rgb8", "rgba16-adam7", "gray2-trns", "indexed4-adam7", "graya8", "gray16"):
        refilter(source, source + "-filters")
    with open("manifest.txt", "w") as f:
        f.write("\n".join(manifest) + "\n")
