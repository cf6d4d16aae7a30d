import CrispApp

/// The app: two screens, its own strings (English and German), every key and flag of the
/// emulator.
public enum HelloApp: CrispApplication {
    public static let name = "Hello"
    public static var screens: [AppScreen] {
        [
            AppScreen(name: "tiles", title: "Tiles", tabIcon: TilesView.icon) { _ in TilesView() },
            AppScreen(name: "about", title: "About") { _ in AboutView() },
        ]
    }
    public static var resourcesFolder: URL? { Bundle.module.bundleURL.appendingPathComponent("Resources") }
}
