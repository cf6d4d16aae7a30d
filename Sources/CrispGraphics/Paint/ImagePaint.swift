import Foundation

// Image sampling. Device pixel centres map through one affine transform into image pixel space
// (u, v), with pixel i covering [i, i+1). Quality picks the filter:
//   none          nearest pixel
//   low           bilinear on the image
//   default/medium bilinear on the pyramid level nearest below the minification (box-filtered
//                 2×2 averages), so a downscaled image does not alias
//   high          trilinear: bilinear on the two bracketing levels, blended
// Rejected: bicubic for magnification (marginal gain for UI artwork at 2×, 4× the samples).
//
// Each pixel centre still goes through the transform in Double — the same expression, so the
// same bits, as a one-pixel-at-a-time sampler — because stepping the coordinate along a span (in
// 32.32 fixed point, or Double start + increment) moves values that should be exact integers,
// such as 3.2 · 7.5, to just below them: the nearest filter then picks the neighbouring pixel and
// bilinear weights shift by a level (measured on the image goldens). What makes the span loop
// fast is everything around that: the floor and the 8-bit weight come from truncating
// conversions instead of libm's floor/round, the filter, the wrapping and the paint mode are
// chosen once per span (generic specializations), and when v does not change along the span (no
// rotation or skew) the two source rows and their weight are found once. Taps are blended with
// `Pixel.lerp` on packed channels (two channels per multiply) with the same rounding as before;
// between two fixed rows, four samples at a time in 16-bit lanes (`FourTaps`), the same bits.
// Spans whose coordinates are not finite or beyond ±2³⁰ px (absurd transforms, far tiling) take
// the general per-pixel path.
//
// One case steps after all, because there stepping is exact: when every coefficient of the
// transform is a multiple of 2⁻¹⁶ (within bounds) and the level's scale a power of two — whole
// and half-pixel placements at 1×, 2×, ½×, as UI drawing mostly is — every Double operation of
// the per-pixel expression is exact, the coordinates are multiples of 2⁻³¹, and 24.40 fixed
// point holds them exactly. The span then steps u and v with one integer add each and takes
// floors and weights by shifts, with the same results bit for bit (`ExactStep`). When that step
// is one image pixel per device pixel along a row (a cached view's contents put back, a 1× image
// at 1×) and the span stays inside the image, nearest sampling is a copy of the row.

/// What an image paint produces from its samples.
enum ImagePaintMode {
    /// The image's own colours.
    case color
    /// The fill colour through an image mask (CoreGraphics draws image masks this way).
    case stencil(UInt32)
    /// Only how much each pixel lets through, in the alpha channel (for clipping to a mask).
    case maskValue(isImageMask: Bool)
}

/// One pyramid level as a raw buffer for the duration of a draw.
struct SampledLevel {
    let pixels: UnsafePointer<UInt32>
    let width: Int
    let height: Int
    /// Level pixels per level-0 pixel.
    let scaleX: CGFloat, scaleY: CGFloat
}

struct ImagePaint {
    let primary: SampledLevel
    /// The next coarser level and its weight, for trilinear filtering.
    let secondary: SampledLevel?
    let secondaryWeight: UInt32
    /// Raster pixel → level-0 image coordinates.
    let toImage: CGAffineTransform
    let nearest: Bool
    let tiled: Bool
    let mode: ImagePaintMode
    /// Global alpha, 0…255.
    let alpha: UInt32
    /// Whether every pixel painted is opaque: an opaque image drawn in colour at full alpha.
    let isOpaque: Bool
    /// Whether the transform's coefficients allow exact fixed-point stepping (`ExactStep`).
    let hasDyadicTransform: Bool
    /// Raw samples kept from earlier draws under the same mapping (`ResampledSamples`).
    var resampled: ResampledSamples?

    init(primary: SampledLevel, secondary: SampledLevel?, secondaryWeight: UInt32, toImage: CGAffineTransform,
         nearest: Bool, tiled: Bool, mode: ImagePaintMode, alpha: UInt32, isImageOpaque: Bool) {
        self.primary = primary
        self.secondary = secondary
        self.secondaryWeight = secondaryWeight
        self.toImage = toImage
        self.nearest = nearest
        self.tiled = tiled
        self.mode = mode
        self.alpha = alpha
        if case .color = mode { isOpaque = isImageOpaque && alpha == 255 } else { isOpaque = false }
        hasDyadicTransform = ExactStep.isDyadic(toImage)
    }

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        guard count > 0 else { return }
        if let row = resampled?.row(x: x, y: y, count: count) {
            out.update(from: row, count: count)
        } else {
            rawSamples(x: x, y: y, count: count, into: out)
        }
        finish(out, count: count)
    }

    /// The samples of the span before the paint mode and the global alpha: the filtered image
    /// (and the next pyramid level blended in, for trilinear filtering).
    func rawSamples(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        guard isInRange(primary, x: x, y: y, count: count),
              secondary.map({ isInRange($0, x: x, y: y, count: count) }) ?? true else {
            samplePixels(x: x, y: y, count: count, into: out)
            return
        }
        sample(primary, x: x, y: y, count: count, into: out)
        if let secondary, secondaryWeight > 0 {
            // The coarser level in chunks through a small stack buffer.
            let chunk = 256
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: min(count, chunk)) { buffer in
                let coarse = buffer.baseAddress!
                var done = 0
                while done < count {
                    let n = min(chunk, count - done)
                    sample(secondary, x: x + done, y: y, count: n, into: coarse)
                    let fine = out + done
                    for i in 0..<n { fine[i] = Pixel.lerp(fine[i], coarse[i], secondaryWeight) }
                    done += n
                }
            }
        }
    }

    /// The image's own pixels for a span when they are exactly what `shade` would write — nearest
    /// sampling at one image pixel per device pixel inside one row of the finest level, with no
    /// level blend, no mode and no global alpha — so the compositor blends straight from the
    /// image instead of copying the row first (cached view contents put back into a frame); or,
    /// at full alpha in colour, the row of samples kept from earlier draws (`resampled`). Nil
    /// otherwise. Images own their pixels (`makeImage` copies), so the row never aliases the
    /// destination.
    func unmodifiedRow(x: Int, y: Int, count: Int) -> UnsafePointer<UInt32>? {
        if let resampled, alpha == 255, case .color = mode { return resampled.row(x: x, y: y, count: count) }
        guard nearest, !tiled, alpha == 255, hasDyadicTransform, count > 0,
              secondary == nil || secondaryWeight <= 0, case .color = mode,
              let step = ExactStep(primary, toImage, x: x, y: y, count: count, centred: false),
              step.dv == 0, step.du == ExactStep.unit else { return nil }
        let row = ExactStep.integer(step.v), first = ExactStep.integer(step.u)
        guard row >= 0, row < primary.height, first >= 0, first <= primary.width &- count else { return nil }
        return UnsafePointer(primary.pixels + row * primary.width + first)
    }

    /// Whether the level coordinates of the span's pixel centres are finite and within ±2³⁰
    /// (checked at both ends; they are affine along the span).
    private func isInRange(_ level: SampledLevel, x: Int, y: Int, count: Int) -> Bool {
        let py = CGFloat(y) + 0.5, limit: CGFloat = 1_073_741_824
        let p = toImage.apply(CGFloat(x) + 0.5, py), q = toImage.apply(CGFloat(x + count - 1) + 0.5, py)
        // Written so that NaN fails.
        return abs(p.x * level.scaleX) < limit && abs(p.y * level.scaleY) < limit
            && abs(q.x * level.scaleX) < limit && abs(q.y * level.scaleY) < limit
    }

    /// Applies the paint mode and the global alpha to raw samples.
    @inline(__always)
    private func finish(_ out: UnsafeMutablePointer<UInt32>, count: Int) {
        switch mode {
        case .color: break
        case .stencil(let color):
            for i in 0..<count { out[i] = Pixel.scale(color, by: out[i] >> 24) }
        case .maskValue(let isImageMask):
            if isImageMask {
                for i in 0..<count { out[i] &= 0xFF00_0000 }
            } else {
                for i in 0..<count { out[i] = CGImage.luminanceAlpha(out[i]) << 24 }
            }
        }
        if alpha != 255 {
            for i in 0..<count { out[i] = Pixel.scale(out[i], by: alpha) }
        }
    }

    /// Raw samples of `level` along a span, dispatched once on the filter and the wrapping.
    private func sample(_ level: SampledLevel, x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        if hasDyadicTransform, let step = ExactStep(level, toImage, x: x, y: y, count: count, centred: !nearest) {
            switch (nearest, tiled) {
            case (true, false): stepNearest(level, step, count, out, ClampedIndex.self)
            case (true, true): stepNearest(level, step, count, out, WrappedIndex.self)
            case (false, false): stepBilinear(level, step, count, out, ClampedIndex.self)
            case (false, true): stepBilinear(level, step, count, out, WrappedIndex.self)
            }
            return
        }
        switch (nearest, tiled) {
        case (true, false): sampleNearest(level, x, y, count, out, ClampedIndex.self)
        case (true, true): sampleNearest(level, x, y, count, out, WrappedIndex.self)
        case (false, false): sampleBilinear(level, x, y, count, out, ClampedIndex.self)
        case (false, true): sampleBilinear(level, x, y, count, out, WrappedIndex.self)
        }
    }

    @inline(__always)
    private func sampleNearest<I: ImageIndex>(_ level: SampledLevel, _ x: Int, _ y: Int, _ count: Int,
                                              _ out: UnsafeMutablePointer<UInt32>, _: I.Type) {
        let w = level.width, h = level.height, pixels = level.pixels
        let sx = level.scaleX, sy = level.scaleY, py = CGFloat(y) + 0.5
        if toImage.b == 0 {
            // v is the same for the whole span: one source row.
            let row = pixels + I.index(Self.floor(toImage.apply(CGFloat(x) + 0.5, py).y * sy), h) * w
            for i in 0..<count {
                out[i] = row[I.index(Self.floor(toImage.apply(CGFloat(x + i) + 0.5, py).x * sx), w)]
            }
            return
        }
        for i in 0..<count {
            let p = toImage.apply(CGFloat(x + i) + 0.5, py)
            out[i] = pixels[I.index(Self.floor(p.x * sx), w) + I.index(Self.floor(p.y * sy), h) * w]
        }
    }

    @inline(__always)
    private func sampleBilinear<I: ImageIndex>(_ level: SampledLevel, _ x: Int, _ y: Int, _ count: Int,
                                               _ out: UnsafeMutablePointer<UInt32>, _: I.Type) {
        let w = level.width, h = level.height, pixels = level.pixels
        let sx = level.scaleX, sy = level.scaleY, py = CGFloat(y) + 0.5
        if toImage.b == 0 {
            // v is the same for the whole span: two fixed source rows and one weight.
            let (y0, ay) = Self.floorAndWeight(toImage.apply(CGFloat(x) + 0.5, py).y * sy - 0.5)
            let top = pixels + I.index(y0, h) * w, bottom = pixels + I.index(y0 + 1, h) * w
            if ay == 0 {
                // lerp(t, b, 0) is exactly t: one row suffices.
                for i in 0..<count {
                    let (x0, ax) = Self.floorAndWeight(toImage.apply(CGFloat(x + i) + 0.5, py).x * sx - 0.5)
                    out[i] = Pixel.lerp(top[I.index(x0, w)], top[I.index(x0 + 1, w)], ax)
                }
                return
            }
            var taps = FourTaps(ay)
            var i = 0
            while i &+ 4 <= count {
                for k in 0..<4 {
                    let (x0, ax) = Self.floorAndWeight(toImage.apply(CGFloat(x &+ i &+ k) + 0.5, py).x * sx - 0.5)
                    taps.gather(k, top, bottom, I.index(x0, w), I.index(x0 + 1, w), ax)
                }
                taps.store(to: out + i)
                i &+= 4
            }
            while i < count {
                let (x0, ax) = Self.floorAndWeight(toImage.apply(CGFloat(x + i) + 0.5, py).x * sx - 0.5)
                let ix0 = I.index(x0, w), ix1 = I.index(x0 + 1, w)
                out[i] = Pixel.lerp(Pixel.lerp(top[ix0], top[ix1], ax), Pixel.lerp(bottom[ix0], bottom[ix1], ax), ay)
                i &+= 1
            }
            return
        }
        for i in 0..<count {
            let p = toImage.apply(CGFloat(x + i) + 0.5, py)
            let (x0, ax) = Self.floorAndWeight(p.x * sx - 0.5), (y0, ay) = Self.floorAndWeight(p.y * sy - 0.5)
            let ix0 = I.index(x0, w), ix1 = I.index(x0 + 1, w)
            let top = pixels + I.index(y0, h) * w, bottom = pixels + I.index(y0 + 1, h) * w
            out[i] = Pixel.lerp(Pixel.lerp(top[ix0], top[ix1], ax), Pixel.lerp(bottom[ix0], bottom[ix1], ax), ay)
        }
    }

    @inline(__always)
    private func stepNearest<I: ImageIndex>(_ level: SampledLevel, _ step: ExactStep, _ count: Int,
                                            _ out: UnsafeMutablePointer<UInt32>, _: I.Type) {
        let w = level.width, h = level.height, pixels = level.pixels
        var u = step.u, v = step.v
        if step.dv == 0 {
            let row = pixels + I.index(ExactStep.integer(v), h) * w
            let first = ExactStep.integer(u)
            if step.du == ExactStep.unit, first >= 0, first <= w &- count {
                // One image pixel per device pixel, all inside the row: a copy (cached view
                // contents put back into a frame, a 1× image at 1×).
                out.update(from: row + first, count: count)
                return
            }
            for i in 0..<count {
                out[i] = row[I.index(ExactStep.integer(u), w)]
                u &+= step.du
            }
            return
        }
        for i in 0..<count {
            out[i] = pixels[I.index(ExactStep.integer(u), w) + I.index(ExactStep.integer(v), h) * w]
            u &+= step.du
            v &+= step.dv
        }
    }

    @inline(__always)
    private func stepBilinear<I: ImageIndex>(_ level: SampledLevel, _ step: ExactStep, _ count: Int,
                                             _ out: UnsafeMutablePointer<UInt32>, _: I.Type) {
        let w = level.width, h = level.height, pixels = level.pixels
        var u = step.u, v = step.v
        if step.dv == 0 {
            let y0 = ExactStep.integer(v), ay = ExactStep.weight(v)
            let top = pixels + I.index(y0, h) * w, bottom = pixels + I.index(y0 + 1, h) * w
            if ay == 0 {
                for i in 0..<count {
                    let x0 = ExactStep.integer(u), ax = ExactStep.weight(u)
                    out[i] = Pixel.lerp(top[I.index(x0, w)], top[I.index(x0 + 1, w)], ax)
                    u &+= step.du
                }
                return
            }
            var taps = FourTaps(ay)
            var i = 0
            while i &+ 4 <= count {
                for k in 0..<4 {
                    let x0 = ExactStep.integer(u)
                    taps.gather(k, top, bottom, I.index(x0, w), I.index(x0 + 1, w), ExactStep.weight(u))
                    u &+= step.du
                }
                taps.store(to: out + i)
                i &+= 4
            }
            while i < count {
                let x0 = ExactStep.integer(u), ax = ExactStep.weight(u)
                let ix0 = I.index(x0, w), ix1 = I.index(x0 + 1, w)
                out[i] = Pixel.lerp(Pixel.lerp(top[ix0], top[ix1], ax), Pixel.lerp(bottom[ix0], bottom[ix1], ax), ay)
                u &+= step.du
                i &+= 1
            }
            return
        }
        for i in 0..<count {
            let x0 = ExactStep.integer(u), ax = ExactStep.weight(u)
            let y0 = ExactStep.integer(v), ay = ExactStep.weight(v)
            let ix0 = I.index(x0, w), ix1 = I.index(x0 + 1, w)
            let top = pixels + I.index(y0, h) * w, bottom = pixels + I.index(y0 + 1, h) * w
            out[i] = Pixel.lerp(Pixel.lerp(top[ix0], top[ix1], ax), Pixel.lerp(bottom[ix0], bottom[ix1], ax), ay)
            u &+= step.du
            v &+= step.dv
        }
    }

    /// ⌊f⌋ for |f| < 2⁵², exactly `Int(f.rounded(.down))`, from a truncating conversion.
    @inline(__always)
    static func floor(_ f: CGFloat) -> Int {
        let i = Int(f)
        return CGFloat(i) > f ? i - 1 : i
    }

    /// ⌊f⌋ and the bilinear weight `((f − ⌊f⌋) · 255).rounded()` (halves away from zero),
    /// bit for bit, for |f| < 2⁵².
    @inline(__always)
    static func floorAndWeight(_ f: CGFloat) -> (Int, UInt32) {
        let i = floor(f)
        let v = (f - CGFloat(i)) * 255
        let r = Int(v)
        return (i, UInt32(truncatingIfNeeded: v - CGFloat(r) >= 0.5 ? r + 1 : r))
    }

    /// The per-pixel path: each pixel centre through the transform in Double.
    private func samplePixels(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let py = CGFloat(y) + 0.5
        for i in 0..<count {
            let p = toImage.apply(CGFloat(x + i) + 0.5, py)
            var s = samplePixel(primary, p.x, p.y)
            if let secondary, secondaryWeight > 0 {
                s = Pixel.lerp(s, samplePixel(secondary, p.x, p.y), secondaryWeight)
            }
            out[i] = s
        }
    }

    /// The per-pixel sampler: level coordinates (u0, v0) in image pixels, before the level's
    /// scale. The span loops must agree with it bit for bit (ImageTests checks them against it).
    @inline(__always)
    func samplePixel(_ level: SampledLevel, _ u0: CGFloat, _ v0: CGFloat) -> UInt32 {
        guard u0.isFinite, v0.isFinite else { return 0 }
        // Far outside the image every coordinate samples the same edge (or an arbitrary tile):
        // clamping keeps the Int conversions below from trapping.
        let limit: CGFloat = 1_099_511_627_776  // 2⁴⁰
        let u = min(max(u0 * level.scaleX, -limit), limit), v = min(max(v0 * level.scaleY, -limit), limit)
        if nearest {
            return level.pixels[index(Int(u.rounded(.down)), level.width) + index(Int(v.rounded(.down)), level.height) * level.width]
        }
        let fu = u - 0.5, fv = v - 0.5
        let x0 = fu.rounded(.down), y0 = fv.rounded(.down)
        let ax = UInt32(((fu - x0) * 255).rounded()), ay = UInt32(((fv - y0) * 255).rounded())
        let ix0 = index(Int(x0), level.width), ix1 = index(Int(x0) + 1, level.width)
        let iy0 = index(Int(y0), level.height) * level.width, iy1 = index(Int(y0) + 1, level.height) * level.width
        let top = Pixel.lerp(level.pixels[iy0 + ix0], level.pixels[iy0 + ix1], ax)
        let bottom = Pixel.lerp(level.pixels[iy1 + ix0], level.pixels[iy1 + ix1], ax)
        return Pixel.lerp(top, bottom, ay)
    }

    /// A coordinate clamped to the image, or wrapped when tiling.
    @inline(__always)
    private func index(_ i: Int, _ n: Int) -> Int {
        tiled ? WrappedIndex.index(i, n) : ClampedIndex.index(i, n)
    }
}

/// A span's level coordinates in 24.40 fixed point — the first pixel's and the step per pixel —
/// when they are exact: the transform is dyadic (`isDyadic`), the level scale a power of two
/// (2⁰ … 2⁻¹⁴), and every coordinate along the span below 2²² px. Then each Double operation of
/// the per-pixel expression `(a·X + c·Y + tx)·scale − ½` is exact (X, Y multiples of ½ below
/// 2¹⁶: products are multiples of 2⁻¹⁷ below 2²⁶, sums below 2²⁸, all within 45 bits; the
/// scaled result, a multiple of 2⁻³¹ below 2²², within 53), and 40 fraction bits hold it:
/// stepping, flooring and the weight `round(frac · 255)` (exact in both; halves round up) agree
/// with the Double path bit for bit.
struct ExactStep {
    var u: Int64, v: Int64
    let du: Int64, dv: Int64

    static let fractionBits: Int64 = 40
    static let one: CGFloat = 1_099_511_627_776   // 2⁴⁰
    /// One pixel in fixed point.
    static let unit: Int64 = 1 << 40

    /// Whether every coefficient is a multiple of 2⁻¹⁶, the linear ones below 2¹⁰ and the
    /// translations below 2²⁴ in magnitude.
    static func isDyadic(_ t: CGAffineTransform) -> Bool {
        func dyadic(_ v: CGFloat, below limit: CGFloat) -> Bool {
            let scaled = v * 65_536
            return abs(v) < limit && scaled == scaled.rounded()
        }
        return dyadic(t.a, below: 1024) && dyadic(t.b, below: 1024) && dyadic(t.c, below: 1024) && dyadic(t.d, below: 1024)
            && dyadic(t.tx, below: 16_777_216) && dyadic(t.ty, below: 16_777_216)
    }

    /// The span of `count` pixels from (x, y) in `level` for a dyadic transform; nil when the
    /// stepping would not be exact. `centred` subtracts the half pixel that puts pixel centres
    /// at integers (bilinear filtering).
    init?(_ level: SampledLevel, _ t: CGAffineTransform, x: Int, y: Int, count: Int, centred: Bool) {
        func isPowerOfTwo(_ s: CGFloat) -> Bool { s > 0 && s <= 1 && s.significand == 1 && s.exponent >= -14 }
        guard isPowerOfTwo(level.scaleX), isPowerOfTwo(level.scaleY),
              abs(x) < 32_768, abs(y) < 32_768, count < 32_768 else { return nil }
        let py = CGFloat(y) + 0.5
        let p = t.apply(CGFloat(x) + 0.5, py), q = t.apply(CGFloat(x + count - 1) + 0.5, py)
        let bias: CGFloat = centred ? 0.5 : 0
        let u0 = p.x * level.scaleX - bias, v0 = p.y * level.scaleY - bias
        let u1 = q.x * level.scaleX - bias, v1 = q.y * level.scaleY - bias
        let limit: CGFloat = 4_194_304   // 2²²
        guard abs(u0) < limit, abs(v0) < limit, abs(u1) < limit, abs(v1) < limit else { return nil }
        u = Int64(u0 * ExactStep.one)
        v = Int64(v0 * ExactStep.one)
        du = Int64(t.a * level.scaleX * ExactStep.one)
        dv = Int64(t.b * level.scaleY * ExactStep.one)
    }

    /// ⌊c⌋ of a fixed-point coordinate.
    @inline(__always)
    static func integer(_ c: Int64) -> Int { Int(truncatingIfNeeded: c >> fractionBits) }

    /// The fraction of a fixed-point coordinate as a weight 0…255, rounded half up.
    @inline(__always)
    static func weight(_ c: Int64) -> UInt32 {
        let fraction = UInt64(bitPattern: c) & ((1 << 40) - 1)
        return UInt32(truncatingIfNeeded: (fraction &* 255 &+ (1 << 39)) >> 40)
    }
}

/// Four bilinear samples between the same two source rows, blended together: the taps gathered
/// lane by lane, then the three `Pixel.lerp`s of each sample done for all four in 16-bit lanes
/// (`Lanes.scale`), the same rounding bit for bit.
struct FourTaps {
    private var topLeft = SIMD4<UInt32>(), topRight = SIMD4<UInt32>()
    private var bottomLeft = SIMD4<UInt32>(), bottomRight = SIMD4<UInt32>()
    private var across = SIMD4<UInt32>()
    private let down: SIMD4<UInt32>

    /// Samples whose vertical weight is `ay`.
    @inline(__always)
    init(_ ay: UInt32) { down = SIMD4(repeating: ay) }

    /// Lane `k`: columns `ix0` and `ix1` of both rows, horizontal weight `ax`.
    @inline(__always)
    mutating func gather(_ k: Int, _ top: UnsafePointer<UInt32>, _ bottom: UnsafePointer<UInt32>, _ ix0: Int, _ ix1: Int, _ ax: UInt32) {
        topLeft[k] = top[ix0]
        topRight[k] = top[ix1]
        bottomLeft[k] = bottom[ix0]
        bottomRight[k] = bottom[ix1]
        across[k] = ax
    }

    /// The four samples.
    @inline(__always)
    func store(to out: UnsafeMutablePointer<UInt32>) {
        Lanes.store(Self.lerp(Self.lerp(topLeft, topRight, across), Self.lerp(bottomLeft, bottomRight, across), down), to: out)
    }

    /// `Pixel.lerp` lane by lane: `src·f + dst·(255 − f)`, each product rounded as `Pixel.scale`.
    @inline(__always)
    static func lerp(_ dst: SIMD4<UInt32>, _ src: SIMD4<UInt32>, _ f: SIMD4<UInt32>) -> SIMD4<UInt32> {
        Lanes.scale(src, by: f) &+ Lanes.scale(dst, by: 255 &- f)
    }
}

/// How a pixel index outside `0..<n` is brought inside.
protocol ImageIndex {
    static func index(_ i: Int, _ n: Int) -> Int
}

/// Clamped to the edge pixels.
enum ClampedIndex: ImageIndex {
    @inline(__always)
    static func index(_ i: Int, _ n: Int) -> Int { min(max(i, 0), n - 1) }
}

/// Wrapped around (tiling).
enum WrappedIndex: ImageIndex {
    @inline(__always)
    static func index(_ i: Int, _ n: Int) -> Int {
        if UInt(bitPattern: i) < UInt(n) { return i }
        let m = i % n
        return m < 0 ? m + n : m
    }
}

extension CGImage {
    /// Luminance × alpha of a premultiplied pixel, 0…255 (premultiplied colours already carry alpha).
    @inline(__always)
    static func luminanceAlpha(_ p: UInt32) -> UInt32 {
        let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
        return (299 * r + 587 * g + 114 * b + 500) / 1000
    }
}
