import CrispGraphics
import CrispTestSupport
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// Every control as it looks, in each of its states, at 1× and 2×, in each theme (controls
/// without theme colours once per scale). Small canvases, compared exactly.
@Suite struct ControlGoldenTests {
    static let themeCases: [(Theme, CGFloat)] = Theme.all.flatMap { theme in [1, 2].map { (theme, CGFloat($0)) } }
    static let scales: [CGFloat] = [1, 2]
    static let picture = try! ResourceImage.load("photo.png")

    func check(_ canvas: ControlCanvas, _ area: String, _ theme: Theme?, _ scale: CGFloat,
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let name = (theme.map { "\($0.name)-" } ?? "") + "\(Int(scale))x"
        Golden.check(try canvas.snapshot(), area, name, sourceLocation: sourceLocation)
    }

    func themed<V: View & ThemeFollowing>(_ views: [V], _ theme: Theme) -> [View] {
        for v in views { v.theme = theme }
        return views
    }

    @Test(arguments: themeCases)
    func toggle(theme: Theme, scale: CGFloat) throws {
        let views = themed([ToggleButtonView(icon: .star), ToggleButtonView(icon: .shield, isActive: true),
                            ToggleButtonView(icon: .bolt, isActive: true), ToggleButtonView(icon: .flag)], theme)
        try check(ControlCanvas(cell: CGSize(width: 36, height: 36), scale: scale, views: views), "toggle", theme, scale)
    }

    /// GPS off, GPS on in error, network on, sound off, and GPS on and pulsing (a frame of its
    /// animation).
    @Test(arguments: themeCases)
    func serviceSwitch(theme: Theme, scale: CGFloat) throws {
        let pulsing = ServiceSwitchView(symbol: .gps, isOn: true)
        let views = themed([ServiceSwitchView(symbol: .gps, isOn: false),
                            ServiceSwitchView(symbol: .gps, isOn: true, hasError: true),
                            ServiceSwitchView(symbol: .network, isOn: true),
                            ServiceSwitchView(symbol: .sound, isOn: false), pulsing], theme)
        let canvas = try ControlCanvas(cell: CGSize(width: 56, height: 28), scale: scale, views: views)
        pulsing.pulsePhase = 0.3
        try check(canvas, "service-switch", theme, scale)
    }

    @Test(arguments: themeCases)
    func controlBar(theme: Theme, scale: CGFloat) throws {
        let bar = ControlBarView()
        let canvas = try ControlCanvas(cell: CGSize(width: 308, height: 40), scale: scale, views: [bar])
        canvas.window.applyTheme(theme)
        try check(canvas, "control-bar", theme, scale)
    }

    @Test(arguments: themeCases)
    func slider(theme: Theme, scale: CGFloat) throws {
        let views = themed([SliderView(range: 1...8, value: 1), SliderView(range: 1...8, value: 3.7)], theme)
        try check(ControlCanvas(cell: CGSize(width: 120, height: 24), scale: scale, views: views), "slider", theme, scale)
    }

    @Test(arguments: themeCases)
    func compass(theme: Theme, scale: CGFloat) throws {
        let views = themed([CompassView(inaccuracy: 0), CompassView(inaccuracy: 12), CompassView(inaccuracy: 75)], theme)
        try check(ControlCanvas(cell: CGSize(width: 90, height: 96), scale: scale, views: views), "compass", theme, scale)
    }

    /// Normal and pressed with the picture, and normal without it (a missing file).
    @Test(arguments: themeCases)
    func bitmapButton(theme: Theme, scale: CGFloat) throws {
        let pressed = BitmapButtonView(image: Self.picture)
        pressed.isPressed = true
        let views = themed([BitmapButtonView(image: Self.picture), pressed, BitmapButtonView(image: nil)], theme)
        try check(ControlCanvas(cell: CGSize(width: 64, height: 64), scale: scale, views: views), "bitmap-button", theme, scale)
    }

    @Test(arguments: themeCases)
    func glowBubble(theme: Theme, scale: CGFloat) throws {
        let views = themed([GlowBubbleView(image: Self.picture), GlowBubbleView(image: nil)], theme)
        try check(ControlCanvas(cell: CGSize(width: 72, height: 72), scale: scale, views: views), "glow-bubble", theme, scale)
    }

    @Test(arguments: themeCases)
    func tabBar(theme: Theme, scale: CGFloat) throws {
        let star = CGMutablePath(), flag = CGMutablePath()
        star.addPath(ToggleIcon.star.path(in: CGRect(x: 0, y: 0, width: 1, height: 1)))
        flag.addPath(ToggleIcon.flag.path(in: CGRect(x: 0, y: 0, width: 1, height: 1)))
        let bar = TabBarView(items: [TabBarView.Item(name: "a", titleKey: "Stars", icon: star),
                                     TabBarView.Item(name: "b", titleKey: "Flags", icon: flag)])
        bar.selectedIndex = 1
        bar.theme = theme
        try check(ControlCanvas(cell: CGSize(width: 240, height: TabBarView.height), inset: 0, scale: scale, views: [bar]),
                  "tab-bar", theme, scale)
    }

    @Test(arguments: themeCases)
    func zoomPanel(theme: Theme, scale: CGFloat) throws {
        let panel = ZoomPanelView()
        panel.theme = theme
        try check(ControlCanvas(cell: CGSize(width: 150, height: 150), scale: scale, views: [panel]), "zoom-panel", theme, scale)
    }

    /// The zoom levels of the issue: 1×, 3.7× and 8×, each drawn again from the vectors.
    @Test(arguments: [1, 3.7, 8] as [CGFloat], scales)
    func zoomLevel(zoom: CGFloat, scale: CGFloat) throws {
        let panel = ZoomPanelView()
        panel.zoom = zoom
        let canvas = try ControlCanvas(cell: CGSize(width: 150, height: 150), scale: scale, views: [panel])
        Golden.check(try canvas.snapshot(), "zoom-level", "\(ControlState.string(zoom))-\(Int(scale))x")
    }

    /// Full, just above the red zone (the colours blending), low, empty.
    @Test(arguments: scales)
    func battery(scale: CGFloat) throws {
        let views = [100, 80, 25, 15, 0].map { BatteryGaugeView(level: $0) }
        try check(ControlCanvas(cell: CGSize(width: 100, height: 36), scale: scale, views: views), "battery", nil, scale)
    }

    @Test(arguments: scales)
    func checkBox(scale: CGFloat) throws {
        let unchecked = CheckBox()
        unchecked.checked = false
        try check(ControlCanvas(cell: CGSize(width: 28, height: 28), scale: scale, views: [CheckBox(), unchecked]), "checkbox", nil, scale)
    }

    /// Off, on, and the knob dragged half way.
    @Test(arguments: scales)
    func uiSwitch(scale: CGFloat) throws {
        let half = SwitchView()
        half.knobPosition = 0.5
        try check(ControlCanvas(cell: CGSize(width: 79, height: 27), scale: scale, views: [SwitchView(), SwitchView(isOn: true), half]),
                  "uiswitch", nil, scale)
    }

    @Test(arguments: scales)
    func themeSwatches(scale: CGFloat) throws {
        let swatches = Theme.all.map { ThemeSwatchView(theme: $0) }
        swatches[2].isSelected = true
        try check(ControlCanvas(cell: CGSize(width: 40, height: 40), scale: scale, views: swatches), "theme-swatch", nil, scale)
    }
}
