# Approach (b) modelled: each cubic as quadratics within tau_q (midpoint approximation), each
# quadratic split where it crosses a pixel grid line (x or y integer: a quadratic equation
# each), each piece then inside one cell: its chord deposited as an edge piece and its exact
# area against the chord (alpha x beta / 6) added to its cell. Also counts the work.
import math, random, sys
import numpy as np
from model import ellipse_cubics, rrect_cubics, pieces, rasterize

def quads(cubic, tau_q):
    p0, p1, p2, p3 = [np.array(p) for p in cubic]
    d3 = np.linalg.norm(p3 - 3*p2 + 3*p1 - p0)
    n = max(1, math.ceil((math.sqrt(3)/36 * d3 / tau_q) ** (1/3)))
    c = 3*(p1 - p0); b = 3*(p0 - 2*p1 + p2); a = p3 - p0 + 3*(p1 - p2)
    B = lambda t: p0 + c*t + b*t*t + a*t*t*t
    D = lambda t: c + 2*b*t + 3*a*t*t
    out = []
    for i in range(n):
        t0, t1 = i/n, (i+1)/n; h = t1 - t0
        q0, q2 = B(t0), B(t1)
        c1 = q0 + D(t0)*h/3; c2 = q2 - D(t1)*h/3
        out.append((q0, (3*(c1 + c2) - (q0 + q2))/4, q2))
    return out

def roots_q(a, b, c, lo, hi):
    # a t^2 + b t + c = 0 in (lo, hi)
    out = []
    if abs(a) < 1e-12:
        if b != 0: out = [-c/b]
    else:
        disc = b*b - 4*a*c
        if disc >= 0:
            s = math.sqrt(disc)
            q = -0.5*(b + math.copysign(s, b))
            out = [q/a] + ([c/q] if q != 0 else [])
    return [t for t in out if lo < t < hi]

def split_quad(q, X0, Y0):
    q0, q1, q2 = q
    A = q0 - 2*q1 + q2; Bv = 2*(q1 - q0)      # Q(t) = q0 + Bv t + A t^2
    ts = {0.0, 1.0}
    for k in range(2):
        if A[k] != 0:
            t = -Bv[k] / (2*A[k])
            if 0 < t < 1: ts.add(t)
    P = lambda t: q0 + Bv*t + A*t*t
    # grid lines between the extremes of the curve
    lo = np.minimum(np.minimum(q0, q2), np.minimum(q0, q2))
    pts = [P(t) for t in sorted(ts)]
    mn = np.min(pts, axis=0); mx = np.max(pts, axis=0)
    for k in range(2):
        org = (X0, Y0)[k]
        for g in range(math.floor(mn[k] - org) + 1, math.ceil(mx[k] - org)):
            for t in roots_q(A[k], Bv[k], q0[k] - (g + org), 0, 1): ts.add(t)
    ts = sorted(ts)
    segs = []
    cr = lambda u, v: u[0]*v[1] - u[1]*v[0]
    for ta, tb in zip(ts, ts[1:]):
        h = tb - ta
        if h <= 0: continue
        al = h*(Bv + 2*A*ta); be = h*h*A
        segs.append((P(ta), P(tb), -cr(al, be)/6))
    return segs

def coverage_b(cubics, tau_q, X0, Y0, W, H):
    segs = []
    for cb in cubics:
        for q in quads(cb, tau_q): segs += split_quad(q, X0, Y0)
    cov = rasterize(segs, X0, Y0, W, H, True)
    return np.clip(np.abs(cov), 0, 1), len(segs)

def coverage_ref(cubics, X0, Y0, W, H):
    segs = []
    for cb in cubics: segs += pieces(cb, 1e-4)
    return np.clip(np.abs(rasterize(segs, X0, Y0, W, H, False)), 0, 1)

def run(kind, seed, n, taus):
    rng = random.Random(seed)
    res = {t: [] for t in taus}
    for i in range(n):
        r = math.exp(rng.uniform(math.log(2), math.log(500)))
        s = rng.choice([1, 2, 3]); R = r * s
        cx, cy = rng.uniform(0, 1) + 3000, rng.uniform(0, 1) + 3000
        if kind == 'circle': cubics = ellipse_cubics(cx, cy, R, R)
        elif kind == 'ellipse': cubics = ellipse_cubics(cx, cy, R, R * rng.uniform(0.3, 0.9))
        else:
            w = R * rng.uniform(2.2, 5); hh = R * rng.uniform(2.2, 5)
            cubics = rrect_cubics(cx, cy, w, hh, R)
        cb = cubics[rng.randrange(len(cubics))] if kind != 'rrect' else cubics[2 * rng.randrange(4) + 1]
        t = rng.uniform(0, 1)
        p = [((1-t)**3)*cb[0][k] + 3*(1-t)**2*t*cb[1][k] + 3*(1-t)*t*t*cb[2][k] + t**3*cb[3][k] for k in range(2)]
        W = H = 24
        X0, Y0 = math.floor(p[0]) - W//2, math.floor(p[1]) - H//2
        # only the curves near the window matter for the error; clip work to them is not modelled
        ref = coverage_ref(cubics, X0, Y0, W, H)
        for tq in taus:
            cov, m = coverage_b(cubics, tq, X0, Y0, W, H)
            err = (cov - ref) * 255
            res[tq].append((np.abs(err).max(), np.abs(err).mean(), err.mean(), R))
    for tq in taus:
        e = res[tq]; worst = max(e, key=lambda v: v[0])
        print(f"{kind:8s} quadratics within {tq:<6}: worst {worst[0]:6.2f} (at R {worst[3]:7.1f})  mean|e| {np.mean([v[1] for v in e]):.3f}  signed {np.mean([v[2] for v in e]):+.3f}")
    sys.stdout.flush()

if __name__ == '__main__':
    run(sys.argv[1], 32, int(sys.argv[2]), [0.05, 0.01, 0.002])
