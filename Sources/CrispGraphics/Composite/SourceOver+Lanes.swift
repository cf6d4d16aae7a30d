// Source-over, the blend mode nearly every fill uses, four pixels a step.
//
// Four premultiplied pixels are one `SIMD4<UInt32>` (an SSE2 register). `Pixel.scale` splits a
// pixel into red+blue and alpha+green, each channel in its own 16-bit half; reinterpreted as
// `SIMD8<UInt16>`, those halves are lanes, so one `pmullw` multiplies two channels of four
// pixels at once, and the exact rounded division by 255, `(v + 128 + ((v + 128) >> 8)) >> 8`,
// stays inside 16 bits (at most 65407): lane for lane the scalar formula, bit for bit. The final
// `S′ + D·(1 − αS′)` is a 32-bit add, as the scalar code adds its packed words, so even a pixel
// whose colour exceeds its alpha (caller memory may hold one) comes out the same.
// `CompositePipelineTests` checks the kernels against the formula at every coverage.
//
// Where the CPU has AVX2, each kernel hands its span to the C kernel of the same name and
// meaning, eight pixels a step (CCrispKernels, `KernelDispatch`); these loops are the fallback,
// and `KernelDispatchTests` holds the two to the same bits.
//
// Rejected: widening bytes into `SIMD16<UInt16>` lanes (`init(truncatingIfNeeded:)` between
// vector widths is an outlined call across modules: 85 % of the kernel's time in a profile);
// `SIMD8<Float>` arithmetic (float clamps and conversions are outlined on this target); leaving
// the coverage-row and shaded-row loops to the auto-vectorizer (they stay scalar: a branch and
// a packed-word multiply pair per pixel, which profiles of the demo's frames put first).

import CCrispKernels

extension SourceOver {
    /// One colour at one coverage (1…255): the source is scaled once, then each pixel is one
    /// multiply-add.
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32, coverage c: UInt32) {
        if KernelDispatch.usesAVX2(count) { return crisp_over_color_avx2(row, count, s, c, 24, 0) }
        let scaled = Pixel.scale(s, by: c)
        blendSpan(row, count: count, scaled: scaled, inverse: 255 &- (scaled >> 24), setting: 0)
    }

    /// `(scaled + row·inverse/255) | bits` on each pixel: source-over of an already scaled
    /// colour whose alpha gave `inverse` (`bits`: a skipped byte set to 255, or 0).
    @inline(never)
    private static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, scaled: UInt32, inverse: UInt32,
                                  setting bits: UInt32) {
        let source = SIMD4<UInt32>(repeating: scaled), factor = SIMD4<UInt32>(repeating: inverse)
        let set = SIMD4<UInt32>(repeating: bits)
        var i = 0
        // Eight pixels a step (two registers): the loop's own bookkeeping is a fifth of a
        // four-pixel step's instructions.
        while i &+ 8 <= count {
            Lanes.store(source &+ Lanes.scale(Lanes.load(row + i), by: factor) | set, to: row + i)
            Lanes.store(source &+ Lanes.scale(Lanes.load(row + (i &+ 4)), by: factor) | set, to: row + (i &+ 4))
            i &+= 8
        }
        if i &+ 4 <= count {
            Lanes.store(source &+ Lanes.scale(Lanes.load(row + i), by: factor) | set, to: row + i)
            i &+= 4
        }
        while i < count {
            row[i] = scaled &+ Pixel.scale(row[i], by: inverse) | bits
            i &+= 1
        }
    }

    /// One colour with a coverage row.
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32,
                          coverage: UnsafePointer<UInt8>) {
        if KernelDispatch.usesAVX2(count) { return crisp_over_color_coverage_avx2(row, count, s, coverage, 24, 0) }
        lanesSpan(row, count: count, source: s, coverage: coverage)
    }

    /// One colour with a coverage row, four pixels a step; fully covered opaque steps store.
    @inline(never)
    private static func lanesSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32,
                                  coverage: UnsafePointer<UInt8>) {
        let opaque = s >> 24 == 255
        let source = SIMD4<UInt32>(repeating: s)
        var i = 0
        while i &+ 4 <= count {
            let cw = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt32.self)
            if cw == UInt32.max && opaque {
                Lanes.store(source, to: row + i)
            } else if cw != 0 {
                let scaled = Lanes.scale(source, by: Lanes.spread(cw))
                Lanes.store(Lanes.over(scaled, Lanes.load(row + i)), to: row + i)
            }
            i &+= 4
        }
        while i < count {
            let c = UInt32(coverage[i])
            if c != 0 { row[i] = blend(s, row[i], coverage: c) }
            i &+= 1
        }
    }

    /// A shaded row at one coverage (1…255).
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, sources: UnsafePointer<UInt32>,
                          coverage c: UInt32) {
        if KernelDispatch.usesAVX2(count) { return crisp_over_row_avx2(row, count, sources, c) }
        lanesSpan(row, count: count, sources: sources, coverage: c)
    }

    /// A shaded row at one coverage, four pixels a step.
    @inline(never)
    private static func lanesSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, sources: UnsafePointer<UInt32>,
                                  coverage c: UInt32) {
        var i = 0
        if c == 255 {
            while i &+ 4 <= count {
                Lanes.store(Lanes.over(Lanes.load(sources + i), Lanes.load(row + i)), to: row + i)
                i &+= 4
            }
        } else {
            let factor = SIMD4<UInt32>(repeating: c)
            while i &+ 4 <= count {
                let scaled = Lanes.scale(Lanes.load(sources + i), by: factor)
                Lanes.store(Lanes.over(scaled, Lanes.load(row + i)), to: row + i)
                i &+= 4
            }
        }
        while i < count {
            row[i] = blend(sources[i], row[i], coverage: c)
            i &+= 1
        }
    }

    /// A shaded row with a coverage row.
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, sources: UnsafePointer<UInt32>,
                          coverage: UnsafePointer<UInt8>) {
        if KernelDispatch.usesAVX2(count) { return crisp_over_row_coverage_avx2(row, count, sources, coverage) }
        lanesSpan(row, count: count, sources: sources, coverage: coverage)
    }

    /// A shaded row with a coverage row, four pixels a step.
    @inline(never)
    private static func lanesSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, sources: UnsafePointer<UInt32>,
                                  coverage: UnsafePointer<UInt8>) {
        var i = 0
        while i &+ 4 <= count {
            let cw = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt32.self)
            if cw != 0 {
                let scaled = Lanes.scale(Lanes.load(sources + i), by: Lanes.spread(cw))
                Lanes.store(Lanes.over(scaled, Lanes.load(row + i)), to: row + i)
            }
            i &+= 4
        }
        while i < count {
            let c = UInt32(coverage[i])
            if c != 0 { row[i] = blend(sources[i], row[i], coverage: c) }
            i &+= 1
        }
    }
}

extension SourceOver {
    /// One colour at one coverage (1…255) straight into the words of another 32-bit layout:
    /// `source` is in the layout's channel order, its alpha the low byte when `alphaFirst`
    /// (ARGB, ABGR, XRGB, XBGR in memory), else the top byte (RGBA, RGBX); `skipped` is the
    /// skipped byte's mask, set to 255 in every pixel of the span, or 0 when alpha is kept.
    /// Source-over is the same sum on every channel, with the factor read from the alpha byte
    /// wherever it sits, so the native loop blends these words once the factor comes from the
    /// right byte. (Turning each word to put alpha on top, as before, cost a rotate per word
    /// that SSE2 lacks: LLVM moved every word through a general register and back, and those
    /// layouts ran 1.5–2.9× native; the skipped byte was a second pass over the span.)
    static func blendQuadSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32, coverage c: UInt32,
                              alphaFirst: Bool, skipped: UInt32) {
        if KernelDispatch.usesAVX2(count) {
            return crisp_over_color_avx2(row, count, s, c, alphaFirst ? 0 : 24, skipped)
        }
        let scaled = Pixel.scale(s, by: c)
        blendSpan(row, count: count, scaled: scaled, inverse: 255 &- (alphaFirst ? scaled & 0xFF : scaled >> 24),
                  setting: skipped)
    }

    /// One colour with a coverage row straight into another 32-bit layout's words (see above).
    static func blendQuadSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32,
                              coverage: UnsafePointer<UInt8>, alphaFirst: Bool, skipped: UInt32) {
        if KernelDispatch.usesAVX2(count) {
            return crisp_over_color_coverage_avx2(row, count, s, coverage, alphaFirst ? 0 : 24, skipped)
        }
        if alphaFirst {
            blendQuadSpan(row, count: count, source: s, coverage: coverage, alphaShift: 0, skipped: skipped)
        } else {
            blendQuadSpan(row, count: count, source: s, coverage: coverage, alphaShift: 24, skipped: skipped)
        }
    }

    /// `blendQuadSpan` with a coverage row, compiled once for each place of alpha. Uncovered
    /// pixels are skipped only when no skipped byte needs setting.
    @inline(__always)
    private static func blendQuadSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32,
                                      coverage: UnsafePointer<UInt8>, alphaShift: UInt32, skipped: UInt32) {
        let opaque = (s >> alphaShift) & 0xFF == 255
        let source = SIMD4<UInt32>(repeating: s), set = SIMD4<UInt32>(repeating: skipped)
        let touchesAll = skipped != 0
        var i = 0
        while i &+ 4 <= count {
            let cw = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt32.self)
            if cw == UInt32.max && opaque {
                Lanes.store(source | set, to: row + i)
            } else if cw != 0 || touchesAll {
                let scaled = Lanes.scale(source, by: Lanes.spread(cw))
                let inverse = 255 &- ((scaled &>> alphaShift) & 0xFF)
                Lanes.store(scaled &+ Lanes.scale(Lanes.load(row + i), by: inverse) | set, to: row + i)
            }
            i &+= 4
        }
        while i < count {
            let c = UInt32(coverage[i])
            if c != 0 || touchesAll {
                let scaled = Pixel.scale(s, by: c)
                row[i] = scaled &+ Pixel.scale(row[i], by: 255 &- ((scaled >> alphaShift) & 0xFF)) | skipped
            }
            i &+= 1
        }
    }
}

/// Four premultiplied pixels at a time, in the scalar formulas' own packed form.
enum Lanes {
    @inline(__always)
    static func load(_ p: UnsafePointer<UInt32>) -> SIMD4<UInt32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt32>.self)
    }

    @inline(__always)
    static func load(_ p: UnsafeMutablePointer<UInt32>) -> SIMD4<UInt32> { load(UnsafePointer(p)) }

    @inline(__always)
    static func store(_ v: SIMD4<UInt32>, to p: UnsafeMutablePointer<UInt32>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<UInt32>.self)
    }

    @inline(__always)
    private static func halves(_ v: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(v, to: SIMD8<UInt16>.self) }

    @inline(__always)
    private static func words(_ v: SIMD8<UInt16>) -> SIMD4<UInt32> { unsafeBitCast(v, to: SIMD4<UInt32>.self) }

    /// `Pixel.scale` of each pixel by its factor (0…255): every channel times the factor / 255,
    /// rounded exactly.
    @inline(__always)
    static func scale(_ p: SIMD4<UInt32>, by f: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let factor = halves(f | (f &<< 16))
        var rb = halves(p & 0x00FF_00FF) &* factor &+ 128
        rb = (rb &+ (rb &>> 8)) &>> 8
        var ag = halves((p &>> 8) & 0x00FF_00FF) &* factor &+ 128
        ag = (ag &+ (ag &>> 8)) &>> 8
        return words(rb) | (words(ag) &<< 8)
    }

    /// Four coverage bytes (little-endian in `word`), one per pixel.
    @inline(__always)
    static func spread(_ word: UInt32) -> SIMD4<UInt32> {
        SIMD4<UInt32>(word & 0xFF, (word >> 8) & 0xFF, (word >> 16) & 0xFF, word >> 24)
    }

    /// `Pixel.sourceOver` of already scaled sources onto four destination pixels.
    @inline(__always)
    static func over(_ source: SIMD4<UInt32>, _ destination: SIMD4<UInt32>) -> SIMD4<UInt32> {
        source &+ scale(destination, by: 255 &- (source &>> 24))
    }
}
