# Model of curve coverage: chords at tolerance tau, with and without a per-cell "bulge"
# correction (each chord's exact curve-minus-chord area spread along the chord by the
# parabolic profile 6u(1-u) and deposited into the cells the chord crosses), against chords
# at 1e-4 px (the reference). Float accumulation like Crisp's: h*(1 - (fa+fb)/2) to cell c,
# h*(fa+fb)/2 to c+1; a bulge area a in cell c: +a to c, -a to c+1.
import math, random, sys
import numpy as np

K = 0.5522847498307936
def ellipse_cubics(cx, cy, rx, ry):
    pts = []
    for q in range(4):
        a0 = q * math.pi / 2; a1 = a0 + math.pi / 2
        c0, s0, c1, s1 = math.cos(a0), math.sin(a0), math.cos(a1), math.sin(a1)
        p0 = (cx + rx * c0, cy + ry * s0); p3 = (cx + rx * c1, cy + ry * s1)
        p1 = (p0[0] - K * rx * s0, p0[1] + K * ry * c0); p2 = (p3[0] + K * rx * s1, p3[1] - K * ry * c1)
        pts.append((p0, p1, p2, p3))
    return pts

def rrect_cubics(x, y, w, h, r):
    # rounded rect: four corner quarter arcs and four lines (lines as degenerate cubics)
    out = []
    def line(p, q): out.append((p, (p[0]+(q[0]-p[0])/3, p[1]+(q[1]-p[1])/3), (p[0]+2*(q[0]-p[0])/3, p[1]+2*(q[1]-p[1])/3), q))
    def arc(cx, cy, a0):
        a1 = a0 + math.pi/2
        c0, s0, c1, s1 = math.cos(a0), math.sin(a0), math.cos(a1), math.sin(a1)
        p0 = (cx + r*c0, cy + r*s0); p3 = (cx + r*c1, cy + r*s1)
        out.append((p0, (p0[0]-K*r*s0, p0[1]+K*r*c0), (p3[0]+K*r*s1, p3[1]-K*r*c1), p3))
    line((x+r, y), (x+w-r, y)); arc(x+w-r, y+r, -math.pi/2)
    line((x+w, y+r), (x+w, y+h-r)); arc(x+w-r, y+h-r, 0)
    line((x+w-r, y+h), (x+r, y+h)); arc(x+r, y+h-r, math.pi/2)
    line((x, y+h-r), (x, y+r)); arc(x+r, y+r, math.pi)
    return out

def pieces(cubic, tau):
    p0, p1, p2, p3 = [np.array(p) for p in cubic]
    m = max(np.linalg.norm(p0 - 2*p1 + p2), np.linalg.norm(p1 - 2*p2 + p3))
    n = max(1, math.ceil(math.sqrt(0.75 * m / tau)))
    c = 3*(p1 - p0); b = 3*(p0 - 2*p1 + p2); a = p3 - p0 + 3*(p1 - p2)
    B = lambda t: p0 + c*t + b*t*t + a*t*t*t
    D = lambda t: c + 2*b*t + 3*a*t*t
    cr = lambda u, v: u[0]*v[1] - u[1]*v[0]
    out = []
    for i in range(n):
        t0 = i / n; h = 1 / n
        al = h * D(t0); be = h*h*(b + 3*a*t0); ga = h**3 * a
        area = cr(al, be)/6 + cr(al, ga)/4 + cr(be, ga)/10     # 1/2 closed integral, curve then chord back
        out.append((B(t0), B(t0 + h), -area))                    # coverage sign: -closed x dy
    return out

def rasterize(segs, X0, Y0, W, H, bulge):
    cells = np.zeros((H, W + 2))
    for (pa, pb, A) in segs:
        x0, y0 = pa[0] - X0, pa[1] - Y0; x1, y1 = pb[0] - X0, pb[1] - Y0
        if max(y0, y1) <= 0 or min(y0, y1) >= H: continue
        if min(x0, x1) >= W: continue
        ts = {0.0, 1.0}
        dx, dy = x1 - x0, y1 - y0
        if dx != 0:
            for k in range(math.floor(min(x0, x1)) + 1, math.ceil(max(x0, x1))):
                ts.add((k - x0) / dx)
        if dy != 0:
            for k in range(math.floor(min(y0, y1)) + 1, math.ceil(max(y0, y1))):
                ts.add((k - y0) / dy)
        ts = sorted(t for t in ts if 0 <= t <= 1)
        for ua, ub in zip(ts, ts[1:]):
            if ub <= ua: continue
            xa, ya, xb, yb = x0 + dx*ua, y0 + dy*ua, x0 + dx*ub, y0 + dy*ub
            xm, ym = (xa + xb)/2, (ya + yb)/2
            r = math.floor(ym)
            if r < 0 or r >= H: continue
            c = math.floor(xm)
            if c >= W: continue
            amt = 0.0
            if bulge:
                F = lambda u: 3*u*u - 2*u*u*u
                amt = A * (F(ub) - F(ua))
            if c < 0:
                cells[r, 0] += (yb - ya) + amt * 0  # left of window: whole height; bulge is right-neutral
                # a bulge left of the window adds area there and removes it right: net 0 to visible
                continue
            fa, fb = xa - c, xb - c
            h = yb - ya
            cells[r, c] += h * (1 - (fa + fb)/2) + amt
            cells[r, c + 1] += h * (fa + fb)/2 - amt
    return np.cumsum(cells, axis=1)[:, :W]

def coverage(cubics, tau, X0, Y0, W, H, bulge):
    segs = []
    for cb in cubics: segs += pieces(cb, tau)
    cov = rasterize(segs, X0, Y0, W, H, bulge)
    return np.clip(np.abs(cov), 0, 1)

def run(kind, seed, n, taus):
    rng = random.Random(seed)
    res = {(t, bl): [] for t in taus for bl in (False, True)}
    for i in range(n):
        r = math.exp(rng.uniform(math.log(2), math.log(500)))
        s = rng.choice([1, 2, 3]); R = r * s
        cx, cy = rng.uniform(0, 1) + 3000, rng.uniform(0, 1) + 3000
        if kind == 'circle': cubics = ellipse_cubics(cx, cy, R, R)
        elif kind == 'ellipse': cubics = ellipse_cubics(cx, cy, R, R * rng.uniform(0.3, 0.9))
        else:
            w = R * rng.uniform(2.2, 5); hh = R * rng.uniform(2.2, 5)
            cubics = rrect_cubics(cx, cy, w, hh, R)
        # a window on a random point of a random curve
        cb = cubics[rng.randrange(len(cubics))] if kind != 'rrect' else cubics[2 * rng.randrange(4) + 1]
        t = rng.uniform(0, 1)
        p = [((1-t)**3)*cb[0][k] + 3*(1-t)**2*t*cb[1][k] + 3*(1-t)*t*t*cb[2][k] + t**3*cb[3][k] for k in range(2)]
        W = H = 24
        X0, Y0 = math.floor(p[0]) - W//2, math.floor(p[1]) - H//2
        ref = coverage(cubics, 1e-4, X0, Y0, W, H, False)
        for tau in taus:
            for bl in (False, True):
                cov = coverage(cubics, tau, X0, Y0, W, H, bl)
                err = (cov - ref) * 255
                res[(tau, bl)].append((np.abs(err).max(), np.abs(err).mean(), err.mean(), R))
    for tau in taus:
        for bl in (False, True):
            e = res[(tau, bl)]
            worst = max(e, key=lambda v: v[0])
            print(f"{kind:8s} tau {tau:<5} {'bulge' if bl else 'chords'}: worst {worst[0]:6.2f} (at R {worst[3]:7.1f})  mean|e| {np.mean([v[1] for v in e]):.3f}  signed {np.mean([v[2] for v in e]):+.3f}")
    sys.stdout.flush()

if __name__ == '__main__':
    kind = sys.argv[1]; n = int(sys.argv[2])
    run(kind, 32, n, [0.2, 0.1, 0.05])
