import CrispDemoApp

// The demo's declaration (its screens, languages and additions) is `DemoApplication` in
// CrispDemoApp, where its tests launch it too; `main()` gives it the emulator's command line.
DemoApplication.main()
