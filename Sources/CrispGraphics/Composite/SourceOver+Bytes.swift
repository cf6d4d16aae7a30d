// Source-over of one colour into one-byte layouts (grey 8, alpha 8), sixteen pixels a step.
//
// The general path for these layouts loads each span into native pixels, blends there and
// stores the grey level or the alpha back: three passes over the span, 1.5–2.3× the native
// layout's time on translucent rectangles. For a solid colour under source-over the three
// passes fold into one formula on the byte itself. With `s′` the colour scaled by the
// coverage and `t = d·(255 − α(s′))/255` (the exact rounded division), the native blend of the
// loaded pixel gives every channel `s′ + t`; alpha 8 stores `α(s′) + t`, and grey 8 stores
// `luma(s′) + t`, because the loaded grey pixel has r = g = b = d and luma's weights sum to
// 256, so `luma(s′ + t·(1,1,1)) = luma(s′) + t` bit for bit. Neither sum passes 255 (a
// premultiplied colour's luma is at most its alpha), so the bytes are the general path's
// exactly; `InPlaceKernelTests` checks them against it at every coverage.
//
// Sixteen bytes are one `SIMD8<UInt16>`: the even bytes (`& 0xFF`) and the odd bytes (`>> 8`)
// are two sets of 16-bit lanes, blended apart and put back together, as `Lanes.scale` does for
// channels. Rejected: widening bytes with `init(truncatingIfNeeded:)` between vector widths,
// an outlined call on this target (see SourceOver+Lanes.swift).

extension SourceOver {
    /// One colour at one coverage (1…255) into grey levels (`grey`) or alpha bytes.
    static func blendByteSpan(_ row: UnsafeMutablePointer<UInt8>, count: Int, source s: UInt32, grey: Bool,
                              coverage c: UInt32) {
        let (value, inverse) = ByteOver.factors(s, grey: grey, coverage: c)
        blendByteSpan(row, count: count, value: value, inverse: inverse)
    }

    /// Every byte `d` of the span becomes `value + d·inverse/255` (the colour scaled by the
    /// coverage, as a grey level or an alpha, and 255 minus its alpha): a store when nothing of
    /// the destination shows through.
    @inline(never)
    static func blendByteSpan(_ row: UnsafeMutablePointer<UInt8>, count: Int, value: UInt32, inverse: UInt32) {
        if inverse == 0 {
            row.update(repeating: UInt8(truncatingIfNeeded: value), count: count)
            return
        }
        let v = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: value))
        let f = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: inverse))
        // A span of eight bytes or more ends with one step over its last eight, blended from
        // those bytes as they were before the loop (which may have written some of them: they
        // get the same values again), not with up to seven bytes one at a time: a 16-pixel
        // rectangle's rows are fifteen-byte spans (`crisp bench raster --layouts`).
        let overlapsTail = count >= 8 && count & 7 != 0
        let tail = overlapsTail ? ByteLanes.load8(row + (count &- 8)) : SIMD8<UInt16>()
        var i = 0
        while i &+ 16 <= count {
            let d = ByteLanes.load16(row + i)
            ByteLanes.store16(ByteLanes.join(v &+ ByteLanes.scale(ByteLanes.even(d), by: f),
                                             v &+ ByteLanes.scale(ByteLanes.odd(d), by: f)), to: row + i)
            i &+= 16
        }
        if i &+ 8 <= count {
            let d = ByteLanes.load8(row + i)
            ByteLanes.store8(ByteLanes.join(v &+ ByteLanes.scale(ByteLanes.even(d), by: f),
                                            v &+ ByteLanes.scale(ByteLanes.odd(d), by: f)), to: row + i)
            i &+= 8
        }
        if overlapsTail {
            ByteLanes.store8(ByteLanes.join(v &+ ByteLanes.scale(ByteLanes.even(tail), by: f),
                                            v &+ ByteLanes.scale(ByteLanes.odd(tail), by: f)), to: row + (count &- 8))
            return
        }
        ByteOver.blendShort(row, count: count &- i, value: value, inverse: inverse)
    }

    /// One colour with a coverage row into grey levels (`grey`) or alpha bytes; sixteen fully
    /// covered pixels of an opaque colour are a store, sixteen uncovered ones are skipped.
    static func blendByteSpan(_ row: UnsafeMutablePointer<UInt8>, count: Int, source s: UInt32, grey: Bool,
                              coverage: UnsafePointer<UInt8>) {
        if grey {
            blendByteSpan(row, count: count, source: s, luma: true, coverage: coverage)
        } else {
            blendByteSpan(row, count: count, source: s, luma: false, coverage: coverage)
        }
    }

    /// `blendByteSpan` with a coverage row, compiled once for grey and once for alpha.
    @inline(__always)
    private static func blendByteSpan(_ row: UnsafeMutablePointer<UInt8>, count: Int, source s: UInt32, luma: Bool,
                                      coverage: UnsafePointer<UInt8>) {
        let color = ByteLanes.Color(s)
        let opaque = s >> 24 == 255
        let full = UInt8(truncatingIfNeeded: luma ? PixelLayout.luminance(s) : s >> 24)
        var i = 0
        while i &+ 16 <= count {
            let low = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt64.self)
            let high = UnsafeRawPointer(coverage + i).loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            if low & high == UInt64.max && opaque {
                (row + i).update(repeating: full, count: 16)
            } else if low | high != 0 {
                let d = ByteLanes.load16(row + i), c = ByteLanes.load16(coverage + i)
                ByteLanes.store16(ByteLanes.join(color.over(ByteLanes.even(d), coverage: ByteLanes.even(c), luma: luma),
                                                 color.over(ByteLanes.odd(d), coverage: ByteLanes.odd(c), luma: luma)),
                                  to: row + i)
            }
            i &+= 16
        }
        while i < count {
            let c = UInt32(coverage[i])
            if c != 0 {
                let scaled = Pixel.scale(s, by: c)
                let value = luma ? PixelLayout.luminance(scaled) : scaled >> 24
                row[i] = UInt8(truncatingIfNeeded: value &+ ByteLanes.scale(UInt32(row[i]), by: 255 &- (scaled >> 24)))
            }
            i &+= 1
        }
    }
}

/// A solid colour under source-over into grey 8 or alpha 8 memory with no clip mask: a span a
/// producer emits reaches it in one call (`CompositeBlitter.directSpan`, `directMask`), past
/// the blitter's layout dispatch; the factors at full coverage (an interior span's) are computed
/// once a fill, and a span of fewer than eight bytes (a rectangle's or an outline's edge pixel)
/// is blended on the spot. With the factors recomputed and two calls a span, translucent
/// 16-pixel rectangles took 1.6× the native layout's time (`crisp bench raster --layouts
/// --layout "grey 8"`), much of it before the first byte: the chain colour × coverage → luma →
/// broadcast.
struct ByteOver {
    /// The first byte of raster row 0.
    let bytes: UnsafeMutablePointer<UInt8>
    /// Bytes from one row to the next.
    let bytesPerRow: Int
    /// The premultiplied native colour.
    let source: UInt32
    /// Whether the bytes are grey levels (else alpha).
    let grey: Bool
    /// `factors` at coverage 255.
    let fullValue: UInt32, fullInverse: UInt32

    init(bytes: UnsafeMutablePointer<UInt8>, bytesPerRow: Int, source: UInt32, grey: Bool) {
        self.bytes = bytes
        self.bytesPerRow = bytesPerRow
        self.source = source
        self.grey = grey
        (fullValue, fullInverse) = Self.factors(source, grey: grey, coverage: 255)
    }

    /// The colour at coverage `c` as the byte it adds (its grey level or alpha) and the factor
    /// (255 − its alpha) the destination byte keeps.
    @inline(__always)
    static func factors(_ s: UInt32, grey: Bool, coverage c: UInt32) -> (value: UInt32, inverse: UInt32) {
        let scaled = Pixel.scale(s, by: c)
        return (grey ? PixelLayout.luminance(scaled) : scaled >> 24, 255 &- (scaled >> 24))
    }

    /// Pixels `x..<x+count` of row `y` at one coverage (1…255).
    @inline(__always)
    func blend(x: Int, y: Int, count: Int, coverage: UInt8) {
        let row = bytes + (y &* bytesPerRow &+ x)
        let (value, inverse) = coverage == 255 ? (fullValue, fullInverse)
                                               : Self.factors(source, grey: grey, coverage: UInt32(coverage))
        if count < 8 {
            Self.blendShort(row, count: count, value: value, inverse: inverse)
        } else {
            SourceOver.blendByteSpan(row, count: count, value: value, inverse: inverse)
        }
    }

    /// Pixels `x..<x+count` of row `y` with a coverage byte each.
    @inline(__always)
    func blend(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        SourceOver.blendByteSpan(bytes + (y &* bytesPerRow &+ x), count: count, source: source, grey: grey, coverage: coverage)
    }

    /// `blendByteSpan` one byte at a time, for a span of fewer than eight bytes.
    @inline(__always)
    static func blendShort(_ row: UnsafeMutablePointer<UInt8>, count: Int, value: UInt32, inverse: UInt32) {
        var i = 0
        while i < count {
            row[i] = UInt8(truncatingIfNeeded: value &+ ByteLanes.scale(UInt32(row[i]), by: inverse))
            i &+= 1
        }
    }
}

/// Sixteen (or eight) bytes at a time as two sets of 16-bit lanes.
enum ByteLanes {
    /// A native colour's channels, each in every lane.
    struct Color {
        let alpha: SIMD8<UInt16>, red: SIMD8<UInt16>, green: SIMD8<UInt16>, blue: SIMD8<UInt16>

        @inline(__always)
        init(_ s: UInt32) {
            func lane(_ channel: UInt32) -> SIMD8<UInt16> { SIMD8(repeating: UInt16(truncatingIfNeeded: channel & 255)) }
            (alpha, red, green, blue) = (lane(s >> 24), lane(s >> 16), lane(s >> 8), lane(s))
        }

        /// Each lane's byte `d` after the colour at that lane's coverage, as a grey level
        /// (`luma`) or an alpha: the scalar tail of `blendByteSpan`, lane by lane.
        @inline(__always)
        func over(_ d: SIMD8<UInt16>, coverage c: SIMD8<UInt16>, luma: Bool) -> SIMD8<UInt16> {
            let a = scale(alpha, by: c)
            var value = a
            if luma {
                value = (scale(red, by: c) &* 77 &+ scale(green, by: c) &* 150 &+ scale(blue, by: c) &* 29 &+ 128) &>> 8
            }
            return value &+ scale(d, by: 255 &- a)
        }
    }

    @inline(__always)
    static func load16(_ p: UnsafePointer<UInt8>) -> SIMD8<UInt16> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt16>.self)
    }

    @inline(__always)
    static func load16(_ p: UnsafeMutablePointer<UInt8>) -> SIMD8<UInt16> { load16(UnsafePointer(p)) }

    @inline(__always)
    static func store16(_ v: SIMD8<UInt16>, to p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<UInt16>.self)
    }

    /// Eight bytes in the low half; the high half is zero.
    @inline(__always)
    static func load8(_ p: UnsafeMutablePointer<UInt8>) -> SIMD8<UInt16> {
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
        return unsafeBitCast(SIMD2<UInt64>(word, 0), to: SIMD8<UInt16>.self)
    }

    /// Stores the low eight bytes.
    @inline(__always)
    static func store8(_ v: SIMD8<UInt16>, to p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: unsafeBitCast(v, to: SIMD2<UInt64>.self)[0], as: UInt64.self)
    }

    /// The even bytes (0, 2, 4, …) as lanes.
    @inline(__always)
    static func even(_ v: SIMD8<UInt16>) -> SIMD8<UInt16> { v & 0xFF }

    /// The odd bytes (1, 3, 5, …) as lanes.
    @inline(__always)
    static func odd(_ v: SIMD8<UInt16>) -> SIMD8<UInt16> { v &>> 8 }

    /// Even and odd lanes (each 0…255) back into bytes.
    @inline(__always)
    static func join(_ even: SIMD8<UInt16>, _ odd: SIMD8<UInt16>) -> SIMD8<UInt16> { even | odd &<< 8 }

    /// `v·f/255` in each lane (both 0…255), rounded exactly: `Pixel.scale` of one channel.
    @inline(__always)
    static func scale(_ v: SIMD8<UInt16>, by f: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let x = v &* f &+ 128
        return (x &+ x &>> 8) &>> 8
    }

    /// `v·f/255` (both 0…255), rounded exactly.
    @inline(__always)
    static func scale(_ v: UInt32, by f: UInt32) -> UInt32 {
        let x = v &* f &+ 128
        return (x &+ x >> 8) >> 8
    }
}
