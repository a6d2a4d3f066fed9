import LifecycleLogRecorder

/// The OpenTelemetry semantic conventions' `ios.app.state` of each app-level event of a UIKit
/// process: the attribute of the mobile event `device.app.lifecycle` (semantic conventions 1.31 and
/// later, `model/ios/registry.yaml` and `model/device/events.yaml`; it was an event body field
/// before 1.31).
///
/// The conventions tie each value to a UIKit notification; a trace records them as the recorder
/// does (`ApplicationNotification`):
///
/// | trace (app-level, no `window`)                       | UIKit                            | `ios.app.state` |
/// |------------------------------------------------------|----------------------------------|-----------------|
/// | `phase` `active`                                     | `applicationDidBecomeActive`     | `active`        |
/// | `phase` `inactive` after `active` (or at the start)  | `applicationWillResignActive`    | `inactive`      |
/// | `phase` `inactive` after `background`                | `applicationWillEnterForeground` | `foreground`    |
/// | `phase` `background`                                 | `applicationDidEnterBackground`  | `background`    |
/// | `delegate` `willTerminate`, or `terminate`           | `applicationWillTerminate`       | `terminate`     |
///
/// A run's app-level phase starts as the launch sets it (`background` for a launch with reason
/// `background` or `prewarm`, else `inactive`; trace format section 4). A run ends once: of a
/// `willTerminate` followed by its `terminate`, only the first is `terminate`. A `kill` is not
/// (the app was not told), nor are other `delegate` callbacks (the recorder writes the phase they
/// mean). Only the UIKit platforms have these states (``isUIKit(_:)``); a Mac or watch app's
/// events get none.
///
/// One value per trace, fed every event in order; it keeps a few bytes per process.
struct IOSAppStates {
    /// Each process's platform (from its latest launch), app-level phase and whether its run has
    /// already ended cleanly.
    private var processes: [String: (platform: Platform, phase: LifecyclePhase, ended: Bool)] = [:]

    /// Nothing seen yet.
    init() {}

    /// The well-known values of `ios.app.state` (semantic conventions 1.44).
    static let values: Set<String> = ["active", "inactive", "background", "foreground", "terminate"]

    /// The platforms whose app-level states are UIKit's, which `ios.app.state` names: iOS, iPadOS,
    /// tvOS, visionOS and Mac Catalyst.
    static func isUIKit(_ platform: Platform?) -> Bool {
        switch platform {
        case .iOS?, .iPadOS?, .tvOS?, .visionOS?, .macCatalyst?: return true
        default: return false
        }
    }

    /// The `ios.app.state` that `event` records, or `nil` when it is no app-level state change of a
    /// UIKit process; follows the process either way.
    mutating func state(of event: LifecycleEvent) -> String? {
        let process = event.process ?? ""
        switch event.kind {
        case .launch(let launch):
            let background = launch.reason == "background" || launch.reason == "prewarm"
            processes[process] = (launch.platform, background ? .background : .inactive, false)
            return nil
        case .phase(let phase, window: nil):
            guard let known = processes[process] else { return nil }
            processes[process]?.phase = phase
            guard Self.isUIKit(known.platform) else { return nil }
            if phase == .inactive, known.phase == .background { return "foreground" }
            return phase.rawValue
        case .delegate(callback: "willTerminate", window: nil), .terminate:
            guard let known = processes[process], !known.ended else { return nil }
            processes[process]?.ended = true
            return Self.isUIKit(known.platform) ? "terminate" : nil
        case .kill:
            processes[process]?.ended = true
            return nil
        default:
            return nil
        }
    }
}
