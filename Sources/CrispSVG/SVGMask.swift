import CrispGraphics
import Foundation

/// A `<mask>` resolved for one masked element, in that element's user space: the content to
/// draw into the mask, the region outside which the mask is 0, and whether the mask's value is
/// the content's luminance (`mask-type: luminance`, the default) or its alpha.
struct SVGMask {
    var content: SVGRenderNode
    var region: CGRect
    var isAlpha: Bool
    /// The `<mask>` element's own mask (zero or one), resolved for the same element: the two
    /// masks' values multiply.
    var masks: [SVGMask] = []
}
