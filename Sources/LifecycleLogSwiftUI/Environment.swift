#if canImport(SwiftUI)
import LifecycleLogRecorder
import SwiftUI

/// The environment key of `EnvironmentValues/lifecycleLogWindow`.
private struct LifecycleLogWindowKey: EnvironmentKey {
    static let defaultValue: RecordedWindow? = nil
}

extension EnvironmentValues {
    /// The recorded window this view belongs to, set by
    /// `View/lifecycleLog(_:scene:value:appPhase:)` on the
    /// scene's root; `nil` outside a recorded scene.
    ///
    /// ```swift
    /// struct DraftEditor: View {
    ///     @Environment(\.lifecycleLogWindow) private var window
    ///     var body: some View {
    ///         Button("Save") { store.save(); window?.save() }
    ///     }
    /// }
    /// ```
    public var lifecycleLogWindow: RecordedWindow? {
        get { self[LifecycleLogWindowKey.self] }
        set { self[LifecycleLogWindowKey.self] = newValue }
    }
}
#endif
