import CX11
import Foundation

/// The desktop's scale (device-independent pixels to screen pixels), read as the toolkits users
/// already have read it (winit, SDL, GTK and Qt agree on the order): `CRISP_SCALE` in the
/// environment, then XSETTINGS `Xft/DPI` (÷ 1024 ÷ 96), then the root window's
/// `RESOURCE_MANAGER` `Xft.dpi` (÷ 96), then the primary XRandR output's pixels and millimetres
/// (the core screen's without RandR). A source that
/// says nothing, or something absurd (not a number, ≤ 0, outside 0.5…8×), is passed over; 1×
/// when none says anything.
public struct DesktopScale: Equatable, Sendable, CustomStringConvertible {
    /// Screen pixels per desktop point (1 on a 96-dpi desktop, 2 on a 192-dpi one).
    public var scale: Double
    /// The display's dots per inch for real-size drawing: from its millimetres when it reports
    /// sane ones, else 96 × `scale`.
    public var dotsPerInch: Double
    /// Where `scale` came from: `CRISP_SCALE`, `XSETTINGS`, `Xft.dpi`, `millimetres` or `default`.
    public var source: String

    /// Creates a reading.
    public init(scale: Double, dotsPerInch: Double, source: String) {
        self.scale = scale
        self.dotsPerInch = dotsPerInch
        self.source = source
    }

    public var description: String { "\(scale)× from \(source), \(dotsPerInch) dpi" }

    /// The sane range of scales.
    static let range: ClosedRange<Double> = 0.5...8

    /// `value` when it is a sane scale.
    static func sane(_ value: Double?) -> Double? {
        guard let value, value.isFinite, range.contains(value) else { return nil }
        return value
    }

    /// The scale `CRISP_SCALE` gives (a decimal like `2` or `1.5`).
    public static func fromEnvironment(_ value: String?) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return sane(Double(value))
    }

    /// The scale the `Xft.dpi` resource in `resources` (the text of `RESOURCE_MANAGER`, one
    /// `name:\tvalue` a line) gives: dpi ÷ 96.
    public static func fromResources(_ resources: String) -> Double? {
        for line in resources.split(whereSeparator: { $0 == "\n" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard name == "Xft.dpi" || name == "*Xft.dpi" || name == "*.Xft.dpi" else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return Double(value).flatMap { sane($0 / 96) }
        }
        return nil
    }

    /// The scale the XSETTINGS `Xft/DPI` setting in `settings` (the bytes of the manager's
    /// `_XSETTINGS_SETTINGS` property) gives: the integer ÷ 1024 ÷ 96. Nil for a malformed
    /// property or none of that name.
    public static func fromXSettings(_ settings: [UInt8]) -> Double? {
        guard settings.count >= 12 else { return nil }
        let bigEndian = settings[0] != 0
        func card16(_ at: Int) -> Int? {
            guard at + 2 <= settings.count else { return nil }
            let a = Int(settings[at]), b = Int(settings[at + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        func card32(_ at: Int) -> UInt32? {
            guard at + 4 <= settings.count else { return nil }
            let bytes = settings[at..<at + 4].map(UInt32.init)
            return bigEndian ? bytes[0] << 24 | bytes[1] << 16 | bytes[2] << 8 | bytes[3]
                             : bytes[3] << 24 | bytes[2] << 16 | bytes[1] << 8 | bytes[0]
        }
        func padded(_ n: Int) -> Int { (n + 3) & ~3 }
        guard let count = card32(8) else { return nil }
        var at = 12
        for _ in 0..<min(Int(count), 10_000) {
            guard at + 4 <= settings.count, let nameLength = card16(at + 2) else { return nil }
            let type = settings[at]
            let nameStart = at + 4
            guard nameStart + nameLength <= settings.count else { return nil }
            let name = String(decoding: settings[nameStart..<nameStart + nameLength], as: UTF8.self)
            at = nameStart + padded(nameLength) + 4 // the name, then the last-change serial
            switch type {
            case 0:
                guard let raw = card32(at) else { return nil }
                if name == "Xft/DPI" { return sane(Double(Int32(bitPattern: raw)) / 1024 / 96) }
                at += 4
            case 1:
                guard let length = card32(at) else { return nil }
                at += 4 + padded(Int(length))
            case 2:
                at += 8
            default:
                return nil
            }
        }
        return nil
    }

    /// The display's dots per inch from its size in pixels and millimetres (nil for 0 mm or an
    /// absurd result: below 48 or above 768 dpi).
    public static func dotsPerInch(pixels: Int, millimetres: Int) -> Double? {
        guard pixels > 0, millimetres > 0 else { return nil }
        let dpi = Double(pixels) / (Double(millimetres) / 25.4)
        return dpi.isFinite && (48...768).contains(dpi) ? dpi : nil
    }

    /// Chooses from what each source says, in order.
    public static func choose(environment: String?, xsettings: [UInt8]?, resources: String?,
                              pixels: Int, millimetres: Int) -> DesktopScale {
        let measured = dotsPerInch(pixels: pixels, millimetres: millimetres)
        func reading(_ scale: Double, _ source: String) -> DesktopScale {
            DesktopScale(scale: scale, dotsPerInch: measured ?? 96 * scale, source: source)
        }
        if let s = fromEnvironment(environment) { return reading(s, "CRISP_SCALE") }
        if let xsettings, let s = fromXSettings(xsettings) { return reading(s, "XSETTINGS") }
        if let resources, let s = fromResources(resources) { return reading(s, "Xft.dpi") }
        // Whole and half steps from the measured density, as toolkits round it.
        if let dpi = measured, let s = sane(((dpi / 96) * 2).rounded() / 2) { return reading(s, "millimetres") }
        return reading(1, "default")
    }

    /// One output's measure as XRandR reports it, for `primaryMeasure(_:)`.
    public struct OutputMeasure: Equatable, Sendable {
        /// Pixels across the output's CRTC, and the output's millimetres along that side.
        public var pixels: Int, millimetres: Int
        /// Whether the output is the primary one, and whether it is connected and showing (a CRTC).
        public var isPrimary: Bool, isActive: Bool
        public init(pixels: Int, millimetres: Int, isPrimary: Bool, isActive: Bool) {
            self.pixels = pixels
            self.millimetres = millimetres
            self.isPrimary = isPrimary
            self.isActive = isActive
        }
    }

    /// The pixels and millimetres to measure the display by: the primary output's when it is
    /// active, else the first active one's; nil when none is. Its millimetres may be 0 (a
    /// virtual or unknown display): `choose` then passes over them (1×).
    public static func primaryMeasure(_ outputs: [OutputMeasure]) -> (pixels: Int, millimetres: Int)? {
        guard let o = outputs.first(where: { $0.isPrimary && $0.isActive }) ?? outputs.first(where: \.isActive) else { return nil }
        return (o.pixels, o.millimetres)
    }

    /// The scale without a display: `CRISP_SCALE`, else 1×.
    public static func withoutDisplay(environment: [String: String] = ProcessInfo.processInfo.environment) -> DesktopScale {
        choose(environment: environment["CRISP_SCALE"], xsettings: nil, resources: nil, pixels: 0, millimetres: 0)
    }
}

extension X11Host {
    /// Reads the desktop's scale from the server (and `CRISP_SCALE`).
    func readDesktopScale() -> DesktopScale {
        let screen = XDefaultScreen(display)
        let root = XRootWindow(display, screen)
        let resources = propertyBytes(of: root, XInternAtom(display, "RESOURCE_MANAGER", False)).map {
            String(decoding: $0, as: UTF8.self)
        }
        var xsettings: [UInt8]?
        let owner = XGetSelectionOwner(display, XInternAtom(display, "_XSETTINGS_S\(screen)", False))
        if owner != 0 {
            if owner != xsettingsOwner {
                // Follow the manager's window (its settings change there).
                _ = withTrappedXErrors(display) { XSelectInput(display, owner, PropertyChangeMask | StructureNotifyMask) }
                xsettingsOwner = owner
            }
            xsettings = propertyBytes(of: owner, XInternAtom(display, "_XSETTINGS_SETTINGS", False))
        }
        let measure = randrMeasure(root: root)
            ?? (pixels: Int(XDisplayWidth(display, screen)), millimetres: Int(XDisplayWidthMM(display, screen)))
        return DesktopScale.choose(environment: ProcessInfo.processInfo.environment["CRISP_SCALE"], xsettings: xsettings,
                                   resources: resources, pixels: measure.pixels, millimetres: measure.millimetres)
    }

    /// The primary XRandR output's pixels across and millimetres along them (see
    /// `DesktopScale.primaryMeasure`); nil without RandR 1.3 or an active output.
    func randrMeasure(root: XID) -> (pixels: Int, millimetres: Int)? {
        var eventBase: Int32 = 0, errorBase: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
        guard XRRQueryExtension(display, &eventBase, &errorBase) != 0, XRRQueryVersion(display, &major, &minor) != 0,
              major > 1 || (major == 1 && minor >= 3) else { return nil }
        let (found, _) = withTrappedXErrors(display) { () -> [DesktopScale.OutputMeasure] in
            guard let resources = XRRGetScreenResourcesCurrent(display, root) else { return [] }
            defer { XRRFreeScreenResources(resources) }
            let primary = XRRGetOutputPrimary(display, root)
            var outputs: [DesktopScale.OutputMeasure] = []
            for i in 0..<Int(max(resources.pointee.noutput, 0)) {
                let output = resources.pointee.outputs[i]
                guard let info = XRRGetOutputInfo(display, resources, output) else { continue }
                defer { XRRFreeOutputInfo(info) }
                var measure = DesktopScale.OutputMeasure(pixels: 0, millimetres: 0, isPrimary: output == primary, isActive: false)
                if Int(info.pointee.connection) == Int(RR_Connected), info.pointee.crtc != 0,
                   let crtc = XRRGetCrtcInfo(display, resources, info.pointee.crtc) {
                    // A CRTC turned a quarter shows the output's height across.
                    let turned = Int(crtc.pointee.rotation) & Int(RR_Rotate_90 | RR_Rotate_270) != 0
                    measure.pixels = Int(crtc.pointee.width)
                    measure.millimetres = Int(clamping: turned ? info.pointee.mm_height : info.pointee.mm_width)
                    measure.isActive = measure.pixels > 0
                    XRRFreeCrtcInfo(crtc)
                }
                outputs.append(measure)
            }
            return outputs
        }
        return DesktopScale.primaryMeasure(found)
    }

    /// The bytes of `property` on `window` (any type, 8-bit format), or nil when it has none.
    private func propertyBytes(of window: XID, _ property: Atom) -> [UInt8]? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let (status, _) = withTrappedXErrors(display) {
            XGetWindowProperty(display, window, property, 0, 1 << 20, False, Atom(AnyPropertyType),
                               &type, &format, &count, &after, &data)
        }
        defer { if let data { XFree(data) } }
        guard status == Success, let data, format == 8, count > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(count)))
    }
}
