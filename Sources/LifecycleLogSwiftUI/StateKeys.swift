#if canImport(SwiftUI)
import Foundation
import LifecycleLogRecorder
import SwiftUI

extension View {
    /// Records a `write` of `key` whenever `value` changes (not for its first
    /// value), naming the window of the recorded scene this view is in.
    ///
    /// ```swift
    /// TextEditor(text: $draft)
    ///     .lifecycleLogWrites(of: draft, key: "draft", scope: .scene)
    /// ```
    ///
    /// Outside a scene recorded with `View/lifecycleLog(_:scene:value:appPhase:)`
    /// nothing is recorded.
    ///
    /// - Parameters:
    ///   - value: the state whose changes are writes (an `@SceneStorage`,
    ///     `@AppStorage` or model property).
    ///   - key: the key's name in the trace.
    ///   - scope: where the state lives: `.scene` for `@SceneStorage` and
    ///     drafts, `.app` for `@AppStorage`, `.shared` for a model.
    public func lifecycleLogWrites<Value: Equatable>(of value: Value, key: String, scope: StateScope) -> some View {
        modifier(LifecycleLogWrites(value: value, key: key, scope: scope))
    }
}

/// The modifier behind `View/lifecycleLogWrites(of:key:scope:)`.
struct LifecycleLogWrites<Value: Equatable>: ViewModifier {
    let value: Value
    let key: String
    let scope: StateScope
    @Environment(\.lifecycleLogWindow) private var window

    func body(content: Content) -> some View {
        let window = window
        let key = key
        let scope = scope
        return content.modifier(LifecycleLogChange(of: value) { _ in
            window?.write(key: key, scope: scope)
        })
    }
}

extension JSONValue {
    /// `value` as JSON (object members sorted by name), or `nil` when it
    /// cannot be encoded.
    static func encoding<Value: Encodable>(_ value: Value) -> JSONValue? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return nil }
        return data.withUnsafeBytes { raw in
            try? JSONParser.parse(raw.bindMemory(to: UInt8.self))
        }
    }
}
#endif
