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
        let scaled = Pixel.scale(s, by: c)
        let value = grey ? PixelLayout.luminance(scaled) : scaled >> 24
        let inverse = 255 &- (scaled >> 24)
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
        while i < count {
            row[i] = UInt8(truncatingIfNeeded: value &+ ByteLanes.scale(UInt32(row[i]), by: inverse))
            i &+= 1
        }
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
