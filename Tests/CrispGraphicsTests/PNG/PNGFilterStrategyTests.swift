import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

// The per-row filter strategies, brute force above all: on images built so that exactly one
// filter turns every row into a two-valued alphabet, brute force must pick that filter on every
// row, with both of its measures (context compressed along, for small images, and context as a
// preset dictionary, above `bruteForceDictionaryThreshold`); and whatever it picks, unfiltering
// gives the rows back.

@Suite struct PNGFilterStrategyTests {
    /// Gray 8-bit rows (one byte per pixel) made for `filter`: for `.up`, a random first row
    /// and each next row the one above plus 0 or 50 per pixel; for `.sub`, each row a random
    /// first pixel and then the pixel to the left plus 0 or 50. Every other filter leaves noise
    /// (Paeth follows the expected neighbour at many pixels, but the steps of 50 often make
    /// another one closer).
    static func rows(for filter: PNGFilter, width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        func step() -> UInt8 { rng.next() & 1 == 0 ? 0 : 50 }
        var rows = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                switch filter {
                case .up: rows[i] = y == 0 ? UInt8.random(in: 0...255, using: &rng) : rows[i - width] &+ step()
                default: rows[i] = x == 0 ? UInt8.random(in: 0...255, using: &rng) : rows[i - 1] &+ step()
                }
            }
        }
        return rows
    }

    /// The filter byte of each row of filtered data with `rowBytes` bytes per row.
    static func filterBytes(_ filtered: [UInt8], rowBytes: Int) -> [UInt8] {
        Swift.stride(from: 0, to: filtered.count, by: rowBytes + 1).map { filtered[$0] }
    }

    /// The unfiltered rows of `filtered`.
    static func unfiltered(_ filtered: [UInt8], rowBytes: Int, height: Int, distance: Int = 1) -> [UInt8] {
        var rows = [UInt8](repeating: 0, count: rowBytes * height)
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        rows.withUnsafeMutableBufferPointer { rows in
            for y in 0..<height {
                let row = rows.baseAddress! + y * rowBytes
                for i in 0..<rowBytes { row[i] = filtered[y * (rowBytes + 1) + 1 + i] }
                let filter = PNGFilter(rawValue: filtered[y * (rowBytes + 1)])!
                zeros.withUnsafeBufferPointer { zeros in
                    filter.unfilter(row, prior: y == 0 ? zeros.baseAddress! : UnsafePointer(row - rowBytes), count: rowBytes,
                                    distance: distance)
                }
            }
        }
        return rows
    }

    /// (filter the image is made for, width, height): 300×64 is measured with its context
    /// compressed along, 1100×960 (1 056 000 bytes) with the context as a dictionary.
    @Test(arguments: [(PNGFilter.up, 300, 64), (.sub, 300, 64), (.up, 1100, 960), (.sub, 1100, 960)])
    func bruteForcePicksTheOneFilterThatMakesEveryRowCompressible(filter: PNGFilter, width: Int, height: Int) {
        #expect((width * height > PNGFilterStrategy.bruteForceDictionaryThreshold) == (width > 1000), "size class")
        let rows = Self.rows(for: filter, width: width, height: height, seed: UInt64(width) + UInt64(filter.rawValue))
        let filtered = PNGFilterStrategy.bruteForce.apply(to: rows, rowBytes: width, height: height, distance: 1)
        let chosen = Self.filterBytes(filtered, rowBytes: width)
        // The first row has zeros above it, where Up is None (and None, tried first, wins the tie).
        let expected = (0..<height).map { $0 == 0 && filter == .up ? PNGFilter.none.rawValue : filter.rawValue }
        let wrong = zip(chosen, expected).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(wrong.isEmpty, "\(filter) \(width)×\(height): rows \(wrong.prefix(5).map { "\($0.offset) got \($0.element.0)" })")
        // The best single filter compressed alone is what brute force's choice amounts to here.
        let fixed = PNGFilterStrategy(rawValue: filter == .up ? "up" : "sub")!
            .apply(to: rows, rowBytes: width, height: height, distance: 1)
        #expect(Self.filterBytes(fixed, rowBytes: width).dropFirst() == chosen.dropFirst())
        #expect(Self.unfiltered(filtered, rowBytes: width, height: height) == rows, "\(filter) \(width)×\(height): lossless")
    }

    @Test(arguments: [(3, 40, 30), (4, 300, 900), (2, 1200, 300)])
    func bruteForceOutputUnfiltersToTheRows(distance: Int, rowBytes: Int, height: Int) {
        // Mixed content (noise, flat runs, gradients), so that every filter gets chosen somewhere.
        var rng = SplitMix64(seed: UInt64(rowBytes))
        var rows = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            let kind = (y / 7) % 3
            for x in 0..<rowBytes {
                rows[y * rowBytes + x] = kind == 0 ? UInt8.random(in: 0...255, using: &rng)
                    : kind == 1 ? UInt8(truncatingIfNeeded: x / 50 * 17) : UInt8(truncatingIfNeeded: x + 3 * y)
            }
        }
        let filtered = PNGFilterStrategy.bruteForce.apply(to: rows, rowBytes: rowBytes, height: height, distance: distance)
        let back = Self.unfiltered(filtered, rowBytes: rowBytes, height: height, distance: distance)
        #expect(back == rows, "distance \(distance), \(rowBytes) × \(height)")
        #expect(Set(Self.filterBytes(filtered, rowBytes: rowBytes)).count >= 2, "brute force chose one filter for everything")
    }

    @Test func aPresetDictionaryHoldingTheRowMakesItCheap() {
        var rng = SplitMix64(seed: 3)
        let row = (0..<4000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        // 40 KB of noise ending with the row: zlib keeps the last 32 KiB, which hold it.
        let dictionary = (0..<36_000).map { _ in UInt8.random(in: 0...255, using: &rng) } + row
        let meter = Zlib.SizeMeter(level: 6, strategy: 0, memLevel: 8)
        let alone = row.withUnsafeBufferPointer { meter.compressedSize(of: $0) }
        let withItself = row.withUnsafeBufferPointer { r in dictionary.withUnsafeBufferPointer { meter.compressedSize(of: r, dictionary: $0) } }
        #expect(alone > 4000, "random bytes do not compress: \(alone)")
        #expect(withItself < 100, "a dictionary holding the row: \(withItself) bytes")
        // The meter is reusable: the dictionary is gone at the next call.
        #expect(row.withUnsafeBufferPointer { meter.compressedSize(of: $0) } == alone)
    }
}
