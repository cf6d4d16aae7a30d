import CrispGraphics
import CrispUI
import Foundation
import Testing

/// Right-to-left layout: the window's direction, semantic content attributes, mirrored frames,
/// and what a change of direction lays out and draws again.
@Suite struct LayoutDirectionTests {
    /// A row of three 20-point boxes from the leading edge, laid out left to right and mirrored
    /// as a whole; counts its layouts.
    final class Row: View {
        var layouts = 0
        var gap: CGFloat = 30
        let boxes = [View(), View(), View()]
        override init(frame: CGRect = .zero) {
            super.init(frame: frame)
            for b in boxes { addSubview(b) }
        }
        override func layoutSubviews() {
            layoutMirroredForDirection {
                layouts += 1
                for (i, b) in boxes.enumerated() { b.frame = CGRect(x: 10 + CGFloat(i) * gap, y: 0, width: 20, height: 20) }
            }
        }
    }

    @Test func theWindowsDirectionReachesEveryViewUnlessOneIsForced() {
        let window = Window(screen: Screen(device: .iPhone4))
        let root = View(), child = View(), forced = View(), belowForced = View(), media = View()
        window.rootView = root
        root.addSubview(child)
        root.addSubview(forced)
        forced.addSubview(belowForced)
        root.addSubview(media)
        forced.semanticContentAttribute = .forceLeftToRight
        media.semanticContentAttribute = .playback
        #expect([root, child, forced, belowForced, media].allSatisfy { $0.effectiveUserInterfaceLayoutDirection == .leftToRight })
        window.userInterfaceLayoutDirection = .rightToLeft
        #expect(root.effectiveUserInterfaceLayoutDirection == .rightToLeft && child.effectiveUserInterfaceLayoutDirection == .rightToLeft)
        #expect(forced.effectiveUserInterfaceLayoutDirection == .leftToRight)
        #expect(belowForced.effectiveUserInterfaceLayoutDirection == .leftToRight, "a forced direction is inherited")
        #expect(media.effectiveUserInterfaceLayoutDirection == .leftToRight, "playback controls never turn")
        // A view in no window runs left to right unless it is forced.
        let loose = View()
        #expect(loose.effectiveUserInterfaceLayoutDirection == .leftToRight)
        loose.semanticContentAttribute = .forceRightToLeft
        #expect(loose.effectiveUserInterfaceLayoutDirection == .rightToLeft)
        #expect(View.userInterfaceLayoutDirection(for: .spatial, relativeTo: .rightToLeft) == .leftToRight)
        #expect(View.userInterfaceLayoutDirection(for: .unspecified, relativeTo: .rightToLeft) == .rightToLeft)
    }

    @Test func directionalFramesMirrorAcrossTheBounds() {
        let v = View(frame: CGRect(x: 5, y: 5, width: 100, height: 40))
        let r = CGRect(x: 10, y: 3, width: 20, height: 7)
        #expect(v.directionalFrame(r) == r)
        v.semanticContentAttribute = .forceRightToLeft
        #expect(v.directionalFrame(r) == CGRect(x: 70, y: 3, width: 20, height: 7))
        #expect(v.directionalFrame(v.directionalFrame(r)) == r, "mirroring twice gives the frame back")
        #expect(CGRect(x: 0, y: 0, width: 10, height: 10).mirroredHorizontally(in: CGRect(x: 50, y: 0, width: 40, height: 10))
            == CGRect(x: 130, y: 0, width: 10, height: 10))
        #expect(CGRect.null.mirroredHorizontally(in: v.bounds).isNull)
    }

    @Test func changingTheDirectionLaysOutAndDrawsEveryViewAgain() throws {
        let window = Window(screen: Screen(device: .iPhone4))
        let outer = View()
        let row = Row(frame: CGRect(x: 0, y: 0, width: 200, height: 20))
        window.rootView = outer
        outer.addSubview(row)
        window.layoutIfNeeded()
        #expect(row.boxes.map(\.frame.minX) == [10, 40, 70])
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        #expect(window.dirtyRegion.isEmpty)
        let layouts = row.layouts
        window.userInterfaceLayoutDirection = .rightToLeft
        #expect(!window.dirtyRegion.isEmpty, "a change of direction repaints")
        window.layoutIfNeeded()
        #expect(row.layouts == layouts + 1, "a view nested below the root is laid out again")
        #expect(row.boxes.map(\.frame.minX) == [170, 140, 110], "the first box at the right")
        // Setting the same direction again does nothing.
        try host.renderFrame()
        window.userInterfaceLayoutDirection = .rightToLeft
        window.layoutIfNeeded()
        #expect(row.layouts == layouts + 1 && window.dirtyRegion.isEmpty)
        // Forcing one view back to left to right lays it out again, unmirrored.
        row.semanticContentAttribute = .forceLeftToRight
        window.layoutIfNeeded()
        #expect(row.boxes.map(\.frame.minX) == [10, 40, 70])
    }

    @Test func aRightToLeftRelayoutThatMovesNothingRepaintsNothing() throws {
        let window = Window(screen: Screen(device: .iPhone4))
        window.userInterfaceLayoutDirection = .rightToLeft
        let row = Row(frame: CGRect(x: 0, y: 0, width: 200, height: 20))
        window.rootView = View()
        window.rootView?.addSubview(row)
        window.layoutIfNeeded()
        #expect(row.boxes.map(\.frame.minX) == [170, 140, 110])
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        #expect(window.dirtyRegion.isEmpty)
        let layouts = row.layouts
        row.setNeedsLayout()
        window.layoutIfNeeded()
        #expect(row.layouts == layouts + 1)
        #expect(window.dirtyRegion.isEmpty, "each box was set once, to the frame it had: nothing to repaint")
        #expect(row.boxes.map(\.frame.minX) == [170, 140, 110])
        // A real change repaints the old and new places of the box that moved, and nothing else.
        row.gap = 40
        row.setNeedsLayout()
        window.layoutIfNeeded()
        #expect(row.boxes.map(\.frame.minX) == [170, 130, 90])
        let dirty = window.dirtyRegion.boundingBox
        #expect(dirty.minX >= 90 * 2 && dirty.maxX <= 160 * 2, "only the two moved boxes, in pixels: \(dirty)")
    }

    @Test func framesReadInsideTheMirroredLayoutAreAsWritten() {
        final class Chain: View {
            let a = View(), b = View(), unplaced = View(frame: CGRect(x: 0, y: 0, width: 30, height: 10))
            var readBack: [CGFloat] = []
            override init(frame: CGRect = .zero) {
                super.init(frame: frame)
                for v in [a, b, unplaced] { addSubview(v) }
            }
            override func layoutSubviews() {
                layoutMirroredForDirection {
                    a.frame = CGRect(x: 10, y: 0, width: 20, height: 20)
                    readBack = [a.frame.minX, a.center.x, a.bounds.width]
                    a.bounds.size.width = 30  // resized about its centre, still as written
                    b.frame = CGRect(x: a.frame.maxX + 5, y: 0, width: 20, height: 20)
                }
            }
        }
        let chain = Chain(frame: CGRect(x: 0, y: 0, width: 200, height: 20))
        chain.semanticContentAttribute = .forceRightToLeft
        chain.layoutIfNeeded()
        #expect(chain.readBack == [10, 20, 20], "read back left to right inside the layout")
        #expect(chain.a.frame == CGRect(x: 165, y: 0, width: 30, height: 20))
        #expect(chain.b.frame == CGRect(x: 140, y: 0, width: 20, height: 20), "placed after a's written right edge (35), mirrored")
        // A subview the layout does not place keeps its frame, however often the layout runs.
        for _ in 0..<3 {
            chain.setNeedsLayout()
            chain.layoutIfNeeded()
            #expect(chain.unplaced.frame == CGRect(x: 0, y: 0, width: 30, height: 10))
        }
        // Left to right the layout runs as written.
        chain.semanticContentAttribute = .forceLeftToRight
        chain.layoutIfNeeded()
        #expect(chain.a.frame == CGRect(x: 5, y: 0, width: 30, height: 20) && chain.b.frame.minX == 40)
    }

    @Test func aViewMovedIntoARightToLeftTreeIsLaidOutForIt() {
        let window = Window(screen: Screen(device: .iPhone4))
        window.userInterfaceLayoutDirection = .rightToLeft
        let outer = View()
        window.rootView = outer
        let holder = View(frame: CGRect(x: 0, y: 0, width: 200, height: 40))
        let row = Row(frame: CGRect(x: 0, y: 0, width: 200, height: 20))
        holder.addSubview(row)
        holder.layoutIfNeeded()
        #expect(row.boxes.map(\.frame.minX) == [10, 40, 70], "laid out left to right outside the window")
        outer.addSubview(holder)
        window.layoutIfNeeded()
        #expect(row.boxes.map(\.frame.minX) == [170, 140, 110])
    }

    @Test func naturalAlignmentIsTheLeadingEdge() throws {
        let label = Label(text: "Battery", fontSize: 12)
        label.frame = CGRect(x: 0, y: 0, width: 200, height: 20)
        label.alignment = .natural
        #expect(label.textRect.minX == 0)
        label.semanticContentAttribute = .forceRightToLeft
        #expect(abs(label.textRect.maxX - 200) < 0.001, "right to left, natural is the right edge, as UIKit's")
        label.alignment = .left
        #expect(label.textRect.minX == 0, "an explicit alignment does not turn")
    }

    @Test(arguments: [("ar", true), ("ar_EG", true), ("he-IL", true), ("fa_IR.UTF-8", true), ("ur", true), ("iw", true),
                      ("en", false), ("de_DE", false), ("es", false), ("az_Arab", true), ("ks_Deva", false), ("C", false), ("", false)])
    func languagesThatRunRightToLeft(language: String, rightToLeft: Bool) {
        #expect(Localization.layoutDirection(forLanguage: language) == (rightToLeft ? .rightToLeft : .leftToRight))
        #expect(Localization(directories: [], language: language).layoutDirection == (rightToLeft ? .rightToLeft : .leftToRight))
    }
}
