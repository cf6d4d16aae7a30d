import Foundation

// feTurbulence: the reference implementation Filter Effects 1 gives (§9.25, Perlin noise with
// the specification's random number generator, lattice and gradient tables, and tile
// stitching), followed step for step so that the noise is the same bit for bit as every other
// renderer following it (resvg, the browsers). Evaluated at each pixel's user-space point.

struct SVGTurbulenceGenerator {
    private static let randM = 2147483647, randA = 16807, randQ = 127773, randR = 2836
    private static let bSize = 0x100, bMask = 0xff, perlinN = 0x1000

    private var lattice = [Int](repeating: 0, count: 0x100 + 0x100 + 2)
    /// gradient[channel][index] = (x, y).
    private var gradient = [[(Double, Double)]](repeating: [(Double, Double)](repeating: (0, 0), count: 0x100 + 0x100 + 2), count: 4)

    private static func random(_ seed: Int) -> Int {
        var s = randA * (seed % randQ) - randR * (seed / randQ)
        if s <= 0 { s += randM }
        return s
    }

    init(seed: Int) {
        var s = seed
        if s <= 0 { s = -(s % (Self.randM - 1)) + 1 }
        if s > Self.randM - 1 { s = Self.randM - 1 }
        let b = Self.bSize
        for k in 0..<4 {
            for i in 0..<b {
                lattice[i] = i
                s = Self.random(s)
                var gx = Double((s % (b + b)) - b) / Double(b)
                s = Self.random(s)
                var gy = Double((s % (b + b)) - b) / Double(b)
                let n = (gx * gx + gy * gy).squareRoot()
                if n > 0 { gx /= n; gy /= n }
                gradient[k][i] = (gx, gy)
            }
        }
        var i = b - 1
        while i > 0 {
            let k = lattice[i]
            s = Self.random(s)
            let j = s % b
            lattice[i] = lattice[j]
            lattice[j] = k
            i -= 1
        }
        for i in 0..<(b + 2) {
            lattice[b + i] = lattice[i]
            for k in 0..<4 { gradient[k][b + i] = gradient[k][i] }
        }
    }

    private struct Stitch {
        var width: Int, height: Int, wrapX: Int, wrapY: Int
    }

    private func noise2(_ channel: Int, _ vx: Double, _ vy: Double, _ stitch: Stitch?) -> Double {
        let n = Double(Self.perlinN), m = Self.bMask
        guard abs(vx) < 1e15, abs(vy) < 1e15 else { return 0 }   // beyond Int (and any meaning)
        let tx = vx + n
        var bx0 = Int(tx), bx1 = bx0 + 1
        let rx0 = tx - Double(Int(tx)), rx1 = rx0 - 1
        let ty = vy + n
        var by0 = Int(ty), by1 = by0 + 1
        let ry0 = ty - Double(Int(ty)), ry1 = ry0 - 1
        if let st = stitch {
            if bx0 >= st.wrapX { bx0 -= st.width }
            if bx1 >= st.wrapX { bx1 -= st.width }
            if by0 >= st.wrapY { by0 -= st.height }
            if by1 >= st.wrapY { by1 -= st.height }
        }
        bx0 &= m; bx1 &= m; by0 &= m; by1 &= m
        let i = lattice[bx0], j = lattice[bx1]
        let b00 = lattice[i + by0], b10 = lattice[j + by0], b01 = lattice[i + by1], b11 = lattice[j + by1]
        let sx = rx0 * rx0 * (3 - 2 * rx0), sy = ry0 * ry0 * (3 - 2 * ry0)
        let g = gradient[channel]
        var q = g[b00]
        var u = rx0 * q.0 + ry0 * q.1
        q = g[b10]
        var v = rx1 * q.0 + ry0 * q.1
        let a = u + sx * (v - u)
        q = g[b01]
        u = rx0 * q.0 + ry1 * q.1
        q = g[b11]
        v = rx1 * q.0 + ry1 * q.1
        let bb = u + sx * (v - u)
        return a + sy * (bb - a)
    }

    /// The turbulence function for one channel at user-space point (x, y); `tile` is the
    /// primitive subregion (for stitching).
    func turbulence(_ channel: Int, x: Double, y: Double, _ t: SVGFilterPrimitive.Turbulence,
                    tileX: Double, tileY: Double, tileWidth: Double, tileHeight: Double) -> Double {
        var fx = t.baseFrequencyX, fy = t.baseFrequencyY
        var stitch: Stitch?
        if t.stitch, abs(tileWidth * fx) < 1e9, abs(tileHeight * fy) < 1e9, abs(tileX * fx) < 1e9, abs(tileY * fy) < 1e9 {
            if fx != 0 {
                let lo = (tileWidth * fx).rounded(.down) / tileWidth, hi = (tileWidth * fx).rounded(.up) / tileWidth
                fx = fx / lo < hi / fx ? lo : hi
            }
            if fy != 0 {
                let lo = (tileHeight * fy).rounded(.down) / tileHeight, hi = (tileHeight * fy).rounded(.up) / tileHeight
                fy = fy / lo < hi / fy ? lo : hi
            }
            let w = Int(tileWidth * fx + 0.5), h = Int(tileHeight * fy + 0.5)
            stitch = Stitch(width: w, height: h,
                            wrapX: Int(tileX * fx + Double(Self.perlinN) + Double(w)),
                            wrapY: Int(tileY * fy + Double(Self.perlinN) + Double(h)))
        }
        var sum = 0.0, ratio = 1.0
        var vx = x * fx, vy = y * fy
        for _ in 0..<t.octaves {
            let n = noise2(channel, vx, vy, stitch)
            sum += (t.fractalNoise ? n : abs(n)) / ratio
            vx *= 2; vy *= 2; ratio *= 2
            if var st = stitch {
                st.width *= 2
                st.wrapX = 2 * st.wrapX - Self.perlinN
                st.height *= 2
                st.wrapY = 2 * st.wrapY - Self.perlinN
                stitch = st
            }
        }
        return sum
    }
}
