/// UIKit's name for `View`, so ported code compiles as written: subclass it, `init(frame:)`,
/// override `draw(_:)`, `layoutSubviews()`, `touchesBegan(_:)`.
public typealias UIView = View

/// UIKit's name for `Window`.
public typealias UIWindow = Window

/// Core Animation's name for `Layer`.
public typealias CALayer = Layer
