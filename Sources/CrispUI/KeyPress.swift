/// A key going down, as a host reports it to a window.
public struct KeyPress: Equatable, Sendable {
    /// Keys that produce no text but matter to apps.
    public enum SpecialKey: Equatable, Sendable {
        /// Escape.
        case escape
        /// Return or Enter.
        case enter
        /// Tab.
        case tab
        /// Backspace (deletes backwards).
        case backspace
        /// Delete (deletes forwards).
        case delete
        /// The left arrow.
        case left
        /// The right arrow.
        case right
        /// The up arrow.
        case up
        /// The down arrow.
        case down
        /// Tab with Shift held (X11's ISO_Left_Tab).
        case backTab
    }

    /// The text the key types with the current modifiers (empty for keys that type nothing).
    public var characters: String
    /// The special key, if it is one.
    public var specialKey: SpecialKey?
    /// Whether Control was held (the Simulator's ⌘ shortcuts are Ctrl ones here: Ctrl+Left).
    public var isControlDown: Bool

    /// Creates a key press.
    public init(characters: String, specialKey: SpecialKey? = nil, isControlDown: Bool = false) {
        self.characters = characters
        self.specialKey = specialKey
        self.isControlDown = isControlDown
    }
}
