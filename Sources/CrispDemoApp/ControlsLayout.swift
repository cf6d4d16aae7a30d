import CrispApp
import Foundation

/// Where everything on the controls screen goes, for any size.
///
/// There are two designs, each a set of rectangles on a fixed canvas: a phone design (320 ×
/// 380 pt, four rows: the bar across the top, the zoom panel beside battery and compass, the
/// bitmaps beside check box and switch, the theme swatches) and an iPad design (768 × 784 pt,
/// three rows: a bar twice as high, bigger panels, and the bitmaps beside check box, switch and
/// swatches). A size at least 600 × 680 pt gets the iPad design. The design is scaled
/// uniformly to fit — never above 1.25× for the phone design, never above 1× for the iPad one —
/// and centred, every edge on a whole point; height to spare (a 4-inch phone, an iPad) goes into the margins and the gaps
/// between the rows, up to 30 points each. Every control draws relative to its bounds, so a
/// scaled design is drawn again from its vectors, sharp at any factor; and since the rectangles
/// of a design do not overlap, nothing overlaps at any size.
public struct ControlsLayout: Equatable, Sendable {
    /// The control bar.
    public var bar: CGRect
    /// The zoom panel.
    public var zoomPanel: CGRect
    /// The battery gauge.
    public var battery: CGRect
    /// The compass.
    public var compass: CGRect
    /// The plain bitmap.
    public var bitmap: CGRect
    /// The bitmap button.
    public var bitmapButton: CGRect
    /// The glow bubble.
    public var glowBubble: CGRect
    /// The check box.
    public var checkBox: CGRect
    /// The iOS-style switch.
    public var uiSwitch: CGRect
    /// The theme swatches, in `Theme.all` order.
    public var swatches: [CGRect]
    /// The section captions: zoom, battery, compass, bitmap, check box, theme.
    public var captions: [CGRect]
    /// The captions' font size, in points.
    public var captionFontSize: CGFloat
    /// The factor the design was scaled by.
    public var scale: CGFloat
    /// Whether this is the iPad design.
    public var isWide: Bool

    /// The phone design.
    static let phone = ControlsLayout(
        bar: CGRect(x: 6, y: 6, width: 308, height: 40),
        zoomPanel: CGRect(x: 6, y: 70, width: 150, height: 150),
        battery: CGRect(x: 164, y: 70, width: 150, height: 42),
        compass: CGRect(x: 164, y: 136, width: 150, height: 84),
        bitmap: CGRect(x: 6, y: 250, width: 56, height: 56),
        bitmapButton: CGRect(x: 68, y: 246, width: 64, height: 64),
        glowBubble: CGRect(x: 136, y: 242, width: 72, height: 72),
        checkBox: CGRect(x: 216, y: 246, width: 28, height: 28),
        uiSwitch: CGRect(x: 216, y: 283, width: 79, height: 27),
        swatches: (0..<4).map { CGRect(x: 6 + CGFloat($0) * 46, y: 334, width: 40, height: 40) },
        captions: [CGRect(x: 6, y: 54, width: 150, height: 14), CGRect(x: 164, y: 54, width: 150, height: 14),
                   CGRect(x: 164, y: 120, width: 150, height: 14), CGRect(x: 6, y: 228, width: 202, height: 14),
                   CGRect(x: 216, y: 228, width: 98, height: 14), CGRect(x: 6, y: 318, width: 308, height: 14)],
        captionFontSize: 11, scale: 1, isWide: false)
    /// The phone design's canvas.
    static let phoneCanvas = CGSize(width: 320, height: 380)
    /// Where the phone design's second, third and fourth rows begin (captions included).
    static let phoneRowStarts: [CGFloat] = [50, 226, 316]

    /// The iPad design: the phone's rows, bigger, with the theme swatches beside the bitmaps
    /// under the check box and switch.
    static let pad = ControlsLayout(
        bar: CGRect(x: 24, y: 24, width: 720, height: 80),
        zoomPanel: CGRect(x: 24, y: 150, width: 360, height: 380),
        battery: CGRect(x: 408, y: 150, width: 336, height: 90),
        compass: CGRect(x: 408, y: 290, width: 336, height: 240),
        bitmap: CGRect(x: 24, y: 604, width: 112, height: 112),
        bitmapButton: CGRect(x: 152, y: 596, width: 128, height: 128),
        glowBubble: CGRect(x: 296, y: 588, width: 144, height: 144),
        checkBox: CGRect(x: 472, y: 596, width: 56, height: 56),
        uiSwitch: CGRect(x: 552, y: 604, width: 118, height: 40),
        swatches: (0..<4).map { CGRect(x: 472 + CGFloat($0) * 72, y: 704, width: 56, height: 56) },
        captions: [CGRect(x: 24, y: 122, width: 360, height: 20), CGRect(x: 408, y: 122, width: 336, height: 20),
                   CGRect(x: 408, y: 262, width: 336, height: 20), CGRect(x: 24, y: 560, width: 416, height: 20),
                   CGRect(x: 472, y: 560, width: 272, height: 20), CGRect(x: 472, y: 672, width: 272, height: 20)],
        captionFontSize: 15, scale: 1, isWide: true)
    /// The iPad design's canvas.
    static let padCanvas = CGSize(width: 768, height: 784)
    /// Where the iPad design's second and third rows begin (captions included).
    static let padRowStarts: [CGFloat] = [114, 552]

    /// The layout for a screen `size` points large.
    public static func fitting(_ size: CGSize) -> ControlsLayout {
        let wide = size.width >= 600 && size.height >= 680
        let design = wide ? pad : phone
        let canvas = wide ? padCanvas : phoneCanvas
        let rowStarts = wide ? padRowStarts : phoneRowStarts
        let k = max(min(size.width / canvas.width, size.height / canvas.height, wide ? 1 : 1.25), 0.01)
        let spare = max(size.height - canvas.height * k, 0)
        let gap = min(spare / CGFloat(rowStarts.count + 2), 30).rounded(.down)
        let dx = ((size.width - canvas.width * k) / 2).rounded()
        let dy = ((spare - gap * CGFloat(rowStarts.count)) / 2).rounded()
        // Every edge on a whole point (so on whole pixels at 1× and 2×): a scaled design (an
        // iPad in landscape, k ≈ 0.89) otherwise puts controls at fractions of a pixel, where
        // the window cannot copy their cached contents and draws them all again every frame
        // (the landscape full frame took 2.8× the portrait one). Rounding each edge keeps
        // their order, so rectangles that did not overlap still do not.
        func place(_ r: CGRect) -> CGRect {
            let row = CGFloat(rowStarts.filter { $0 <= r.minY }.count)
            let x0 = (r.minX * k + dx).rounded(), x1 = (r.maxX * k + dx).rounded()
            let y0 = (r.minY * k + dy + row * gap).rounded(), y1 = (r.maxY * k + dy + row * gap).rounded()
            return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        return ControlsLayout(
            bar: place(design.bar), zoomPanel: place(design.zoomPanel), battery: place(design.battery),
            compass: place(design.compass), bitmap: place(design.bitmap), bitmapButton: place(design.bitmapButton),
            glowBubble: place(design.glowBubble), checkBox: place(design.checkBox), uiSwitch: place(design.uiSwitch),
            swatches: design.swatches.map(place), captions: design.captions.map(place),
            captionFontSize: design.captionFontSize * k, scale: k, isWide: wide)
    }

    /// Every control's rectangle (captions left out).
    public var controlRects: [CGRect] {
        [bar, zoomPanel, battery, compass, bitmap, bitmapButton, glowBubble, checkBox, uiSwitch] + swatches
    }
}
