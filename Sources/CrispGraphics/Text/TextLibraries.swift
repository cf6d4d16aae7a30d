import CFontconfig
import CHarfBuzz

/// The versions of the system libraries Crisp's text stack uses: HarfBuzz (shaping) and
/// fontconfig (finding the system's fonts). For diagnostics (`crisp --version`, bug reports).
public enum TextLibraries {
    /// HarfBuzz's version, as "6.0.0".
    public static var harfBuzzVersion: String { String(cString: hb_version_string()) }
    /// fontconfig's version, as "2.14.1".
    public static var fontconfigVersion: String {
        let v = Int(FcGetVersion())
        return "\(v / 10000).\(v / 100 % 100).\(v % 100)"
    }
}
