import CrispGraphics
import CrispUI
import Foundation
import Testing

@Suite struct ViewHierarchyTests {
    @Test func addRemoveAndWindow() {
        let window = makeWindow()
        let a = View(frame: CGRect(x: 10, y: 10, width: 50, height: 50))
        let b = View(frame: CGRect(x: 5, y: 5, width: 10, height: 10))
        a.addSubview(b)
        #expect(b.window == nil)
        window.addSubview(a)
        #expect(b.window === window)
        #expect(b.superview === a)
        #expect(b.isDescendant(of: window))
        b.removeFromSuperview()
        #expect(b.window == nil)
        #expect(a.subviews.isEmpty)
    }

    @Test func addingToAnotherSuperviewMovesTheView() {
        let a = View(), b = View(), c = View()
        a.addSubview(c)
        b.addSubview(c)
        #expect(a.subviews.isEmpty)
        #expect(b.subviews.count == 1)
        #expect(c.superview === b)
    }

    @Test func frameBoundsAndCenter() {
        let v = View(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        #expect(v.bounds == CGRect(x: 0, y: 0, width: 30, height: 40))
        #expect(v.center == CGPoint(x: 25, y: 40))
        v.center = CGPoint(x: 100, y: 100)
        #expect(v.frame == CGRect(x: 85, y: 80, width: 30, height: 40))
        v.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(v.frame == CGRect(x: 95, y: 95, width: 10, height: 10))
    }

    @Test func convertsPointsBetweenViews() {
        let window = makeWindow()
        let a = View(frame: CGRect(x: 10, y: 20, width: 50, height: 50))
        let b = View(frame: CGRect(x: 5, y: 7, width: 10, height: 10))
        let c = View(frame: CGRect(x: 30, y: 0, width: 10, height: 10))
        window.addSubview(a)
        a.addSubview(b)
        window.addSubview(c)
        #expect(b.convert(CGPoint(x: 1, y: 1), to: nil) == CGPoint(x: 16, y: 28))
        #expect(b.convert(CGPoint(x: 1, y: 1), to: c) == CGPoint(x: -14, y: 28))
        #expect(c.convert(CGPoint(x: -14, y: 28), to: b) == CGPoint(x: 1, y: 1))
        #expect(b.convert(CGPoint(x: 16, y: 28), from: nil) == CGPoint(x: 1, y: 1))
        #expect(b.convert(CGRect(x: 0, y: 0, width: 3, height: 4), to: a) == CGRect(x: 5, y: 7, width: 3, height: 4))
        // A scrolled bounds origin shifts the subviews.
        a.bounds = CGRect(x: 0, y: 10, width: 50, height: 50)
        #expect(b.convert(CGPoint.zero, to: nil) == CGPoint(x: 15, y: 17))
    }
}

@Suite struct HitTestingTests {
    func tree() -> (Window, View, View, View) {
        let window = makeWindow()
        let back = View(frame: CGRect(x: 0, y: 0, width: 60, height: 60))
        let front = View(frame: CGRect(x: 20, y: 20, width: 60, height: 60))
        let child = View(frame: CGRect(x: 10, y: 10, width: 100, height: 10))
        window.addSubview(back)
        window.addSubview(front)
        front.addSubview(child)
        return (window, back, front, child)
    }

    @Test func frontmostDeepestViewWins() {
        let (window, back, front, child) = tree()
        #expect(window.hitTest(CGPoint(x: 5, y: 5)) === back)
        #expect(window.hitTest(CGPoint(x: 25, y: 25)) === front)
        #expect(window.hitTest(CGPoint(x: 35, y: 35)) === child)
        #expect(window.hitTest(CGPoint(x: 90, y: 70)) === window)
        #expect(window.hitTest(CGPoint(x: 200, y: 5)) == nil)
    }

    @Test func edgesAreHalfOpen() {
        let (window, back, front, _) = tree()
        #expect(window.hitTest(CGPoint(x: 0, y: 0)) === back)
        #expect(window.hitTest(CGPoint(x: 19.99, y: 59.99)) === back)
        #expect(window.hitTest(CGPoint(x: 80, y: 30)) === window)
        _ = front
    }

    @Test func partOfASubviewOutsideItsSuperviewCannotBeHit() {
        let (window, _, _, child) = tree()
        // child spans x 30…130 in the window, but front ends at 80 and the window at 100.
        #expect(window.hitTest(CGPoint(x: 79, y: 35)) === child)
        #expect(window.hitTest(CGPoint(x: 85, y: 35)) === window)
    }

    @Test(arguments: ["hidden", "transparent", "noninteractive"])
    func skippedViews(_ kind: String) {
        let (window, back, front, _) = tree()
        switch kind {
        case "hidden": front.isHidden = true
        case "transparent": front.alpha = 0.005
        default: front.isUserInteractionEnabled = false
        }
        #expect(window.hitTest(CGPoint(x: 25, y: 25)) === back)
        #expect(window.hitTest(CGPoint(x: 35, y: 35)) === back)
    }
}

@Suite struct LayoutTests {
    @Test func layoutRunsOnceWhenNeeded() {
        let window = makeWindow()
        let v = RecordingView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(v)
        window.layoutIfNeeded()
        #expect(v.layoutCount == 1)
        window.layoutIfNeeded()
        #expect(v.layoutCount == 1)
        v.setNeedsLayout()
        #expect(window.needsFrame)
        window.layoutIfNeeded()
        #expect(v.layoutCount == 2)
    }

    @Test func aSizeChangeAsksForLayoutAMoveDoesNot() {
        let window = makeWindow()
        let v = RecordingView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(v)
        window.layoutIfNeeded()
        v.frame.origin = CGPoint(x: 5, y: 5)
        window.layoutIfNeeded()
        #expect(v.layoutCount == 1)
        v.frame.size = CGSize(width: 20, height: 10)
        window.layoutIfNeeded()
        #expect(v.layoutCount == 2)
    }

    @Test func layoutThatResizesASubviewLaysTheSubviewOutInTheSamePass() {
        final class Parent: View {
            let child = RecordingView()
            override init(frame: CGRect) {
                super.init(frame: frame)
                addSubview(child)
            }
            override func layoutSubviews() { child.frame = bounds.insetBy(dx: 2, dy: 2) }
        }
        let window = makeWindow()
        let p = Parent(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        window.addSubview(p)
        window.layoutIfNeeded()
        #expect(p.child.frame == CGRect(x: 2, y: 2, width: 36, height: 36))
        let before = p.child.layoutCount
        p.frame.size = CGSize(width: 60, height: 60)
        window.layoutIfNeeded()
        #expect(p.child.frame.size == CGSize(width: 56, height: 56))
        #expect(p.child.layoutCount == before + 1)
        #expect(!window.needsFrame || !window.dirtyRegion.isEmpty)
    }

    @Test func windowLaysOutStatusBarAndRootView() {
        let window = makeWindow(width: 320, height: 480)
        let bar = View(), root = View()
        window.statusBar = bar
        window.rootView = root
        window.layoutIfNeeded()
        #expect(bar.frame == CGRect(x: 0, y: 0, width: 320, height: 20))
        #expect(root.frame == CGRect(x: 0, y: 20, width: 320, height: 460))
        #expect(window.subviews.first === root)
    }
}
