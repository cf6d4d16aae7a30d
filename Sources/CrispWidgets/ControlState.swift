import Foundation

/// How controls spell their values in `state` lines: `on`/`off`, plain numbers with at most
/// three decimals and no trailing zeros (`12`, `3.7`, `0.125`), or names.
public enum ControlState {
    /// `on` or `off`.
    public static func string(_ isOn: Bool) -> String { isOn ? "on" : "off" }

    /// `value` rounded to three decimals, without trailing zeros or a lone point; `-0` reads `0`.
    public static func string(_ value: CGFloat) -> String {
        let rounded = (Double(value) * 1000).rounded() / 1000
        var s = String(format: "%.3f", rounded == 0 ? 0 : rounded)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }
}

extension CGFloat {
    /// The value rounded to `places` decimals.
    func rounded(toPlaces places: Int) -> CGFloat {
        let f = CGFloat(pow(10.0, Double(places)))
        return (self * f).rounded() / f
    }
}
