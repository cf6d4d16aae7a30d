import Foundation

/// The running animation of one `View.animate` call: its tracks (a view's property moving
/// between two values) and the completion that runs when the last has ended.
final class ViewAnimationGroup {
    private var tracks: [(view: View, property: AnimatedProperty, from: AnimatedValue, to: AnimatedValue)] = []
    private var wasInterrupted = false
    /// Whether touches reach the animating views.
    let allowsUserInteraction: Bool
    private var animation: RunningAnimation?

    init(allowsUserInteraction: Bool) { self.allowsUserInteraction = allowsUserInteraction }

    func addTrack(_ view: View, _ property: AnimatedProperty, from: AnimatedValue, to: AnimatedValue) {
        tracks.append((view, property, from, to))
        view.propertyAnimations[property] = self
    }

    /// Starts the group on `loop`.
    func start(on loop: EventLoop, delay: TimeInterval, duration: TimeInterval, timing: AnimationTiming,
               completion: ((Bool) -> Void)?) {
        let animation = RunningAnimation(
            startTime: loop.animationTime + max(delay, 0), duration: duration, timing: timing,
            step: { [unowned self] progress in self.apply(progress) },
            completion: { [self] finished in
                for track in tracks where track.view.propertyAnimations[track.property] === self {
                    track.view.propertyAnimations[track.property] = nil
                }
                tracks = []
                completion?(finished && !wasInterrupted)
            })
        self.animation = animation
        loop.animations.add(animation)
    }

    private func apply(_ progress: CGFloat) {
        for track in tracks {
            track.view.setAnimatedValue(track.from.interpolated(to: track.to, fraction: progress), of: track.property)
        }
    }

    /// Ends one track where it is; the group ends (finished unless a track was interrupted)
    /// when it was the last.
    func removeTrack(of view: View, _ property: AnimatedProperty, interrupted: Bool) {
        tracks.removeAll { $0.view === view && $0.property == property }
        if view.propertyAnimations[property] === self { view.propertyAnimations[property] = nil }
        if interrupted { wasInterrupted = true }
        if tracks.isEmpty { animation?.end(finished: !wasInterrupted) }
    }
}
