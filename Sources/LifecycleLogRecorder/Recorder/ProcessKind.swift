/// What kind of process a ``CollectorSink`` records from, as it tells the
/// collector in its handshake (`"kind"`, spec/collector-protocol.md).
public enum ProcessKind: String, Sendable, Hashable, CaseIterable {
    /// The app itself.
    case app
    /// A widget extension.
    case widget
    /// Any other app extension (an intent, a share extension, …).
    case `extension`
    /// A test runner or harness that records about the app (`XCUIApplication`).
    case runner
}
