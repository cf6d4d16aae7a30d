import Foundation
@_spi(Testing) import CrispGraphics

/// Test helpers for reading a context's pixels in raster order (row 0 at the top).
extension CGContext {
    /// The premultiplied pixel at column `x`, raster row `y` (0 is the top row).
    func pixelAt(_ x: Int, _ y: Int) -> UInt32 { pixels[y * rowStride + x] }

    /// The alpha at column `x`, raster row `y`.
    func alphaAt(_ x: Int, _ y: Int) -> Int { Int(pixelAt(x, y) >> 24) }

    /// All alphas, row-major from the top.
    var alphas: [Int] { (0..<height).flatMap { y in (0..<width).map { alphaAt($0, y) } } }

    /// Sum of coverage in pixels (alpha/255 summed).
    var coveredArea: Double { Double(alphas.reduce(0, +)) / 255 }

    /// Raw pixel copy, for comparing renders.
    var snapshot: [UInt32] { makeImage()!.pixels }

    /// A context whose user space is raster space (y down), like a flipped view.
    static func flipped(width: Int, height: Int) -> CGContext {
        let ctx = CGContext(width: width, height: height)!
        ctx.translateBy(x: 0, y: CGFloat(height))
        ctx.scaleBy(x: 1, y: -1)
        return ctx
    }
}
