import CrispGraphics
import Foundation

// Offscreen drawing, UIKit-style: begin an image context (it becomes the current context),
// draw, take the image, end. Image contexts nest: each begin pushes one on the current
// thread's context stack and each end pops the innermost. Each is flipped UIKit-style in its
// base space — origin top-left, y down, one unit per point — so shadows cast down for a
// positive height, as in a view's drawing.

/// Begins an image context of `size` points at scale 1 with transparency; see
/// `UIGraphicsBeginImageContextWithOptions(_:_:_:)`.
public func UIGraphicsBeginImageContext(_ size: CGSize) {
    UIGraphicsBeginImageContextWithOptions(size, false, 1)
}

/// Begins an image context of `size` points at `scale` pixels per point and makes it the
/// current context, until `UIGraphicsEndImageContext()`.
///
/// - Parameters:
///   - size: in points; the bitmap is `ceil(size × scale)` pixels.
///   - opaque: accepted for ported code; the context starts transparent either way (draw an
///     opaque background to get an opaque image).
///   - scale: pixels per point; 0 takes the scale of the current context (the screen's while a
///     view draws), or 1 outside drawing.
///
/// A size with no pixels, or too big for a bitmap, makes no context (as UIKit, which logs):
/// `UIGraphicsGetCurrentContext()` and `UIGraphicsGetImageFromCurrentImageContext()` return
/// nil until the matching `UIGraphicsEndImageContext()`.
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    let stack = GraphicsContextStack.current
    let s = scale > 0 && scale.isFinite ? scale : stack.currentScale
    let w = (size.width * s).rounded(.up), h = (size.height * s).rounded(.up)
    var context: CGContext?
    if w >= 1, h >= 1, w <= CGFloat(CGContext.maximumDimension), h <= CGFloat(CGContext.maximumDimension) {
        context = CGContext(width: Int(w), height: Int(h))
        context?.setBaseTransform(.uiKitBase(heightInPixels: h, scale: s))
    }
    stack.entries.append(.init(context: context, scale: s, isImageContext: true))
}

/// The innermost image context's content so far as an image (at the context's scale); nil when
/// the current context is not an image context.
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    guard let entry = GraphicsContextStack.current.entries.last, entry.isImageContext,
          let image = entry.context?.makeImage() else { return nil }
    return UIImage(cgImage: image, scale: entry.scale)
}

/// Ends the innermost image context, making the previous context current again. Does nothing
/// when the current context is not an image context.
public func UIGraphicsEndImageContext() {
    let stack = GraphicsContextStack.current
    guard stack.entries.last?.isImageContext == true else { return }
    stack.entries.removeLast()
}
