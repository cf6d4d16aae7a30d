import CZlib

// PNG encoding: premultiplied pixels → straight 8-bit samples → per-row filtered scanlines →
// one zlib stream → IHDR, IDAT…, IEND.
//
// The automatic colour type scans the pixels once for the two facts that decide it (all
// opaque? all gray?) on the premultiplied values directly — premultiplied channels are equal
// exactly when the straight ones are — and picks the smallest of gray, gray + alpha, RGB and
// RGBA that is lossless. Palettes and low bit depths are deliberately not tried here: they
// pay off only for few-colour images and need a colour count first; `CGImage.pngData()`
// goes through `PNGOptimizer`, which tries them. Each row's filter is
// chosen by the minimum-sum-of-absolute-differences heuristic (see PNGFilter.swift). The row
// loops work on two scratch rows and two candidate buffers, swapped rather than copied, so
// encoding allocates nothing per row or per pixel. The stream uses zlib's Z_FILTERED strategy,
// as libpng does for filtered data (a few percent smaller than the default on noisy images).
// Nearly all encoding time is zlib's: on a 1536 × 2048 image level 9 takes about 12 times as
// long as level 6 for files about 6 % smaller, hence `compressionLevel`.

/// Encodes `CGImage`s as PNG files.
///
/// Pixels are unpremultiplied to PNG's straight alpha with exact rounding, so decoding the
/// result with `PNGDecoder` gives back the identical premultiplied pixels. The file holds only
/// IHDR, IDAT and IEND chunks (no colour-space chunk; samples are sRGB by convention).
public struct PNGEncoder: Sendable {
    /// The pixel format the encoder writes.
    public enum ColorType: Sendable, Equatable {
        /// The smallest lossless 8-bit format: gray (colour type 0), gray + alpha (4),
        /// RGB (2) or RGBA (6), chosen from the image's pixels.
        case automatic
        /// Always 8-bit RGBA (colour type 6), whatever the pixels.
        case rgba
    }

    /// The pixel format to write; default `.automatic`.
    public var colorType: ColorType

    /// The zlib compression level, 0 (store) … 9 (smallest, slowest); default 9.
    ///
    /// Level 9 spends roughly ten times the time of level 6 for files a few percent smaller.
    public var compressionLevel: Int

    /// The largest IDAT chunk written; longer image data is split over several chunks.
    static let maximumIDATLength = 1 << 18

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - colorType: the pixel format to write; default `.automatic`.
    ///   - compressionLevel: the zlib level 0…9; default 9.
    /// - Precondition: `compressionLevel` is in 0…9.
    public init(colorType: ColorType = .automatic, compressionLevel: Int = 9) {
        precondition((0...9).contains(compressionLevel), "zlib compression level \(compressionLevel) is not in 0...9")
        self.colorType = colorType
        self.compressionLevel = compressionLevel
    }

    /// Encodes `image` as a complete PNG file.
    ///
    /// - Throws: `PNGError.emptyImage` if the image has no pixels (PNG cannot store that),
    ///   `.imageTooLarge` if a dimension exceeds PNG's 2³¹ − 1.
    public func encode(_ image: CGImage) throws(PNGError) -> [UInt8] {
        guard image.width >= 1, image.height >= 1 else { throw .emptyImage(width: image.width, height: image.height) }
        guard image.width <= PNGHeader.maximumDimension, image.height <= PNGHeader.maximumDimension else {
            throw .imageTooLarge(width: image.width, height: image.height, limit: PNGHeader.maximumDimension)
        }
        let format = colorType == .rgba ? PNGColorType.rgba : Self.smallestLosslessColorType(for: image.pixels)
        let header = PNGHeader(width: image.width, height: image.height, bitDepth: 8, colorType: format, isInterlaced: false)
        let scanlines = Self.filteredScanlines(image, header: header)
        precondition((0...9).contains(compressionLevel), "zlib compression level \(compressionLevel) is not in 0...9")
        let level = Int32(compressionLevel)
        let compressed = scanlines.withUnsafeBufferPointer { Zlib.deflate($0, level: level, strategy: Z_FILTERED) }

        var file = PNGChunk.signature
        file.reserveCapacity(compressed.count + compressed.count / Self.maximumIDATLength * 12 + 64)
        header.bytes.withUnsafeBufferPointer { PNGChunk.append(type: "IHDR", data: $0, to: &file) }
        compressed.withUnsafeBufferPointer { compressed in
            var start = 0
            repeat {
                let end = min(start + Self.maximumIDATLength, compressed.count)
                PNGChunk.append(type: "IDAT", data: UnsafeBufferPointer(rebasing: compressed[start..<end]), to: &file)
                start = end
            } while start < compressed.count
        }
        PNGChunk.append(type: "IEND", data: UnsafeBufferPointer(start: nil, count: 0), to: &file)
        return file
    }

    /// The smallest of gray, gray + alpha, RGB, RGBA (8 bits per sample) that stores `pixels` exactly.
    static func smallestLosslessColorType(for pixels: [UInt32]) -> PNGColorType {
        var isOpaque = true, isGray = true
        for p in pixels {
            if isOpaque && p >> 24 != 255 { isOpaque = false }
            if isGray && ((p >> 16) & 0xFF != p & 0xFF || (p >> 8) & 0xFF != p & 0xFF) { isGray = false }
            if !isOpaque && !isGray { break }
        }
        switch (isGray, isOpaque) {
        case (true, true): return .gray
        case (true, false): return .grayAlpha
        case (false, true): return .rgb
        case (false, false): return .rgba
        }
    }

    /// The uncompressed image data: for each row, the chosen filter's type byte and output.
    private static func filteredScanlines(_ image: CGImage, header: PNGHeader) -> [UInt8] {
        image.pixels.withUnsafeBufferPointer { pixels in
            filteredScanlines(pixels.baseAddress!, stride: image.width, height: header.height, header: header)
        }
    }

    /// The uncompressed image data of `height` rows of `header.width` premultiplied pixels,
    /// `stride` pixels apart (a rectangle of a larger frame, for an APNG frame): for each row, the
    /// minimum-sum filter's type byte and output, the samples straight `header.colorType`.
    static func filteredScanlines(_ pixels: UnsafePointer<UInt32>, stride: Int, height: Int,
                                  header: PNGHeader) -> [UInt8] {
        let width = header.width
        let rowBytes = header.scanlineByteCount(pixels: width)
        let distance = header.filterDistance
        var output = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        // Current and previous raw rows, best and trial filtered rows.
        var scratch = [UInt8](repeating: 0, count: 4 * rowBytes)
        output.withUnsafeMutableBufferPointer { output in
            scratch.withUnsafeMutableBufferPointer { scratch in
                var current = scratch.baseAddress!, previous = current + rowBytes
                var best = current + 2 * rowBytes, trial = current + 3 * rowBytes
                for y in 0..<height {
                    pack(pixels + y * stride, count: width, as: header.colorType, into: current)
                    var bestSum = Int.max, bestFilter = PNGFilter.none
                    for filter in PNGFilter.allCases {
                        let sum = filter.filter(current, prior: previous, count: rowBytes, distance: distance, into: trial)
                        if sum < bestSum {
                            bestSum = sum
                            bestFilter = filter
                            swap(&best, &trial)
                        }
                    }
                    let line = output.baseAddress! + y * (rowBytes + 1)
                    line[0] = bestFilter.rawValue
                    (line + 1).update(from: best, count: rowBytes)
                    swap(&current, &previous)
                }
            }
        }
        return output
    }

    /// Writes `count` premultiplied pixels as straight 8-bit samples of `colorType`.
    ///
    /// - Precondition: the pixels fit `colorType` (gray formats need r = g = b; formats
    ///   without alpha need opaque pixels), as `smallestLosslessColorType` guarantees.
    private static func pack(_ pixels: UnsafePointer<UInt32>, count: Int, as colorType: PNGColorType,
                             into row: UnsafeMutablePointer<UInt8>) {
        switch colorType {
        case .gray:
            for i in 0..<count { row[i] = UInt8(truncatingIfNeeded: pixels[i]) }
        case .rgb:
            for i in 0..<count {
                let p = pixels[i]
                row[3 * i] = UInt8(truncatingIfNeeded: p >> 16)
                row[3 * i + 1] = UInt8(truncatingIfNeeded: p >> 8)
                row[3 * i + 2] = UInt8(truncatingIfNeeded: p)
            }
        case .grayAlpha:
            for i in 0..<count {
                let straight = Pixel.unpremultiplied(pixels[i])
                row[2 * i] = straight.b
                row[2 * i + 1] = straight.a
            }
        case .rgba:
            for i in 0..<count {
                let p = pixels[i], q = row + 4 * i
                if p >> 24 == 255 {
                    q[0] = UInt8(truncatingIfNeeded: p >> 16)
                    q[1] = UInt8(truncatingIfNeeded: p >> 8)
                    q[2] = UInt8(truncatingIfNeeded: p)
                    q[3] = 255
                } else {
                    let straight = Pixel.unpremultiplied(p)
                    (q[0], q[1], q[2], q[3]) = (straight.r, straight.g, straight.b, straight.a)
                }
            }
        case .indexed:
            preconditionFailure("the encoder does not write indexed colour")
        }
    }
}
