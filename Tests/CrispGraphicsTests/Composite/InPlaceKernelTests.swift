import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// The kernels that blend a solid colour straight into another layout's memory, against the
/// path they shortcut: load the pixel as native, source-over at that coverage, store it back.
@Suite struct InPlaceKernelTests {
    /// Colours the kernels meet: transparent, opaque, colour = alpha, grey, translucent.
    static let colors: [UInt32] = [0, 0xFF00_0000, 0xFFFF_FFFF, 0xFF10_2030, 0x8040_2010, 0x8080_8080, 0x7F00_7F3C,
                                   0x0101_0001, 0xFE00_FE00, 0x4D4D_4D4D]

    static func layout(grey: Bool) throws -> PixelLayout {
        try #require(grey ? PixelLayout(bitsPerComponent: 8, space: CGColorSpaceCreateDeviceGray(),
                                        bitmapInfo: CGImageAlphaInfo.none.rawValue)
                          : PixelLayout(bitsPerComponent: 8, space: CGColorSpaceCreateDeviceRGB(),
                                        bitmapInfo: CGImageAlphaInfo.alphaOnly.rawValue))
    }

    /// One byte through the general path: loaded as a native pixel, blended, stored.
    static func converted(_ layout: PixelLayout, _ byte: UInt8, source s: UInt32, coverage c: UInt32) -> UInt8 {
        var b = byte, pixel: UInt32 = 0
        layout.load(&b, count: 1, into: &pixel)
        pixel = CompositePipelineTests.reference(SourceOver.self, s, pixel, c)
        layout.store(&pixel, count: 1, to: &b)
        return b
    }

    /// Every destination byte (0…255, twice, from an odd address so no step is aligned), every
    /// coverage, the constant-coverage kernel; then the coverage-row kernel on all 256 coverages
    /// shuffled, with runs of 0 and 255 for its skip and store steps.
    @Test(arguments: [true, false])
    func byteKernelsMatchTheConvertedPath(grey: Bool) throws {
        let layout = try Self.layout(grey: grey)
        var rng = SplitMix64(seed: grey ? 0x62EE : 0xA1FA)
        let destination = (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var coverage = (0..<256).map { UInt8($0) }
        coverage.shuffle(using: &rng)
        coverage += [UInt8](repeating: 255, count: 35) + [UInt8](repeating: 0, count: 33) + [UInt8](repeating: 255, count: 16)
        coverage += (0..<(512 - coverage.count)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let sources = Self.colors + (0..<6).map { _ in CompositePipelineTests.randomPixel(&rng) }
        var mismatches = 0, checked = 0
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: 512 + 1)
        defer { memory.deallocate() }
        let row = memory + 1
        for s in sources {
            // 512 bytes at coverages 1…255: the 16- and 8-byte steps and the tail (count 511).
            for c in UInt32(1)...255 {
                row.update(from: destination, count: 512)
                SourceOver.blendByteSpan(row, count: 511, source: s, grey: grey, coverage: c)
                for i in 0..<511 where row[i] != Self.converted(layout, destination[i], source: s, coverage: c) { mismatches += 1 }
                mismatches += row[511] == destination[511] ? 0 : 1
                checked += 512
            }
            // Every short length (the last step overlapping the ones before it), bytes past the
            // span untouched.
            for count in 1...40 {
                let c = UInt32(1 + (count &* 37) % 255)
                row.update(from: destination, count: 48)
                SourceOver.blendByteSpan(row, count: count, source: s, grey: grey, coverage: c)
                for i in 0..<48 {
                    let expected = i < count ? Self.converted(layout, destination[i], source: s, coverage: c) : destination[i]
                    if row[i] != expected { mismatches += 1 }
                }
                checked += 48
            }
            for count in [512, 29] {
                row.update(from: destination, count: 512)
                coverage.withUnsafeBufferPointer {
                    SourceOver.blendByteSpan(row, count: count, source: s, grey: grey, coverage: $0.baseAddress!)
                }
                for i in 0..<512 {
                    let expected = i < count ? Self.converted(layout, destination[i], source: s, coverage: UInt32(coverage[i]))
                                             : destination[i]
                    if row[i] != expected { mismatches += 1 }
                }
                checked += 512
            }
        }
        #expect(checked > 0 && mismatches == 0, "\(mismatches) of \(checked) bytes differ")
    }

    /// A word of another 32-bit layout blended as before these kernels: turned right by a byte
    /// when alpha is its low byte, source-over with the source turned the same way, turned
    /// back, then the skipped byte set (on every pixel of the span, as the converted path's
    /// store writes it).
    static func quadReference(_ word: UInt32, source s: UInt32, coverage c: UInt32, alphaFirst: Bool,
                              skipped: UInt32) -> UInt32 {
        guard alphaFirst else { return CompositePipelineTests.reference(SourceOver.self, s, word, c) | skipped }
        let out = CompositePipelineTests.reference(SourceOver.self, s >> 8 | s << 24, word >> 8 | word << 24, c)
        return (out << 8 | out >> 24) | skipped
    }

    /// The quad kernels for alpha in the low byte (ARGB, ABGR; XRGB, XBGR with a skipped byte)
    /// and in the top byte (RGBA; RGBX), against turning each word, on premultiplied
    /// destinations and on arbitrary words (caller memory may hold colour above alpha, or any
    /// skipped byte), at every coverage, from an address that is a word but not 16-byte aligned.
    @Test(arguments: [(true, UInt32(0)), (true, 0xFF), (false, 0), (false, 0xFF00_0000)])
    func quadKernelsMatchTurnedWords(alphaFirst: Bool, skipped: UInt32) {
        var rng = SplitMix64(seed: 0xA1F5 ^ UInt64(skipped))
        let n = 256
        func place(_ p: UInt32) -> UInt32 { alphaFirst ? p << 8 | p >> 24 : p }
        let destination = (0..<n).map { i -> UInt32 in
            place(i % 3 == 0 ? UInt32(truncatingIfNeeded: rng.next()) : CompositePipelineTests.randomPixel(&rng))
        }
        var coverage = (0..<n).map { UInt8($0) }
        coverage.shuffle(using: &rng)
        coverage.replaceSubrange(8..<16, with: repeatElement(255, count: 8))
        coverage.replaceSubrange(20..<28, with: repeatElement(0, count: 8))
        let sources = (Self.colors + (0..<6).map { _ in CompositePipelineTests.randomPixel(&rng) }).map(place)
        var mismatches = 0
        let memory = UnsafeMutablePointer<UInt32>.allocate(capacity: n + 1)
        defer { memory.deallocate() }
        let row = memory + 1
        for s in sources {
            for c in UInt32(1)...255 {
                row.update(from: destination, count: n)
                SourceOver.blendQuadSpan(row, count: 39, source: s, coverage: c, alphaFirst: alphaFirst, skipped: skipped)
                mismatches += (0..<n).filter {
                    row[$0] != ($0 < 39 ? Self.quadReference(destination[$0], source: s, coverage: c, alphaFirst: alphaFirst,
                                                              skipped: skipped) : destination[$0])
                }.count
            }
            row.update(from: destination, count: n)
            coverage.withUnsafeBufferPointer {
                SourceOver.blendQuadSpan(row, count: n - 1, source: s, coverage: $0.baseAddress!, alphaFirst: alphaFirst,
                                         skipped: skipped)
            }
            mismatches += (0..<n).filter {
                row[$0] != ($0 < n - 1 ? Self.quadReference(destination[$0], source: s, coverage: UInt32(coverage[$0]),
                                                             alphaFirst: alphaFirst, skipped: skipped) : destination[$0])
            }.count
        }
        #expect(mismatches == 0)
    }

    /// Fills through a context: grey 8 and alpha 8 take a solid colour's spans straight from the
    /// producer (`ByteOver`, the factors at full coverage computed once a fill), or through the
    /// clip's spans with a clip mask. One shape drawn on a uniform destination gives exactly the
    /// bytes the native layout gives on the same destination, converted (the converted path's
    /// formula, per the essay in SourceOver+Bytes.swift): unaligned rectangles (short edge spans,
    /// long interiors), thin rectangles, polygons and rounded rectangles, translucent and opaque,
    /// with and without a clip.
    @Test(arguments: [true, false])
    func byteContextsMatchTheNativeLayoutConverted(grey: Bool) throws {
        let layout = try Self.layout(grey: grey)
        let (width, height) = (43, 29)
        var rng = SplitMix64(seed: grey ? 0x6E7 : 0xA7A)
        var mismatches = 0, checked = 0
        for shape in 0..<240 {
            let level = UInt8(truncatingIfNeeded: rng.next())
            var bytes = [UInt8](repeating: level, count: width * height)
            var native = [UInt32](repeating: 0, count: width * height)
            for i in native.indices { Self.loadByte(layout, level, into: &native[i]) }
            let color = shape % 5 == 0 ? 0xFF00_0000 | UInt32(truncatingIfNeeded: rng.next()) & 0xFF_FFFF
                                       : CompositePipelineTests.randomPixel(&rng)
            let x = CGFloat(rng.nextUnit() * 30), y = CGFloat(rng.nextUnit() * 20)
            let w = shape % 7 == 0 ? CGFloat(rng.nextUnit()) : CGFloat(1 + rng.nextUnit() * 25)
            let h = CGFloat(1 + rng.nextUnit() * 15)
            let clipped = shape % 4 == 3
            func draw(_ ctx: CGContext) {
                if clipped { ctx.addPath(CGPath(ellipseIn: CGRect(x: 3, y: 2, width: 35, height: 24), transform: nil)); ctx.clip() }
                let alpha = CGFloat(color >> 24) / 255
                let unpremultiplied = { (shift: UInt32) in alpha == 0 ? 0 : min(1, CGFloat(color >> shift & 255) / 255 / alpha) }
                ctx.setFillColor(red: unpremultiplied(16), green: unpremultiplied(8), blue: unpremultiplied(0), alpha: alpha)
                switch shape % 3 {
                case 0: ctx.fill(CGRect(x: x, y: y, width: w, height: h))
                case 1:
                    ctx.addLines(between: [CGPoint(x: x, y: y), CGPoint(x: x + w, y: y + 2), CGPoint(x: x + w / 2, y: y + h)])
                    ctx.fillPath()
                default:
                    ctx.addPath(CGPath(roundedRect: CGRect(x: x, y: y, width: w + 2, height: h + 2), cornerWidth: 1, cornerHeight: 1,
                                       transform: nil))
                    ctx.fillPath()
                }
            }
            try bytes.withUnsafeMutableBytes { buf in
                let ctx = try #require(grey
                    ? CGContext(data: buf.baseAddress, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width,
                                space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue)
                    : CGContext(data: buf.baseAddress, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.alphaOnly.rawValue))
                draw(ctx)
            }
            try native.withUnsafeMutableBytes { buf in
                let ctx = try #require(CGContext(data: buf.baseAddress, width: width, height: height, bitsPerComponent: 8,
                                                 bytesPerRow: width * 4, space: CGColorSpaceCreateDeviceRGB(),
                                                 bitmapInfo: CGBitmapInfo.crispNative.rawValue))
                draw(ctx)
            }
            for i in bytes.indices {
                var expected: UInt8 = 0
                layout.store(&native[i], count: 1, to: &expected)
                if bytes[i] != expected { mismatches += 1 }
            }
            checked += bytes.count
        }
        #expect(checked > 0 && mismatches == 0, "\(mismatches) of \(checked) bytes differ")
    }

    /// `byte` as the native pixel the converted path loads it as.
    static func loadByte(_ layout: PixelLayout, _ byte: UInt8, into pixel: inout UInt32) {
        var b = byte
        layout.load(&b, count: 1, into: &pixel)
    }
}
