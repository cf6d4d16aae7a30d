#!/usr/bin/env python3
"""Reference renderings from Cairo for Crisp's blend-mode and gradient tests.

One-off tool, not a test dependency. Made with pycairo 1.29.2 on cairo 1.16.0:

    python3 -m venv /tmp/v && /tmp/v/bin/pip install pycairo
    /tmp/v/bin/python make_references.py        # writes the PNGs next to this file

Blend modes: a 32x16 canvas whose left half is opaque blue-ish and right half half-transparent
orange; a source rectangle over rows 4..12 of colour (0.8, 0.3, 0.5, 0.7) composited with each
operator. Only the source rectangle is compared (Cairo's IN/OUT/DEST_IN/DEST_ATOP are unbounded,
Quartz's are not). Gradients: a three-stop linear gradient and a two-circle radial gradient,
both with EXTEND_PAD, on 64x32.
"""
import cairo, os

HERE = os.path.dirname(os.path.abspath(__file__))
OPS = {
    "normal": cairo.OPERATOR_OVER, "multiply": cairo.OPERATOR_MULTIPLY, "screen": cairo.OPERATOR_SCREEN,
    "overlay": cairo.OPERATOR_OVERLAY, "darken": cairo.OPERATOR_DARKEN, "lighten": cairo.OPERATOR_LIGHTEN,
    "colorDodge": cairo.OPERATOR_COLOR_DODGE, "colorBurn": cairo.OPERATOR_COLOR_BURN,
    "softLight": cairo.OPERATOR_SOFT_LIGHT, "hardLight": cairo.OPERATOR_HARD_LIGHT,
    "difference": cairo.OPERATOR_DIFFERENCE, "exclusion": cairo.OPERATOR_EXCLUSION,
    "hue": cairo.OPERATOR_HSL_HUE, "saturation": cairo.OPERATOR_HSL_SATURATION, "color": cairo.OPERATOR_HSL_COLOR,
    "luminosity": cairo.OPERATOR_HSL_LUMINOSITY, "clear": cairo.OPERATOR_CLEAR, "copy": cairo.OPERATOR_SOURCE,
    "sourceIn": cairo.OPERATOR_IN, "sourceOut": cairo.OPERATOR_OUT, "sourceAtop": cairo.OPERATOR_ATOP,
    "destinationOver": cairo.OPERATOR_DEST_OVER, "destinationIn": cairo.OPERATOR_DEST_IN,
    "destinationOut": cairo.OPERATOR_DEST_OUT, "destinationAtop": cairo.OPERATOR_DEST_ATOP,
    "xor": cairo.OPERATOR_XOR, "plusLighter": cairo.OPERATOR_ADD,
}

for name, op in OPS.items():
    s = cairo.ImageSurface(cairo.FORMAT_ARGB32, 32, 16)
    c = cairo.Context(s)
    c.set_source_rgba(0.2, 0.6, 0.9, 1.0); c.rectangle(0, 0, 16, 16); c.fill()
    c.set_source_rgba(0.9, 0.4, 0.1, 0.5); c.rectangle(16, 0, 16, 16); c.fill()
    c.set_operator(op)
    c.set_source_rgba(0.8, 0.3, 0.5, 0.7); c.rectangle(0, 4, 32, 8); c.fill()
    s.write_to_png(os.path.join(HERE, f"blend_{name}.png"))

def stops(p):
    p.add_color_stop_rgba(0.0, 0.9, 0.2, 0.1, 1.0)
    p.add_color_stop_rgba(0.4, 1.0, 0.85, 0.2, 1.0)
    p.add_color_stop_rgba(1.0, 0.1, 0.3, 0.9, 0.5)
    p.set_extend(cairo.EXTEND_PAD)

s = cairo.ImageSurface(cairo.FORMAT_ARGB32, 64, 32); c = cairo.Context(s)
g = cairo.LinearGradient(8, 4, 56, 28); stops(g); c.set_source(g); c.paint()
s.write_to_png(os.path.join(HERE, "gradient_linear.png"))

s = cairo.ImageSurface(cairo.FORMAT_ARGB32, 64, 32); c = cairo.Context(s)
g = cairo.RadialGradient(24, 14, 2, 32, 16, 14); stops(g); c.set_source(g); c.paint()
s.write_to_png(os.path.join(HERE, "gradient_radial.png"))
