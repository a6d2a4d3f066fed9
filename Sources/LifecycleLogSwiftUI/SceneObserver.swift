#if canImport(SwiftUI)
import Foundation
import LifecycleLogRecorder
import SwiftUI

// The thin part of issue 21's items 3 and 4: find the system's scene (UIKit) or window (AppKit)
// that shows a recorded window, and pass its disconnection or close to the window's tracker,
// where the decisions live (WindowTracker: attach, disconnect, close; tested on every platform).

/// Removes a block-based notification observer when it goes away (from any thread: the
/// notification center is thread-safe).
final class LifecycleLogObservation: @unchecked Sendable {
    // @unchecked Sendable: `token` is set once, in init, and only read in deinit.
    private let token: any NSObjectProtocol

    init(_ name: Notification.Name, object: AnyObject?, _ action: @escaping @Sendable () -> Void) {
        token = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { _ in action() }
    }

    deinit { NotificationCenter.default.removeObserver(token) }
}

#if canImport(UIKit) && !os(watchOS)
import UIKit

/// An invisible view in the recorded scene: when it is in a window, it attaches the window's scene
/// session (`UISceneSession.persistentIdentifier`, which `application(_:didDiscardSceneSessions:)`
/// names) and records the scene's `UIScene.didDisconnectNotification`.
struct LifecycleLogSceneObserver: UIViewRepresentable {
    let window: RecordedWindow

    func makeUIView(context: Context) -> ObserverView { ObserverView(window) }
    func updateUIView(_ view: ObserverView, context: Context) {}

    final class ObserverView: UIView {
        private let recorded: RecordedWindow
        private weak var scene: UIScene?
        private var observation: LifecycleLogObservation?

        init(_ recorded: RecordedWindow) {
            self.recorded = recorded
            super.init(frame: .zero)
            isHidden = true
            isUserInteractionEnabled = false
        }

        required init?(coder: NSCoder) { nil }

        override func didMoveToWindow() {
            super.didMoveToWindow()
            guard let found = window?.windowScene, found !== scene else { return }
            scene = found
            recorded.attach(session: found.session.persistentIdentifier)
            let recorded = recorded
            observation = LifecycleLogObservation(UIScene.didDisconnectNotification, object: found) { recorded.disconnect() }
        }
    }
}
#elseif canImport(AppKit)
import AppKit

/// An invisible view in the recorded window: when it is in an `NSWindow`, it attaches an id for
/// that window and records its `NSWindow.willCloseNotification` as the window's close.
struct LifecycleLogSceneObserver: NSViewRepresentable {
    let window: RecordedWindow

    func makeNSView(context: Context) -> ObserverView { ObserverView(window) }
    func updateNSView(_ view: ObserverView, context: Context) {}

    final class ObserverView: NSView {
        private let recorded: RecordedWindow
        private weak var observed: NSWindow?
        private var observation: LifecycleLogObservation?

        init(_ recorded: RecordedWindow) {
            self.recorded = recorded
            super.init(frame: .zero)
            isHidden = true
        }

        required init?(coder: NSCoder) { nil }

        override func viewDidMoveToWindow() {
            super.viewDidMoveToWindow()
            guard let found = window, found !== observed else { return }
            observed = found
            recorded.attach(session: "NSWindow-\(found.windowNumber)")
            let recorded = recorded
            observation = LifecycleLogObservation(NSWindow.willCloseNotification, object: found) { recorded.close() }
        }
    }
}
#endif
#endif
