import Foundation

// The pixel side of filters: planes of premultiplied RGBA floats the size of the filter canvas,
// and the primitives' operations on them, as Filter Effects 1 defines them. Floats (not bytes)
// so that chains of linearRGB conversions, matrices and blurs do not band; a canvas is bounded
// (SVGDocument+Filter) so planes stay a few tens of MB at most.

/// A rectangle of pixels, `x0 ..< x1`, `y0 ..< y1`.
struct FilterPixelBox {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
}

/// A premultiplied RGBA image in floats (0…1), four values per pixel, rows top to bottom.
struct FilterPlane {
    var width: Int
    var height: Int
    var data: [Float]
    /// Whether the colour values are linearRGB (else sRGB).
    var linear: Bool
    /// Where the image is defined (its primitive subregion); transparent elsewhere.
    var area: FilterPixelBox

    init(width: Int, height: Int, linear: Bool) {
        self.width = width
        self.height = height
        data = [Float](repeating: 0, count: width * height * 4)
        self.linear = linear
        area = FilterPixelBox(x0: 0, y0: 0, x1: width, y1: height)
    }

    /// Clears everything outside `box` and makes it the area.
    mutating func crop(to box: FilterPixelBox) {
        let w = width, h = height
        let b = FilterPixelBox(x0: max(0, box.x0), y0: max(0, box.y0), x1: min(w, box.x1), y1: min(h, box.y1))
        data.withUnsafeMutableBufferPointer { d in
            for y in 0..<h {
                let inside = y >= b.y0 && y < b.y1
                for x in 0..<w where !inside || x < b.x0 || x >= b.x1 {
                    let k = (y * w + x) * 4
                    d[k] = 0; d[k + 1] = 0; d[k + 2] = 0; d[k + 3] = 0
                }
            }
        }
        area = b
    }
}

enum FilterRaster {
    // MARK: Colour spaces

    private static let toLinearTable: [Float] = (0...4096).map { i in
        let c = Double(i) / 4096
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }
    private static let toSRGBTable: [Float] = (0...4096).map { i in
        let c = Double(i) / 4096
        return Float(c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055)
    }

    /// `v` clamped to 0…1, NaN (from an arithmetic composite of huge k, say) to 0.
    @inline(__always) static func unit(_ v: Float) -> Float { v > 0 ? (v < 1 ? v : 1) : 0 }

    @inline(__always) private static func lookUp(_ table: UnsafeBufferPointer<Float>, _ v: Float) -> Float {
        let t = unit(v) * 4096
        let i = min(Int(t), 4095)
        let f = t - Float(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }

    /// Converts `plane` to linearRGB (`linear`) or sRGB, on straight colour values.
    static func convert(_ plane: inout FilterPlane, toLinear linear: Bool) {
        guard plane.linear != linear else { return }
        plane.linear = linear
        let table = linear ? toLinearTable : toSRGBTable
        table.withUnsafeBufferPointer { t in
            plane.data.withUnsafeMutableBufferPointer { d in
                var k = 0
                while k < d.count {
                    let a = d[k + 3]
                    if a > 0 {
                        let inv = 1 / a
                        d[k] = lookUp(t, d[k] * inv) * a
                        d[k + 1] = lookUp(t, d[k + 1] * inv) * a
                        d[k + 2] = lookUp(t, d[k + 2] * inv) * a
                    }
                    k += 4
                }
            }
        }
    }

    /// A straight sRGB colour in linearRGB (`linear`) or unchanged.
    static func color(_ c: SVGColor, linear: Bool) -> (Float, Float, Float, Float) {
        func f(_ v: Double) -> Float {
            let v = min(max(v, 0), 1)
            return Float(linear ? (v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)) : v)
        }
        return (f(c.red), f(c.green), f(c.blue), Float(min(max(c.alpha, 0), 1)))
    }

    // MARK: Blur

    /// Blurs `plane` with standard deviations `sx`, `sy` in pixels: three box blurs for a
    /// deviation of 2 or more (Filter Effects 1's approximation, within 3 % of the Gaussian),
    /// the sampled Gaussian kernel below.
    ///
    /// Each pass reads one buffer and writes the other. The vertical passes run along rows too — a running sum per column,
    /// updated a whole row at a time — so both directions read memory in order (the first
    /// version copied each column out through strided reads). Every pixel sees the same
    /// operations in the same order as a pass along its own line would (Double running sums for
    /// the boxes, Float products for the kernel), so the result is the same to the bit. (Scalar
    /// code, which the compiler vectorizes: SIMD4 values ran 2.3 times slower than the old loops
    /// in debug builds, which the tests and the fuzzer run.)
    static func blur(_ plane: inout FilterPlane, sx: Double, sy: Double, edge: SVGFilterPrimitive.EdgeMode) {
        let w = plane.width, h = plane.height
        guard w > 0, h > 0 else { return }
        var other = [Float](repeating: 0, count: w * h * 4)
        var sums = [Double](repeating: 0, count: w * 4)
        var inOther = false
        plane.data.withUnsafeMutableBufferPointer { a in
            other.withUnsafeMutableBufferPointer { b in
                sums.withUnsafeMutableBufferPointer { acc in
                    let pa = UnsafeMutableRawPointer(a.baseAddress!), pb = UnsafeMutableRawPointer(b.baseAddress!)
                    func pass(_ horizontal: Bool, _ kind: BlurPass) {
                        let src = inOther ? pb : pa, dst = inOther ? pa : pb
                        if horizontal {
                            for y in 0..<h { blurRow(src + y * w * 16, dst + y * w * 16, n: w, kind, edge) }
                        } else {
                            blurColumns(src, dst, acc.baseAddress!, w: w, h: h, kind, edge)
                        }
                        inOther.toggle()
                    }
                    for kind in passes(sigma: sx) { pass(true, kind) }
                    for kind in passes(sigma: sy) { pass(false, kind) }
                }
            }
        }
        if inOther { swap(&plane.data, &other) }
    }

    /// One pass of a blur along a line: a box (the mean of `left` pixels before, the pixel and
    /// `right` after) or a normalized sampled Gaussian of radius (weights.count − 1) / 2.
    enum BlurPass {
        case box(left: Int, right: Int)
        case kernel([Float])
    }

    /// The passes for a deviation of `sigma` pixels along one axis (none for 0 or a box of 1).
    static func passes(sigma: Double) -> [BlurPass] {
        guard sigma > 0 else { return [] }
        if sigma >= 2 {
            let d = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
            guard d > 1 else { return [] }
            if d % 2 == 1 { return Array(repeating: .box(left: d / 2, right: d / 2), count: 3) }
            return [.box(left: d / 2, right: d / 2 - 1), .box(left: d / 2 - 1, right: d / 2), .box(left: d / 2, right: d / 2)]
        }
        let r = Int((3 * sigma).rounded(.up))
        guard r > 0 else { return [] }
        var weights = [Float](repeating: 0, count: 2 * r + 1)
        var total: Float = 0
        for k in -r...r {
            let v = Float(exp(-Double(k * k) / (2 * sigma * sigma)))
            weights[k + r] = v
            total += v
        }
        for k in 0..<weights.count { weights[k] /= total }
        return [.kernel(weights)]
    }

    /// The value at `i` of a line of `n` pixels under an edge mode (nil: transparent).
    @inline(__always) private static func edgeIndex(_ i: Int, _ n: Int, _ edge: SVGFilterPrimitive.EdgeMode) -> Int? {
        if i >= 0 && i < n { return i }
        switch edge {
        case .none: return nil
        case .duplicate: return i < 0 ? 0 : n - 1
        case .wrap: return ((i % n) + n) % n
        }
    }

    /// One pass along a row of `n` pixels, from `src` to `dst` (four Float channels a pixel).
    private static func blurRow(_ src: UnsafeMutableRawPointer, _ dst: UnsafeMutableRawPointer, n: Int, _ kind: BlurPass,
                                _ edge: SVGFilterPrimitive.EdgeMode) {
        let s = src.assumingMemoryBound(to: Float.self), d = dst.assumingMemoryBound(to: Float.self)
        switch kind {
        case .box(let left, let right):
            let scale = 1 / Double(left + right + 1)
            var a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0
            for j in -left...right {
                guard let k = edgeIndex(j, n, edge) else { continue }
                a0 += Double(s[k * 4]); a1 += Double(s[k * 4 + 1]); a2 += Double(s[k * 4 + 2]); a3 += Double(s[k * 4 + 3])
            }
            for i in 0..<n {
                d[i * 4] = Float(max(0, a0 * scale)); d[i * 4 + 1] = Float(max(0, a1 * scale))
                d[i * 4 + 2] = Float(max(0, a2 * scale)); d[i * 4 + 3] = Float(max(0, a3 * scale))
                if let k = edgeIndex(i + right + 1, n, edge) {
                    a0 += Double(s[k * 4]); a1 += Double(s[k * 4 + 1]); a2 += Double(s[k * 4 + 2]); a3 += Double(s[k * 4 + 3])
                }
                if let k = edgeIndex(i - left, n, edge) {
                    a0 -= Double(s[k * 4]); a1 -= Double(s[k * 4 + 1]); a2 -= Double(s[k * 4 + 2]); a3 -= Double(s[k * 4 + 3])
                }
            }
        case .kernel(let weights):
            let r = (weights.count - 1) / 2
            for i in 0..<n {
                var a0: Float = 0, a1: Float = 0, a2: Float = 0, a3: Float = 0
                for k in -r...r {
                    guard let j = edgeIndex(i + k, n, edge) else { continue }
                    let wk = weights[k + r]
                    a0 += wk * s[j * 4]; a1 += wk * s[j * 4 + 1]; a2 += wk * s[j * 4 + 2]; a3 += wk * s[j * 4 + 3]
                }
                d[i * 4] = a0; d[i * 4 + 1] = a1; d[i * 4 + 2] = a2; d[i * 4 + 3] = a3
            }
        }
    }

    /// One pass down the columns of a `w` × `h` plane, from `src` to `dst`, a row at a time:
    /// `acc` holds a running sum per column and channel.
    private static func blurColumns(_ src: UnsafeMutableRawPointer, _ dst: UnsafeMutableRawPointer, _ acc: UnsafeMutablePointer<Double>,
                                    w: Int, h: Int, _ kind: BlurPass, _ edge: SVGFilterPrimitive.EdgeMode) {
        let s = src.assumingMemoryBound(to: Float.self), d = dst.assumingMemoryBound(to: Float.self)
        let count = w * 4
        switch kind {
        case .box(let left, let right):
            let scale = 1 / Double(left + right + 1)
            for x in 0..<count { acc[x] = 0 }
            for j in -left...right {
                guard let k = edgeIndex(j, h, edge) else { continue }
                let row = s + k * count
                for x in 0..<count { acc[x] += Double(row[x]) }
            }
            for y in 0..<h {
                let out = d + y * count
                for x in 0..<count { out[x] = Float(max(0, acc[x] * scale)) }
                if let k = edgeIndex(y + right + 1, h, edge) {
                    let row = s + k * count
                    for x in 0..<count { acc[x] += Double(row[x]) }
                }
                if let k = edgeIndex(y - left, h, edge) {
                    let row = s + k * count
                    for x in 0..<count { acc[x] -= Double(row[x]) }
                }
            }
        case .kernel(let weights):
            let r = (weights.count - 1) / 2
            for y in 0..<h {
                let out = d + y * count
                for x in 0..<count { out[x] = 0 }
                for k in -r...r {
                    guard let j = edgeIndex(y + k, h, edge) else { continue }
                    let wk = weights[k + r], row = s + j * count
                    for x in 0..<count { out[x] += wk * row[x] }
                }
            }
        }
    }

    // MARK: Moving, morphology, tiling

    /// `plane` moved by whole pixels.
    static func offset(_ plane: FilterPlane, dx: Int, dy: Int) -> FilterPlane {
        var out = FilterPlane(width: plane.width, height: plane.height, linear: plane.linear)
        let w = plane.width, h = plane.height
        plane.data.withUnsafeBufferPointer { src in
            out.data.withUnsafeMutableBufferPointer { dst in
                for y in max(0, dy)..<max(max(0, dy), min(h, h + dy)) {
                    let sy = y - dy
                    for x in max(0, dx)..<max(max(0, dx), min(w, w + dx)) {
                        let s = (sy * w + x - dx) * 4, d = (y * w + x) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
        return out
    }

    /// Erodes (minimum) or dilates (maximum) each channel over a 2rx × 2ry window (Filter
    /// Effects 1's "width of 2*x-radius", as resvg: pixels x − rx … x + rx − 1); pixels beyond
    /// the canvas are transparent black. (The browsers use 2r + 1.)
    static func morphology(_ plane: inout FilterPlane, rx: Int, ry: Int, dilate: Bool) {
        let w = plane.width, h = plane.height
        var values = [Float](repeating: 0, count: max(w, h))
        var result = values
        var deque = [Int](repeating: 0, count: max(w, h) + 1)
        func pass(_ n: Int, _ r: Int, _ lines: Int, _ index: (Int, Int) -> Int) {
            guard r > 0 else { return }
            for line in 0..<lines {
                for c in 0..<4 {
                    for i in 0..<n { values[i] = plane.data[index(line, i) + c] }
                    slidingExtreme(values, &result, &deque, n: n, r: r, dilate: dilate)
                    for i in 0..<n { plane.data[index(line, i) + c] = result[i] }
                }
            }
        }
        pass(w, rx, h) { y, x in (y * w + x) * 4 }
        pass(h, ry, w) { x, y in (y * w + x) * 4 }
    }

    /// The extreme of `values[i − r … i + r − 1]` for each i, outside counted as 0 (a monotonic deque).
    private static func slidingExtreme(_ values: [Float], _ result: inout [Float], _ deque: inout [Int], n: Int, r: Int, dilate: Bool) {
        var head = 0, tail = 0
        @inline(__always) func better(_ a: Float, _ b: Float) -> Bool { dilate ? a >= b : a <= b }
        var next = 0
        for i in 0..<n {
            let hi = min(n - 1, i + r - 1)
            while next <= hi {
                while tail > head && better(values[next], values[deque[tail - 1]]) { tail -= 1 }
                deque[tail] = next
                tail += 1
                next += 1
            }
            while deque[head] < i - r { head += 1 }
            var v = values[deque[head]]
            // The window reaches past an edge: transparent black there.
            if i - r < 0 || i + r - 1 > n - 1 { v = dilate ? max(v, 0) : min(v, 0) }
            result[i] = v
            if tail - head > n { head = tail - 1 }
        }
    }

    /// The input's area repeated over the whole canvas.
    static func tile(_ plane: FilterPlane) -> FilterPlane {
        var out = FilterPlane(width: plane.width, height: plane.height, linear: plane.linear)
        let a = plane.area
        guard !a.isEmpty else { return out }
        let tw = a.x1 - a.x0, th = a.y1 - a.y0, w = plane.width
        for y in 0..<plane.height {
            let sy = a.y0 + (((y - a.y0) % th) + th) % th
            for x in 0..<w {
                let sx = a.x0 + (((x - a.x0) % tw) + tw) % tw
                let s = (sy * w + sx) * 4, d = (y * w + x) * 4
                out.data[d] = plane.data[s]; out.data[d + 1] = plane.data[s + 1]
                out.data[d + 2] = plane.data[s + 2]; out.data[d + 3] = plane.data[s + 3]
            }
        }
        return out
    }

    // MARK: Compositing

    /// Porter-Duff and arithmetic compositing of `a` (in) with `b` (in2), into `a`.
    static func composite(_ a: inout FilterPlane, _ b: FilterPlane, _ op: SVGFilterPrimitive.CompositeOperator, k: [Float]) {
        b.data.withUnsafeBufferPointer { bd in
            a.data.withUnsafeMutableBufferPointer { ad in
                var i = 0
                while i < ad.count {
                    let aa = ad[i + 3], ba = bd[i + 3]
                    switch op {
                    case .arithmetic:
                        var alpha: Float = 0
                        for c in (0..<4).reversed() {
                            let v = min(max(k[0] * ad[i + c] * bd[i + c] + k[1] * ad[i + c] + k[2] * bd[i + c] + k[3], 0), 1)
                            if c == 3 { alpha = v; ad[i + 3] = v } else { ad[i + c] = min(v, alpha) }
                        }
                    default:
                        let fa: Float, fb: Float
                        switch op {
                        case .over: fa = 1; fb = 1 - aa
                        case .in: fa = ba; fb = 0
                        case .out: fa = 1 - ba; fb = 0
                        case .atop: fa = ba; fb = 1 - aa
                        case .xor: fa = 1 - ba; fb = 1 - aa
                        default: fa = 1; fb = 1
                        }
                        for c in 0..<4 { ad[i + c] = min(1, ad[i + c] * fa + bd[i + c] * fb) }
                    }
                    i += 4
                }
            }
        }
    }

    /// `top` over `bottom`, into `bottom`.
    static func over(_ bottom: inout FilterPlane, _ top: FilterPlane) {
        var t = top
        composite(&t, bottom, .over, k: [])
        bottom.data = t.data
    }

    /// feBlend: `source` (in) blended onto `backdrop` (in2), into `source`.
    static func blend(_ source: inout FilterPlane, _ backdrop: FilterPlane, _ mode: SVGFilterPrimitive.BlendMode) {
        backdrop.data.withUnsafeBufferPointer { bd in
            source.data.withUnsafeMutableBufferPointer { sd in
                var i = 0
                while i < sd.count {
                    let sa = sd[i + 3], ba = bd[i + 3]
                    let cs = sa > 0 ? (sd[i] / sa, sd[i + 1] / sa, sd[i + 2] / sa) : (0, 0, 0)
                    let cb = ba > 0 ? (bd[i] / ba, bd[i + 1] / ba, bd[i + 2] / ba) : (0, 0, 0)
                    let mixed = blendColor(cb, cs, mode)
                    let m = [mixed.0, mixed.1, mixed.2]
                    for c in 0..<3 {
                        let v = (1 - ba) * sd[i + c] + (1 - sa) * bd[i + c] + sa * ba * min(max(m[c], 0), 1)
                        sd[i + c] = v
                    }
                    let alpha = sa + ba - sa * ba
                    sd[i + 3] = alpha
                    for c in 0..<3 { sd[i + c] = min(max(sd[i + c], 0), alpha) }
                    i += 4
                }
            }
        }
    }

    typealias RGB = (Float, Float, Float)

    private static func blendColor(_ b: RGB, _ s: RGB, _ mode: SVGFilterPrimitive.BlendMode) -> RGB {
        func separable(_ f: (Float, Float) -> Float) -> RGB { (f(b.0, s.0), f(b.1, s.1), f(b.2, s.2)) }
        func hardLight(_ cb: Float, _ cs: Float) -> Float {
            cs <= 0.5 ? cb * 2 * cs : cb + (2 * cs - 1) - cb * (2 * cs - 1)
        }
        switch mode {
        case .normal: return s
        case .multiply: return separable { $0 * $1 }
        case .screen: return separable { $0 + $1 - $0 * $1 }
        case .overlay: return separable { cb, cs in hardLight(cs, cb) }
        case .darken: return separable { min($0, $1) }
        case .lighten: return separable { max($0, $1) }
        case .colorDodge:
            return separable { cb, cs in cb == 0 ? 0 : cs >= 1 ? 1 : min(1, cb / (1 - cs)) }
        case .colorBurn:
            return separable { cb, cs in cb >= 1 ? 1 : cs <= 0 ? 0 : 1 - min(1, (1 - cb) / cs) }
        case .hardLight: return separable(hardLight)
        case .softLight:
            return separable { cb, cs in
                if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
                let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
                return cb + (2 * cs - 1) * (d - cb)
            }
        case .difference: return separable { abs($0 - $1) }
        case .exclusion: return separable { $0 + $1 - 2 * $0 * $1 }
        case .hue: return setLum(setSat(s, sat(b)), lum(b))
        case .saturation: return setLum(setSat(b, sat(s)), lum(b))
        case .color: return setLum(s, lum(b))
        case .luminosity: return setLum(b, lum(s))
        }
    }

    private static func lum(_ c: RGB) -> Float { 0.3 * c.0 + 0.59 * c.1 + 0.11 * c.2 }
    private static func sat(_ c: RGB) -> Float { max(c.0, c.1, c.2) - min(c.0, c.1, c.2) }
    private static func clipColor(_ c: RGB) -> RGB {
        let l = lum(c), n = min(c.0, c.1, c.2), x = max(c.0, c.1, c.2)
        var r = c
        if n < 0 {
            r = (l + (r.0 - l) * l / (l - n), l + (r.1 - l) * l / (l - n), l + (r.2 - l) * l / (l - n))
        }
        if x > 1 {
            r = (l + (r.0 - l) * (1 - l) / (x - l), l + (r.1 - l) * (1 - l) / (x - l), l + (r.2 - l) * (1 - l) / (x - l))
        }
        return r
    }
    private static func setLum(_ c: RGB, _ l: Float) -> RGB {
        let d = l - lum(c)
        return clipColor((c.0 + d, c.1 + d, c.2 + d))
    }
    private static func setSat(_ c: RGB, _ s: Float) -> RGB {
        var v = [c.0, c.1, c.2]
        let order = [0, 1, 2].sorted { v[$0] < v[$1] }
        let lo = order[0], mid = order[1], hi = order[2]
        if v[hi] > v[lo] {
            v[mid] = (v[mid] - v[lo]) * s / (v[hi] - v[lo])
            v[hi] = s
        } else {
            v[mid] = 0
            v[hi] = 0
        }
        v[lo] = 0
        return (v[0], v[1], v[2])
    }

    // MARK: Colour

    /// Applies `body` to each pixel's straight RGBA and premultiplies the result (clamped).
    static func mapStraight(_ plane: inout FilterPlane, _ body: (inout (Float, Float, Float, Float)) -> Void) {
        plane.data.withUnsafeMutableBufferPointer { d in
            var i = 0
            while i < d.count {
                let a = d[i + 3]
                var p: (Float, Float, Float, Float) = a > 0 ? (d[i] / a, d[i + 1] / a, d[i + 2] / a, a) : (0, 0, 0, 0)
                body(&p)
                let na = min(max(p.3, 0), 1)
                d[i] = min(max(p.0, 0), 1) * na; d[i + 1] = min(max(p.1, 0), 1) * na
                d[i + 2] = min(max(p.2, 0), 1) * na; d[i + 3] = na
                i += 4
            }
        }
    }

    static func colorMatrix(_ plane: inout FilterPlane, _ m: [Float]) {
        mapStraight(&plane) { p in
            let (r, g, b, a) = p
            p = (m[0] * r + m[1] * g + m[2] * b + m[3] * a + m[4],
                 m[5] * r + m[6] * g + m[7] * b + m[8] * a + m[9],
                 m[10] * r + m[11] * g + m[12] * b + m[13] * a + m[14],
                 m[15] * r + m[16] * g + m[17] * b + m[18] * a + m[19])
        }
    }

    static func transfer(_ f: SVGFilterPrimitive.Transfer, _ value: Float) -> Float {
        let c = unit(value)
        switch f {
        case .identity: return c
        case .table(let v):
            let n = v.count - 1
            if n == 0 { return v[0] }
            let k = min(Int(c * Float(n)), n - 1)
            return v[k] + (c * Float(n) - Float(k)) * (v[k + 1] - v[k])
        case .discrete(let v):
            let k = min(Int(c * Float(v.count)), v.count - 1)
            return v[max(0, k)]
        case .linear(let slope, let intercept): return slope * c + intercept
        case .gamma(let amplitude, let exponent, let offset): return amplitude * pow(c, exponent) + offset
        }
    }

    static func componentTransfer(_ plane: inout FilterPlane, _ f: [SVGFilterPrimitive.Transfer]) {
        mapStraight(&plane) { p in
            p = (transfer(f[0], p.0), transfer(f[1], p.1), transfer(f[2], p.2), transfer(f[3], p.3))
        }
    }

    // MARK: Displacement and convolution

    static func displace(_ plane: FilterPlane, by map: FilterPlane, sx: Double, sy: Double, xc: Int, yc: Int) -> FilterPlane {
        var out = FilterPlane(width: plane.width, height: plane.height, linear: plane.linear)
        let w = plane.width, h = plane.height
        for y in 0..<h {
            for x in 0..<w {
                let k = (y * w + x) * 4
                let a = map.data[k + 3]
                let mx = xc == 3 ? a : (a > 0 ? map.data[k + xc] / a : 0)
                let my = yc == 3 ? a : (a > 0 ? map.data[k + yc] / a : 0)
                let fx = (Double(x) + sx * (Double(mx) - 0.5)).rounded(.down)
                let fy = (Double(y) + sy * (Double(my) - 0.5)).rounded(.down)
                guard fx >= 0, fx < Double(w), fy >= 0, fy < Double(h) else { continue }
                let px = Int(fx), py = Int(fy)
                let s = (py * w + px) * 4
                out.data[k] = plane.data[s]; out.data[k + 1] = plane.data[s + 1]
                out.data[k + 2] = plane.data[s + 2]; out.data[k + 3] = plane.data[s + 3]
            }
        }
        return out
    }

    static func convolve(_ plane: FilterPlane, _ c: SVGFilterPrimitive.Convolve) -> FilterPlane {
        var out = FilterPlane(width: plane.width, height: plane.height, linear: plane.linear)
        let w = plane.width, h = plane.height
        // Straight colour when alpha is preserved, premultiplied otherwise.
        var src = plane.data
        if c.preserveAlpha {
            for i in stride(from: 0, to: src.count, by: 4) where src[i + 3] > 0 {
                let a = src[i + 3]
                src[i] /= a; src[i + 1] /= a; src[i + 2] /= a
            }
        }
        let area = plane.area
        for y in 0..<h {
            for x in 0..<w {
                var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                for j in 0..<c.orderY {
                    for i in 0..<c.orderX {
                        let sxRaw = x - c.targetX + i - area.x0, syRaw = y - c.targetY + j - area.y0
                        guard let sx = edgeIndex(sxRaw, area.x1 - area.x0, c.edgeMode),
                              let sy = edgeIndex(syRaw, area.y1 - area.y0, c.edgeMode) else { continue }
                        let kv = c.kernel[(c.orderY - j - 1) * c.orderX + (c.orderX - i - 1)]
                        let s = ((sy + area.y0) * w + sx + area.x0) * 4
                        acc.0 += kv * src[s]; acc.1 += kv * src[s + 1]; acc.2 += kv * src[s + 2]; acc.3 += kv * src[s + 3]
                    }
                }
                let k = (y * w + x) * 4
                if c.preserveAlpha {
                    let a = plane.data[k + 3]
                    out.data[k] = min(max(acc.0 / c.divisor + c.bias, 0), 1) * a
                    out.data[k + 1] = min(max(acc.1 / c.divisor + c.bias, 0), 1) * a
                    out.data[k + 2] = min(max(acc.2 / c.divisor + c.bias, 0), 1) * a
                    out.data[k + 3] = a
                } else {
                    let a = min(max(acc.3 / c.divisor + c.bias, 0), 1)
                    out.data[k + 3] = a
                    out.data[k] = min(max(acc.0 / c.divisor + c.bias * a, 0), a)
                    out.data[k + 1] = min(max(acc.1 / c.divisor + c.bias * a, 0), a)
                    out.data[k + 2] = min(max(acc.2 / c.divisor + c.bias * a, 0), a)
                }
            }
        }
        return out
    }

    // MARK: Lighting

    /// Diffuse or specular lighting of the input's alpha as a height map (Filter Effects 1
    /// §9.17–9.18): Sobel normals (the one-sided forms at the edges), lights in canvas pixels.
    /// `toPixel` maps a user-space point to canvas pixels; `zScale` scales light heights.
    static func lighting(_ input: FilterPlane, _ l: SVGFilterPrimitive.Lighting, linear: Bool, scale: Double,
                         toPixel: (Double, Double) -> (Double, Double)) -> FilterPlane {
        var out = FilterPlane(width: input.width, height: input.height, linear: linear)
        let box = input.area
        guard !box.isEmpty else { return out }
        let w = input.width
        let (lr, lg, lb, _) = color(l.color, linear: linear)
        let ss = l.surfaceScale
        func alpha(_ x: Int, _ y: Int) -> Double { Double(input.data[(y * w + x) * 4 + 3]) }
        var lightPoint = (0.0, 0.0, 0.0), spotDirection = (0.0, 0.0, 0.0)
        var distant = (0.0, 0.0, 0.0)
        switch l.light {
        case .distant(let az, let el):
            let a = az * .pi / 180, e = el * .pi / 180
            distant = (cos(a) * cos(e), sin(a) * cos(e), sin(e))
        case .point(let x, let y, let z):
            let p = toPixel(x, y)
            lightPoint = (p.0, p.1, z * scale)
        case .spot(let x, let y, let z, let ax, let ay, let az, _, _):
            let p = toPixel(x, y), q = toPixel(ax, ay)
            lightPoint = (p.0, p.1, z * scale)
            let d = (q.0 - p.0, q.1 - p.1, az * scale - z * scale)
            let n = (d.0 * d.0 + d.1 * d.1 + d.2 * d.2).squareRoot()
            spotDirection = n > 0 ? (d.0 / n, d.1 / n, d.2 / n) : (0, 0, 0)
        }
        for y in box.y0..<box.y1 {
            for x in box.x0..<box.x1 {
                // The surface normal.
                let hasLeft = x > box.x0, hasRight = x < box.x1 - 1, hasUp = y > box.y0, hasDown = y < box.y1 - 1
                var nx = 0.0, ny = 0.0
                do {
                    let xl = hasLeft ? x - 1 : x, xr = hasRight ? x + 1 : x
                    if xl != xr {
                        var sum = 0.0, weight = 0.0
                        for (dy, wgt) in [(-1, 1.0), (0, 2.0), (1, 1.0)] {
                            if dy == -1 && !hasUp || dy == 1 && !hasDown { continue }
                            sum += wgt * (alpha(xr, y + dy) - alpha(xl, y + dy))
                            weight += wgt
                        }
                        let factor = (hasLeft && hasRight ? 0.5 : 1) * 2 / weight
                        nx = -ss * factor * sum
                    }
                    let yu = hasUp ? y - 1 : y, yd = hasDown ? y + 1 : y
                    if yu != yd {
                        var sum = 0.0, weight = 0.0
                        for (dx, wgt) in [(-1, 1.0), (0, 2.0), (1, 1.0)] {
                            if dx == -1 && !hasLeft || dx == 1 && !hasRight { continue }
                            sum += wgt * (alpha(x + dx, yd) - alpha(x + dx, yu))
                            weight += wgt
                        }
                        let factor = (hasUp && hasDown ? 0.5 : 1) * 2 / weight
                        ny = -ss * factor * sum
                    }
                }
                let nl = (nx * nx + ny * ny + 1).squareRoot()
                let n = (nx / nl, ny / nl, 1 / nl)
                // The light vector and colour.
                var lv = distant
                var lightColor = (Double(lr), Double(lg), Double(lb))
                switch l.light {
                case .distant: break
                case .point, .spot:
                    let z = ss * alpha(x, y)
                    let d = (lightPoint.0 - Double(x), lightPoint.1 - Double(y), lightPoint.2 - z)
                    let dn = (d.0 * d.0 + d.1 * d.1 + d.2 * d.2).squareRoot()
                    lv = dn > 0 ? (d.0 / dn, d.1 / dn, d.2 / dn) : (0, 0, 1)
                    if case .spot(_, _, _, _, _, _, let exponent, let cone) = l.light {
                        let minusLDotS = -(lv.0 * spotDirection.0 + lv.1 * spotDirection.1 + lv.2 * spotDirection.2)
                        var factor = 0.0
                        if minusLDotS > 0, cone.map({ minusLDotS >= cos(abs($0) * .pi / 180) }) ?? true {
                            factor = pow(minusLDotS, exponent)
                        }
                        lightColor = (lightColor.0 * factor, lightColor.1 * factor, lightColor.2 * factor)
                    }
                }
                let k = (y * w + x) * 4
                if l.specular {
                    var hv = (lv.0, lv.1, lv.2 + 1)
                    let hn = (hv.0 * hv.0 + hv.1 * hv.1 + hv.2 * hv.2).squareRoot()
                    hv = hn > 0 ? (hv.0 / hn, hv.1 / hn, hv.2 / hn) : (0, 0, 1)
                    let ndoth = max(0, n.0 * hv.0 + n.1 * hv.1 + n.2 * hv.2)
                    let f = l.constant * pow(ndoth, l.exponent)
                    let r = Float(min(max(f * lightColor.0, 0), 1)), g = Float(min(max(f * lightColor.1, 0), 1))
                    let b = Float(min(max(f * lightColor.2, 0), 1))
                    let a = max(r, g, b)
                    out.data[k] = r * a; out.data[k + 1] = g * a; out.data[k + 2] = b * a; out.data[k + 3] = a
                    // Filter Effects 1: the result is not premultiplied; stored premultiplied.
                    if a > 0 { out.data[k] = r; out.data[k + 1] = g; out.data[k + 2] = b }
                } else {
                    let ndotl = max(0, n.0 * lv.0 + n.1 * lv.1 + n.2 * lv.2)
                    let f = l.constant * ndotl
                    out.data[k] = Float(min(max(f * lightColor.0, 0), 1))
                    out.data[k + 1] = Float(min(max(f * lightColor.1, 0), 1))
                    out.data[k + 2] = Float(min(max(f * lightColor.2, 0), 1))
                    out.data[k + 3] = 1
                }
            }
        }
        return out
    }
}
