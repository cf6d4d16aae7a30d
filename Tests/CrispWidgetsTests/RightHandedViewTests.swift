import CrispGraphics
import CrispUI
@_spi(Testing) import CrispWidgets
import Foundation
import Testing

/// Draws a 10×10 square at the right-handed origin, and keeps the rectangle it was handed.
final class SquareView: RightHandedView {
    var drawnRect: CGRect?
    override func draw(_ rect: CGRect, in context: CGContext) {
        drawnRect = rect
        context.setFillColor(.white)
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
    }
}

/// Draws the same square for a plain `RightHandedView`.
final class SquareDelegate: RightHandedViewDelegate {
    var drawnRect: CGRect?
    func drawView(_ view: RightHandedView, in rect: CGRect, context: CGContext) {
        drawnRect = rect
        context.setFillColor(.white)
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
    }
}

/// Draws "L" with `CTLineDraw` at a baseline 10 points up.
final class LetterView: RightHandedView {
    override func draw(_ rect: CGRect, in context: CGContext) {
        guard let font = try? CTFont.uiFont(.system, size: 28) else { return }
        context.setFillColor(.white)
        context.textPosition = CGPoint(x: 8, y: 10)
        CTLineDraw(CTLine(string: "L", font: font), context)
    }
}

/// `RightHandedView`: y-up drawing by subclass and by delegate, the converted rectangle, text,
/// and the flip as a utility.
@Suite struct RightHandedViewTests {
    /// Whether the pixel is (nearly) white, i.e. the square covers it.
    func isInked(_ image: CGImage, _ x: Int, _ y: Int) -> Bool { image.straightRGBA(x: x, y: y).r > 200 }

    /// The square at the right-handed origin lands in the bottom-left corner of the view.
    func expectSquareBottomLeft(_ image: CGImage, scale: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        // The view sits at (5, 5) in a 50×50 canvas and is 40×40 points.
        let left = 5 * scale, bottom = 45 * scale
        #expect(isInked(image, left + 1, bottom - 1), sourceLocation: sourceLocation)
        #expect(isInked(image, left + 10 * scale - 1, bottom - 10 * scale), sourceLocation: sourceLocation)
        #expect(!isInked(image, left + 10 * scale, bottom - 1), sourceLocation: sourceLocation)
        #expect(!isInked(image, left + 1, bottom - 10 * scale - 1), sourceLocation: sourceLocation)
        #expect(!isInked(image, left + 1, 5 * scale + 1), "nothing at the top-left", sourceLocation: sourceLocation)
    }

    @Test(arguments: [1, 2])
    func subclassDrawsYUp(scale: Int) throws {
        let view = SquareView()
        let canvas = try ControlCanvas(size: CGSize(width: 50, height: 50), scale: CGFloat(scale),
                                       views: [(view, CGRect(x: 5, y: 5, width: 40, height: 40))])
        expectSquareBottomLeft(try canvas.snapshot(), scale: scale)
        #expect(view.drawnRect == CGRect(x: 0, y: 0, width: 40, height: 40))
    }

    @Test(arguments: [1, 2])
    func delegateDrawsYUp(scale: Int) throws {
        let view = RightHandedView()
        let delegate = SquareDelegate()
        view.delegate = delegate
        let canvas = try ControlCanvas(size: CGSize(width: 50, height: 50), scale: CGFloat(scale),
                                       views: [(view, CGRect(x: 5, y: 5, width: 40, height: 40))])
        expectSquareBottomLeft(try canvas.snapshot(), scale: scale)
        #expect(delegate.drawnRect == CGRect(x: 0, y: 0, width: 40, height: 40))
    }

    @Test func delegateAndSubclassTogetherIsTheConflict() {
        #expect(RightHandedView.drawingConflict(hasDelegate: false, overridesDrawing: true, type: SquareView.self) == nil)
        #expect(RightHandedView.drawingConflict(hasDelegate: true, overridesDrawing: false, type: RightHandedView.self) == nil)
        let message = RightHandedView.drawingConflict(hasDelegate: true, overridesDrawing: true, type: SquareView.self)
        #expect(message?.contains("SquareView overrides draw(_:in:) and also has a delegate") == true)
    }

    @Test func rectanglesConvertToTheYUpSystem() {
        let view = RightHandedView(frame: CGRect(x: 0, y: 0, width: 100, height: 60))
        // The top-left 10×5 of the view is its top-left in y-up terms too: y from 55 to 60.
        #expect(view.convertToRightHanded(CGRect(x: 0, y: 0, width: 10, height: 5)) == CGRect(x: 0, y: 55, width: 10, height: 5))
        #expect(view.convertToRightHanded(CGPoint(x: 3, y: 60)) == CGPoint(x: 3, y: 0))
        // The flip is its own inverse.
        let r = CGRect(x: 7, y: 11, width: 13, height: 17)
        #expect(view.convertToRightHanded(view.convertToRightHanded(r)) == r)
    }

    @Test func aPartialRedrawHandsOverTheConvertedRectangle() throws {
        let view = SquareView()
        let canvas = try ControlCanvas(size: CGSize(width: 50, height: 50), scale: 1, views: [(view, CGRect(x: 5, y: 5, width: 40, height: 40))])
        _ = try canvas.snapshot()
        view.setNeedsDisplay(CGRect(x: 0, y: 0, width: 8, height: 4))
        try canvas.host.renderFrame()
        #expect(view.drawnRect == CGRect(x: 0, y: 36, width: 8, height: 4))
    }

    @Test func textStandsUprightAndReadsLeftToRight() throws {
        let view = LetterView()
        let canvas = try ControlCanvas(size: CGSize(width: 50, height: 50), scale: 1, views: [(view, CGRect(x: 0, y: 0, width: 50, height: 50))])
        let image = try canvas.snapshot()
        var rows = [Int](repeating: 0, count: 50), columns = [Int](repeating: 0, count: 50)
        for y in 0..<50 { for x in 0..<50 where isInked(image, x, y) { rows[y] += 1; columns[x] += 1 } }
        let inkedRows = rows.indices.filter { rows[$0] > 0 }, inkedColumns = columns.indices.filter { columns[$0] > 0 }
        let top = try #require(inkedRows.first), bottom = try #require(inkedRows.last)
        let left = try #require(inkedColumns.first), right = try #require(inkedColumns.last)
        // Upright: the L's foot (its widest row) is at the bottom, and the baseline is 10 points up.
        let widest = rows.indices.max { rows[$0] < rows[$1] }!
        #expect(widest > (top + bottom) / 2, "the foot is at the bottom")
        #expect(abs(bottom - 39) <= 1, "baseline 10 points above the bottom edge")
        // Left to right: the stem (the fullest column) is on the left.
        let fullest = columns.indices.max { columns[$0] < columns[$1] }!
        #expect(fullest < (left + right) / 2, "the stem is on the left")
    }

    @Test func flipContextOnAnImageContext() throws {
        // A bitmap context is y-up; flipped for a 20×20 view it is y-down, origin top-left.
        let context = try #require(CGContext(width: 20, height: 20))
        let view = RightHandedView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        view.flipContext(context)
        context.setFillColor(.white)
        context.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
        let image = try #require(context.makeImage())
        #expect(isInked(image, 0, 0) && isInked(image, 4, 4), "the square is at the top-left")
        #expect(!isInked(image, 0, 19) && !isInked(image, 5, 5))
        // Flipping twice is back to y-up: the square at the bottom-left.
        view.flipContext(context)
        context.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        context.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
        let twice = try #require(context.makeImage())
        #expect(twice.straightRGBA(x: 0, y: 19).g == 0 && twice.straightRGBA(x: 0, y: 19).r == 255)
        #expect(twice.straightRGBA(x: 0, y: 0).g == 255, "the first square is untouched")
    }
}
