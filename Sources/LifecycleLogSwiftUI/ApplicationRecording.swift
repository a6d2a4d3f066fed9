#if canImport(SwiftUI)
import Foundation
import LifecycleLogRecorder
import SwiftUI

// The thin part of issue 21's item 5: where the system says how the app was launched (the app
// delegate adaptor) and what state the application is in (its notifications). The decisions live
// in LaunchConditions, ApplicationNotification and SceneRecorder, tested on every platform.

/// The observations of the application's notifications, kept for the life of the process
/// (replaced by a new `recordLaunch`).
private let applicationObservations = Locked<[LifecycleLogObservation]>([])
/// The observation of scenes connecting (`UIScene.willConnectNotification`), for the launch's reason.
private let sceneConnections = Locked<LifecycleLogObservation?>(nil)

extension SceneRecorder {
    /// Records each of `notifications` of `application` as what it means (``application(_:)``),
    /// from now on, instead of what an earlier launch observed.
    fileprivate func observe(_ notifications: [(Notification.Name, ApplicationNotification)], of application: AnyObject) {
        let observations = notifications.map { name, meaning in
            LifecycleLogObservation(name, object: application) { [self] in self.application(meaning) }
        }
        applicationObservations.withLock { $0 = observations }
    }
}

#if canImport(UIKit) && !os(watchOS)
import UIKit

extension SceneRecorder {
    /// Records the app's `launch` from its delegate adaptor's
    /// `application(_:didFinishLaunchingWithOptions:)`, and from then on the app-level phase from
    /// `UIApplication`'s notifications (which come whether or not a scene is connected) and
    /// `willTerminate`. The reason comes from what cannot be wrong (``LaunchConditions``): the launch
    /// options, then a scene connecting (`UIScene.willConnectNotification`: a launch with UI) or the
    /// launch sequence ending with none (the main queue's next turn: a launch without UI). In a
    /// SwiftUI app no scene is connected yet here, so the application's state says `background`
    /// whatever launched it (issue 29). `ActivePrewarm` is recorded as `prewarmed: true`.
    ///
    /// ```swift
    /// final class AppDelegate: NSObject, UIApplicationDelegate {
    ///     func application(_ application: UIApplication,
    ///                      didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
    ///         SceneRecorder.shared(for: recorder).recordLaunch(of: application, options: options, platform: .iOS, scenes: scenes)
    ///         return true
    ///     }
    ///     func application(_ application: UIApplication, didDiscardSceneSessions sessions: Set<UISceneSession>) {
    ///         SceneRecorder.shared(for: recorder).discard(sessions)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - application: the application, as the delegate receives it.
    ///   - platform: `.iOS`, `.iPadOS`, `.tvOS` or `.visionOS`.
    ///   - scenes: the app's scene declarations, in the order of its `body`.
    ///   - app: the app's name or bundle id.
    ///   - build: the app's build.
    @MainActor
    public func recordLaunch(of application: UIApplication, options: [UIApplication.LaunchOptionsKey: Any]? = nil, platform: Platform,
                             scenes: [SceneDeclaration], app: String? = nil, build: String? = nil) {
        let state: LaunchConditions.ApplicationState
        switch application.applicationState {
        case .active: state = .active
        case .background: state = .background
        default: state = .inactive
        }
        let conditions = LaunchConditions(applicationState: state, environment: ProcessInfo.processInfo.environment,
                                          launchOptions: Set((options ?? [:]).keys.map(\.rawValue)))
        sceneConnections.withLock { observation in
            observation = LifecycleLogObservation(UIScene.willConnectNotification, object: nil) { [self] in launchEvidence(.sceneWillConnect) }
        }
        launch(platform: platform, scenes: scenes, conditions: conditions, app: app, build: build)
        // UIKit connects a launch's first scene before the main queue's next turn (spec/apple-order.md, A2).
        DispatchQueue.main.async { [self] in launchEvidence(.launchSequenceEnded) }
        let notifications: [(Notification.Name, ApplicationNotification)] = [
            (UIApplication.didBecomeActiveNotification, .didBecomeActive),
            (UIApplication.willResignActiveNotification, .willResignActive),
            (UIApplication.didEnterBackgroundNotification, .didEnterBackground),
            (UIApplication.willEnterForegroundNotification, .willEnterForeground),
            (UIApplication.willTerminateNotification, .willTerminate),
        ]
        observe(notifications, of: application)
        // A scene closed in the app switcher while its scene was disconnected is discarded whether or
        // not SwiftUI forwards application(_:didDiscardSceneSessions:) (spec/apple-order.md, W6).
        let sessions = [UIApplication.willEnterForegroundNotification, UIApplication.didBecomeActiveNotification].map { name in
            LifecycleLogObservation(name, object: application) { [self] in
                // UIApplication posts these on the main thread.
                let open = MainActor.assumeIsolated { Set(application.openSessions.map(\.persistentIdentifier)) }
                sessionsStillOpen(open)
            }
        }
        applicationObservations.withLock { $0 += sessions }
    }

    /// `application(_:didDiscardSceneSessions:)`: records the `dismiss` (`discarded`) of the
    /// windows those sessions showed. A scene the user closed in the app switcher ends here, not
    /// at its disconnection.
    @MainActor
    public func discard(_ sessions: Set<UISceneSession>) {
        discard(sessions: Set(sessions.map(\.persistentIdentifier)))
    }
}
#elseif canImport(AppKit)
import AppKit

extension SceneRecorder {
    /// Records the app's `launch` from its delegate adaptor's `applicationWillFinishLaunching(_:)`,
    /// before SwiftUI restores and opens windows, and from then on the app-level phase from
    /// `NSApplication`'s notifications (active, inactive) and `willTerminate` (a Mac app has no
    /// background phase; Cmd-Q sends no phase change).
    ///
    /// - Parameters:
    ///   - application: the application, as the delegate's notification names it (`NSApp`).
    ///   - scenes: the app's scene declarations, in the order of its `body`.
    ///   - app: the app's name or bundle id.
    ///   - build: the app's build.
    @MainActor
    public func recordLaunch(of application: NSApplication, scenes: [SceneDeclaration], app: String? = nil, build: String? = nil) {
        launch(platform: .macOS, scenes: scenes, conditions: LaunchConditions(applicationState: .inactive, environment: ProcessInfo.processInfo.environment),
               app: app, build: build)
        let notifications: [(Notification.Name, ApplicationNotification)] = [
            (NSApplication.didBecomeActiveNotification, .didBecomeActive),
            (NSApplication.willResignActiveNotification, .willResignActive),
            (NSApplication.willTerminateNotification, .willTerminate),
        ]
        observe(notifications, of: application)
    }
}
#endif
#endif
