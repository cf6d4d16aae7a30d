import Foundation

/// The property changes of one `View.animate` call, while its `animations` closure runs.
final class AnimationTransaction {
    private(set) var changes: [(view: View, property: AnimatedProperty, old: AnimatedValue)] = []

    private static let key = "CrispUI.AnimationTransactions"

    /// The transactions open on this thread, innermost last.
    private static var stack: [AnimationTransaction] {
        get { Thread.current.threadDictionary[key] as? [AnimationTransaction] ?? [] }
        set { Thread.current.threadDictionary[key] = newValue }
    }

    /// The innermost open transaction on this thread.
    static var current: AnimationTransaction? { stack.last }

    /// Runs `body` with a new transaction open; returns it.
    static func recording(_ body: () -> Void) -> AnimationTransaction {
        let transaction = AnimationTransaction()
        stack.append(transaction)
        body()
        stack.removeLast()
        return transaction
    }

    /// Notes that `property` of `view` is about to change (the first time: its value now, and
    /// the end of its running animation, as interrupted).
    func record(_ view: View, _ property: AnimatedProperty) {
        guard !changes.contains(where: { $0.view === view && $0.property == property }) else { return }
        view.propertyAnimations[property]?.removeTrack(of: view, property, interrupted: true)
        changes.append((view, property, view.animatedValue(of: property)))
    }
}
