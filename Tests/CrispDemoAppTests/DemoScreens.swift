import CrispApp
import CrispDemoApp

/// The demo's screens, typed, on an app launched as a user's tests launch theirs:
/// `AppController(application: DemoApplication.self, configuration: …)`, each screen's root
/// view found with `view(forScreen:)`.
extension AppController {
    var signalScreen: SignalScreen { view(forScreen: SignalScreen.name) as! SignalScreen }
    var controlsScreen: ControlsScreen { view(forScreen: ControlsScreen.name) as! ControlsScreen }
    var plotScreen: PlotScreen { view(forScreen: PlotScreen.name) as! PlotScreen }
    var bubblesScreen: BubblesScreen { view(forScreen: BubblesScreen.name) as! BubblesScreen }
    var assetsScreen: AssetsScreen { view(forScreen: AssetsScreen.name) as! AssetsScreen }
}
