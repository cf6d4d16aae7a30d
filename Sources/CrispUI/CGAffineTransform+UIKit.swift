import CrispGraphics
import Foundation

extension CGAffineTransform {
    /// The base transform of a UIKit context `heightInPixels` pixels high: origin at the
    /// top-left, y down, one unit per pixel (the scale to points goes into the CTM on top).
    /// ```
    /// x' = x,  y' = heightInPixels − y
    /// ```
    static func uiKitBase(heightInPixels: CGFloat) -> CGAffineTransform {
        CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: heightInPixels)
    }
}
