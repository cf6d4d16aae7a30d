import CrispGraphics
import Foundation

extension CGContext {
    /// Device pixels per user unit along x (shadow blur is given in device pixels, CoreGraphics'
    /// rule, so a blur that should scale with the drawing multiplies by this).
    var userToDeviceScale: CGFloat {
        let unit = convertToDeviceSpace(CGSize(width: 1, height: 0))
        return (unit.width * unit.width + unit.height * unit.height).squareRoot()
    }
}
