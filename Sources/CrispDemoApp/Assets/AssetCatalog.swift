import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The demo's screens and controls as an app drawn in bitmaps would ship them: the items of the
/// asset report, each at the size the demo gives it on every device.
///
/// A new screen adds its items to `demo(tabIcons:image:)` (its tab icon comes with the icons the
/// app passes in).
public enum AssetCatalog {
    /// A screen's tab icon, for the report's `tab.<name>` item.
    public struct TabIcon: @unchecked Sendable {
        /// The screen's name, like `signal`.
        public var name: String
        /// The icon in a unit square.
        public var icon: CGPath
        /// The mangled-name prefixes of the code that makes the icon (see `SymbolSizes`).
        public var codePrefixes: [String]

        /// An icon.
        public init(name: String, icon: CGPath, codePrefixes: [String]) {
            self.name = name
            self.icon = icon
            self.codePrefixes = codePrefixes
        }

        /// The icon of the screen `type`, made by its `tabIcon` getter.
        public init(_ type: any DemoScreen.Type) {
            let prefix = SymbolSizes.typePrefix(module: "CrispDemoApp", type: String(describing: type))
            self.init(name: type.name, icon: type.tabIcon, codePrefixes: [prefix + "7tabIcon"])
        }

        /// The assets screen's own icon, made by `AssetsScreen.icon` (the app needs it before
        /// the screen exists).
        public static let assets = TabIcon(name: "assets", icon: AssetsScreen.icon,
                                           codePrefixes: [SymbolSizes.typePrefix(module: "CrispDemoApp", type: "AssetsScreen") + "4icon"])
    }

    /// The area between the status bar and the tab bar on `device`, where screens go, in points.
    public static func screenSize(_ device: Device) -> CGSize {
        CGSize(width: device.pointSize.width, height: device.pointSize.height - Screen.statusBarHeight - TabBarView.height)
    }

    /// The controls screen's layout on `device`.
    static func controls(_ device: Device) -> ControlsLayout { ControlsLayout.fitting(screenSize(device)) }

    /// The size the control bar gives its toggles and switches on `device`.
    static func barParts(_ device: Device) -> (toggle: CGSize, serviceSwitch: CGSize) {
        let bar = ControlBarView()
        bar.frame = CGRect(origin: .zero, size: controls(device).bar.size)
        bar.layoutIfNeeded()
        return (bar.toggles[0].frame.size, bar.gpsSwitch.frame.size)
    }

    private static func code(_ module: String, _ types: String...) -> [String] {
        types.map { SymbolSizes.typePrefix(module: module, type: $0) }
    }

    /// Every item, in the order of the screens: the signal screen's background (graph without
    /// its data: axes and their labels), the controls screen's bar and every control in every
    /// state, the plot's background (axes, ticks, labels), a bubble at eleven values, and the tab
    /// icons.
    ///
    /// - Parameters:
    ///   - tabIcons: the app's screens' icons, in tab order.
    ///   - image: the picture in the bitmap button and the glow bubble.
    public static func demo(tabIcons: [TabIcon], image: CGImage? = try? ResourceImage.load(ControlsScreen.imageName)) -> [AssetItem] {
        var items: [AssetItem] = []
        items.append(AssetItem(name: "signal.background", size: screenSize, codePrefixes: code("CrispWidgets", "SignalGraphView", "AxisView")) { _ in
            let graph = SignalGraphView()
            graph.plot.isHidden = true
            return graph
        })
        items.append(AssetItem(name: "controls.bar", size: { controls($0).bar.size }, codePrefixes: code("CrispWidgets", "ControlBarView")) { _ in
            let bar = ControlBarView()
            for v in bar.toggles as [View] + bar.switches { v.isHidden = true }
            return bar
        })
        let toggleStates = ToggleIcon.allCases.flatMap { icon in ["on", "off"].map { "\(icon).\($0)" } }
        items.append(AssetItem(name: "toggles", states: toggleStates, size: { barParts($0).toggle },
                               codePrefixes: code("CrispWidgets", "ToggleButtonView") + [SymbolSizes.typePrefix(module: "CrispWidgets", type: "ToggleIcon", kind: "O")]) { s in
            let icon = ToggleIcon.allCases.first { s.state.hasPrefix("\($0).") }!
            return ToggleButtonView(icon: icon, isActive: s.state.hasSuffix(".on"))
        })
        let switchStates = ServiceSymbol.allCases.flatMap { symbol in ["off", "on", "error"].map { "\(symbol.rawValue).\($0)" } }
        items.append(AssetItem(name: "switches", states: switchStates, size: { barParts($0).serviceSwitch },
                               codePrefixes: code("CrispWidgets", "ServiceSwitchView") + [SymbolSizes.typePrefix(module: "CrispWidgets", type: "ServiceSymbol", kind: "O")]) { s in
            let symbol = ServiceSymbol.allCases.first { s.state.hasPrefix("\($0.rawValue).") }!
            return ServiceSwitchView(symbol: symbol, isOn: !s.state.hasSuffix(".off"), hasError: s.state.hasSuffix(".error"))
        })
        items.append(AssetItem(name: "zoom", states: ["1x", "2x", "4x", "8x"], size: { controls($0).zoomPanel.size },
                               codePrefixes: code("CrispWidgets", "ZoomPanelView", "SliderView")) { s in
            let panel = ZoomPanelView()
            panel.zoom = CGFloat(Int(s.state.dropLast())!)
            return panel
        })
        items.append(AssetItem(name: "battery", states: stride(from: 0, through: 100, by: 10).map { "\($0)" },
                               size: { controls($0).battery.size }, codePrefixes: code("CrispWidgets", "BatteryGaugeView")) { s in
            BatteryGaugeView(level: CGFloat(Int(s.state)!))
        })
        items.append(AssetItem(name: "compass", states: ["5", "15", "30", "60"], size: { controls($0).compass.size },
                               codePrefixes: code("CrispWidgets", "CompassView")) { s in
            CompassView(inaccuracy: CGFloat(Int(s.state)!))
        })
        items.append(AssetItem(name: "bitmapbutton", states: ["released", "pressed"], size: { controls($0).bitmapButton.size },
                               codePrefixes: code("CrispWidgets", "BitmapButtonView")) { s in
            let button = BitmapButtonView(image: image)
            button.isPressed = s.state == "pressed"
            return button
        })
        items.append(AssetItem(name: "bubble.glow", size: { controls($0).glowBubble.size }, codePrefixes: code("CrispWidgets", "GlowBubbleView")) { _ in
            GlowBubbleView(image: image)
        })
        items.append(AssetItem(name: "checkbox", states: ["on", "off"], size: { controls($0).checkBox.size }, codePrefixes: code("CrispWidgets", "CheckBox")) { s in
            let box = CheckBox()
            box.checked = s.state == "on"
            return box
        })
        items.append(AssetItem(name: "uiswitch", states: ["on", "off"], size: { controls($0).uiSwitch.size }, codePrefixes: code("CrispWidgets", "SwitchView")) { s in
            SwitchView(isOn: s.state == "on")
        })
        let swatchStates = Theme.all.flatMap { [$0.name, "\($0.name).selected"] }
        items.append(AssetItem(name: "swatches", states: swatchStates, size: { controls($0).swatches[0].size },
                               codePrefixes: code("CrispWidgets", "ThemeSwatchView")) { s in
            let swatch = ThemeSwatchView(theme: Theme.all.first { s.state.hasPrefix($0.name) }!)
            swatch.isSelected = s.state.hasSuffix(".selected")
            return swatch
        })
        items.append(AssetItem(name: "plot.background", size: screenSize, codePrefixes: code("CrispWidgets", "ScatterPlotView", "RightHandedView")) { _ in
            ScatterPlotView(points: [], xRange: 0...6, yRange: 0...4)
        })
        // A bubble draws any value at any size; eleven values at one size (a third of the
        // screen's shorter side, the size of the larger bubbles) stand in for what a bitmap
        // app would ship.
        items.append(AssetItem(name: "bubbles", states: stride(from: 0, through: 100, by: 10).map { "\($0)" },
                               size: { device in
                                   let side = (min(screenSize(device).width, screenSize(device).height) / 3).rounded()
                                   return CGSize(width: side, height: side)
                               },
                               codePrefixes: code("CrispWidgets", "BubbleView")) { s in
            BubbleView(percentValue: CGFloat(Int(s.state)!) / 100)
        })
        for tab in tabIcons {
            items.append(AssetItem(name: "tab.\(tab.name)", states: ["normal", "selected"], size: { _ in tabIconSize }, codePrefixes: tab.codePrefixes) { s in
                TabIconView(icon: tab.icon, isSelected: s.state == "selected")
            })
        }
        return items
    }

    /// A tab icon's size in the tab bar, in points.
    static let tabIconSize: CGSize = {
        let bar = TabBarView(items: [TabBarView.Item(name: "", titleKey: "", icon: CGMutablePath())])
        bar.frame = CGRect(x: 0, y: 0, width: 320, height: TabBarView.height)
        return bar.iconRect(0).size
    }()

    /// A tab icon by itself, drawn as the tab bar draws it.
    final class TabIconView: View, ThemeFollowing {
        let icon: CGPath
        let isSelected: Bool
        var theme: Theme = .blue { didSet { setNeedsDisplay() } }

        init(icon: CGPath, isSelected: Bool) {
            self.icon = icon
            self.isSelected = isSelected
            super.init()
        }

        override func draw(_ rect: CGRect) {
            guard let ctx = UIGraphicsGetCurrentContext() else { return }
            TabBarView.drawIcon(icon, in: bounds, isSelected: isSelected, theme: theme, context: ctx)
        }
    }
}
