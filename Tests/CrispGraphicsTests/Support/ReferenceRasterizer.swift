import Foundation
import CrispGraphics

/// A slow, obviously correct rasterizer: each pixel is sampled on a 16×16 grid of points and
/// every sample runs a point-in-polygon winding test against every edge. Used only to check the
/// fast rasterizer.
enum ReferenceRasterizer {
    /// Coverage (0…255) of polygons (raster coordinates, y down, implicitly closed) on a
    /// `width`×`height` grid.
    ///
    /// Also reports, per pixel, whether its samples' winding numbers span at most two adjacent
    /// values: only there does coverage computed from the signed area (what every exact-area
    /// rasterizer does) equal the true coverage.
    static func coverage(of polygons: [[CGPoint]], rule: CGPathFillRule, width: Int,
                         height: Int) -> (coverage: [UInt8], isSimple: [Bool]) {
        let n = 16
        var out = [UInt8](repeating: 0, count: width * height)
        var simple = [Bool](repeating: true, count: width * height)
        var edges: [(CGPoint, CGPoint)] = []
        for poly in polygons where poly.count >= 2 {
            for i in poly.indices { edges.append((poly[i], poly[(i + 1) % poly.count])) }
        }
        for py in 0..<height {
            for px in 0..<width {
                var inside = 0
                var lowest = Int.max, highest = Int.min
                for sy in 0..<n {
                    let y = CGFloat(py) + (CGFloat(sy) + 0.5) / CGFloat(n)
                    for sx in 0..<n {
                        let x = CGFloat(px) + (CGFloat(sx) + 0.5) / CGFloat(n)
                        var winding = 0
                        for (a, b) in edges {
                            if a.y <= y {
                                if b.y > y, (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) > 0 { winding += 1 }
                            } else if b.y <= y, (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) < 0 {
                                winding -= 1
                            }
                        }
                        lowest = min(lowest, winding); highest = max(highest, winding)
                        if rule == .winding ? winding != 0 : winding & 1 != 0 { inside += 1 }
                    }
                }
                out[py * width + px] = UInt8((inside * 255 + (n * n) / 2) / (n * n))
                simple[py * width + px] = highest - lowest <= 1
            }
        }
        return (out, simple)
    }
}
