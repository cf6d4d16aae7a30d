import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
@_spi(Testing) import CrispWidgets
import Foundation
import Testing

/// The theme cross-fade repaints only what shows the theme — toggles only while active, service
/// switches only while on or pulsing, the compass its wedge — and each frame, painted that
/// way, is the frame a full repaint of the same moment gives.
///
/// Bit for bit when every frame before the fade was drawn straight onto the screen. As the app
/// runs, the themed controls start with cached contents (`cachesThemedContents`, off while the
/// theme fades): the pixels a fade frame does not repaint are then the cache's — the compass
/// drawn into a transparent bitmap and composited — where a full repaint draws it straight over
/// its background, and anti-aliased edges round differently by one level (74 pixels on the
/// phone, 155 on the iPad, all on the compass outside its wedge). So the app's own sequence is
/// held to one level, and the sequence without the cache to none.
@Suite struct ThemeFadeTests {
    @Test(arguments: [Device.iPhone4, Device.iPadRetina], [true, false])
    func eachFrameOfAFadeEqualsAFullRepaint(device: Device, startsCached: Bool) throws {
        // `f` repaints as the app does; `g` repaints everything every frame: the truth.
        let f = try LoupeTests().fixture("controls", device: device)
        let g = try LoupeTests().fixture("controls", device: device)
        if !startsCached {
            for x in [f, g] {
                x.app.controlsScreen.cachesThemedContents = false
                x.window.invalidateEverything()
                try x.host.renderFrame()
            }
        }
        let bar = startsCached ? 1 : 0
        for x in [f, g] { x.app.setTheme(.gold) }
        var repainted: [Int] = []
        for _ in 0..<4 {
            f.clock.now += 0.07
            f.window.eventLoop.runDueWork()
            repainted.append(f.window.dirtyRegion.rects.reduce(0) { $0 + Int($1.width * $1.height) })
            try f.host.renderFrame()
            g.clock.now += 0.07
            g.window.eventLoop.runDueWork()
            g.window.invalidateEverything()
            try g.host.renderFrame()
            let painted = try #require(f.host.context.makeImage()), truth = try #require(g.host.context.makeImage())
            let worst = Self.largestChannelDifference(painted, truth)
            #expect(worst.levels <= bar, "a fade frame differs from a full repaint by \(worst.levels) levels at \(worst.at)")
        }
        // The themed controls' rectangles cover 46 % of the phone's screen and 45 % of the
        // iPad's (50 % on the phone in the fade's first frame); before, they merged into the
        // whole screen below the status bar.
        let screen = f.host.context.width * f.host.context.height
        #expect(repainted.allSatisfy { $0 > 0 && $0 * 3 < screen * 2 }, "repainted \(repainted) of \(screen) px")
        try f.wait(AppController.themeFadeDuration)
        #expect(!f.app.isFadingTheme)
    }

    @Test func aThemeChangeRepaintsOnlyWhatShowsTheTheme() throws {
        let f = try LoupeTests().fixture("controls", device: .iPhone4)
        let screen = f.app.controlsScreen
        let inactive = try #require(screen.bar.toggles.first { !$0.isActive })
        let active = try #require(screen.bar.toggles.first { $0.isActive })
        var invalidated: [CGRect] = []
        f.window.invalidationObserver = { invalidated.append($0) }
        inactive.theme = .red
        #expect(invalidated.isEmpty, "an inactive toggle shows no theme colour")
        active.theme = .red
        #expect(invalidated == [active.convert(active.bounds, to: nil)])
        invalidated = []
        let off = try #require(screen.bar.switches.first { !$0.isOn })
        off.theme = .red
        #expect(invalidated.isEmpty, "a switch that is off shows no theme colour")
        let compass = screen.compass
        compass.theme = .red
        let wedge = compass.convert(try #require(compass.wedgePath()).boundingBoxOfPath, to: nil)
        let area = try #require(invalidated.first)
        #expect(invalidated.count == 1)
        #expect(area.minX <= wedge.minX && area.minY <= wedge.minY && area.maxX >= wedge.maxX && area.maxY >= wedge.maxY,
                "\(area) holds the wedge \(wedge)")
        #expect(area.width * area.height < compass.bounds.width * compass.bounds.height / 3, "only the wedge: \(area)")
        compass.inaccuracy = 0
        invalidated = []
        compass.theme = .gold
        #expect(invalidated.isEmpty, "a compass at 0° shows no wedge")
    }

    /// The largest difference of one channel between two images of one size, and where.
    static func largestChannelDifference(_ a: CGImage, _ b: CGImage) -> (levels: Int, at: String) {
        var worst = (levels: 0, at: "")
        let pa = a.pixels, pb = b.pixels
        for i in pa.indices where pa[i] != pb[i] {
            for shift in stride(from: 0, through: 24, by: 8) {
                let d = abs(Int((pa[i] >> UInt32(shift)) & 0xFF) - Int((pb[i] >> UInt32(shift)) & 0xFF))
                if d > worst.levels { worst = (d, "(\(i % a.width), \(i / a.width))") }
            }
        }
        return worst
    }
}
