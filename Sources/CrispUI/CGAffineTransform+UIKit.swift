import CrispGraphics
import Foundation

extension CGAffineTransform {
    /// The base transform of a UIKit context `heightInPixels` pixels high at `scale` pixels per
    /// point: origin at the top-left, y down, one unit per point.
    /// ```
    /// x' = s·x,  y' = heightInPixels − s·y
    /// ```
    public static func uiKitBase(heightInPixels: CGFloat, scale: CGFloat) -> CGAffineTransform {
        CGAffineTransform(a: scale, b: 0, c: 0, d: -scale, tx: 0, ty: heightInPixels)
    }
}
