import Dispatch
import LifecycleLogRecorder
import Testing

/// `SceneRecorder` and `RecordedWindow`: the tracker's events reach a
/// `LifecycleRecorder`, the window id follows `@SceneStorage`, and a view
/// instance's end dismisses its window.
@Suite struct SceneRecorderTests {
    /// A recorder into memory with ids `id1`, `id2`, ….
    private func make(platform: Platform = .iPadOS) -> (SceneRecorder, MemorySink) {
        let sink = MemorySink()
        let recorder = LifecycleRecorder(sink: sink, durability: .everyEvent, clock: { 0 })
        let counter = Locked(0)
        return (SceneRecorder(recorder, platform: platform, makeWindowID: {
            counter.withLock { n in
                n += 1
                return "id\(n)"
            }
        }), sink)
    }

    private func kinds(_ sink: MemorySink) -> [LifecycleEvent.Kind] { sink.events.map(\.kind) }

    @Test func aNewWindowGetsANewIDAndIsNotRestored() {
        let (scenes, sink) = make()
        let window = scenes.newWindow()
        #expect(window.appear(scene: "main", stored: nil) == "id1")
        #expect(window.isRestored == false)
        #expect(kinds(sink) == [.open(window: "id1", scene: "main")])
    }

    /// Issue 29, item 6: the glue's view may find its scene (`didMoveToWindow`) before the root
    /// view's `onAppear`, when the window's id is not known yet. The session waits for the id, so
    /// the scene's discard is still this window's close and a root-state release is no close.
    @Test func aSessionFoundBeforeTheFirstAppearStillClosesTheWindow() {
        let (scenes, sink) = make()
        var window: RecordedWindow? = scenes.newWindow()
        window?.attach(session: "S1")
        #expect(kinds(sink) == [])
        window?.appear(scene: "main", stored: nil)
        window = nil  // the root view's state released: observed, so no close and no disconnection
        #expect(kinds(sink) == [.open(window: "id1", scene: "main")])
        scenes.discard(sessions: ["S1"])
        #expect(kinds(sink) == [.open(window: "id1", scene: "main"), .dismiss(window: "id1", reason: "discarded")])
    }

    @Test func anIDFromSceneStorageIsARestoredWindow() {
        let (scenes, sink) = make()
        let window = scenes.newWindow()
        #expect(window.appear(scene: "main", stored: "saved") == "saved")
        #expect(kinds(sink) == [.open(window: "saved", scene: "main", restored: true)])
    }

    @Test func theFirstResolvedIDStays() {
        // The glue stores the new id after the first appear; SceneStorage then returns it.
        let (scenes, _) = make()
        let window = scenes.newWindow()
        #expect(window.phase(.inactive, stored: nil) == "id1")  // a phase before the first appear
        #expect(window.appear(scene: "main", stored: "id1") == "id1")
        #expect(window.isRestored == false)
        #expect(window.appear(scene: "main", stored: "other") == "id1")
    }

    @Test func aPhaseBeforeAppearIsRecordedAfterTheOpen() {
        let (scenes, sink) = make()
        let window = scenes.newWindow()
        window.phase(.active, stored: nil)
        window.appear(scene: "main", stored: nil)
        window.phase(.active, stored: nil)
        #expect(kinds(sink) == [.open(window: "id1", scene: "main"), .phase(.active, window: "id1")])
    }

    @Test func onAMacReleasingAnUnobservedViewInstanceDismissesItsWindow() {
        let (scenes, sink) = make(platform: .macOS)
        var window: RecordedWindow? = scenes.newWindow()
        window?.appear(scene: "main", stored: nil)
        window?.phase(.background, stored: nil)
        window?.disappear()
        window = nil
        #expect(kinds(sink) == [
            .open(window: "id1", scene: "main"),
            .phase(.background, window: "id1"),
            .dismiss(window: "id1", reason: "closed"),
        ])
        #expect(scenes.tracker.openWindows.isEmpty)
    }

    @Test func onAnIPadReleasingTheViewInstanceIsADisconnectionAndTheSessionsDiscardTheClose() {
        let (scenes, sink) = make(platform: .iPadOS)
        var window: RecordedWindow? = scenes.newWindow()
        window?.appear(scene: "main", stored: nil)
        window?.attach(session: "S1")
        window?.phase(.background, stored: nil)
        window?.disconnect()
        window = nil  // the scene's root view state is released with the disconnection
        #expect(scenes.tracker.openWindows == ["id1"])
        scenes.discard(sessions: ["S1"])
        #expect(kinds(sink) == [
            .open(window: "id1", scene: "main"),
            .phase(.background, window: "id1"),
            .delegate(callback: "sceneDidDisconnect", window: "id1"),
            .dismiss(window: "id1", reason: "discarded"),
        ])
        #expect(scenes.tracker.openWindows.isEmpty)
    }

    @Test func aMacWindowsCloseIsRecordedFromItsNotificationOnce() {
        let (scenes, sink) = make(platform: .macOS)
        var window: RecordedWindow? = scenes.newWindow()
        window?.appear(scene: "main", stored: nil)
        window?.attach(session: "nswindow-1")
        window?.close()
        window = nil
        #expect(kinds(sink) == [.open(window: "id1", scene: "main"), .dismiss(window: "id1", reason: "closed")])
    }

    @Test func anInstanceThatWasNeverUsedRecordsNothing() {
        // SwiftUI evaluates a @State's initial value on every view init and keeps only the first.
        let (scenes, sink) = make()
        _ = scenes.newWindow()
        #expect(sink.events.isEmpty)
    }

    @Test func twoWindowsReportTheAppPhaseOnce() {
        let (scenes, sink) = make()
        let a = scenes.newWindow(), b = scenes.newWindow()
        a.appear(scene: "main", stored: nil)
        b.appear(scene: "main", stored: nil)
        scenes.appPhase(.active)
        scenes.appPhase(.active)
        #expect(kinds(sink) == [
            .open(window: "id1", scene: "main"),
            .open(window: "id2", scene: "main"),
            .phase(.active, window: nil),
        ])
    }

    @Test func keyEventsNameTheWindow() {
        let (scenes, sink) = make()
        let window = scenes.newWindow()
        window.write(key: "draft", scope: .scene)  // before the id is known: nothing
        window.appear(scene: "main", stored: nil)
        window.write(key: "draft", scope: .scene)
        window.read(key: "theme", scope: .app)
        window.save()
        window.activity("timer", .start)
        #expect(kinds(sink).dropFirst() == [
            .write(key: "draft", scope: .scene, window: "id1"),
            .read(key: "theme", scope: .app, window: "id1"),
            .save(window: "id1"),
            .activity(name: "timer", state: .start, window: "id1"),
        ])
    }

    @Test func documentKeysAndAsynchronousSavesNameTheWindow() {
        let (scenes, sink) = make()
        let window = scenes.newWindow()
        window.appear(scene: "doc", stored: nil)
        window.write(key: "text", scope: .document, document: "file:///a.txt")
        window.save(stage: .begin, id: "s1")
        window.save(stage: .end, id: "s1")
        #expect(kinds(sink).dropFirst() == [
            .write(key: "text", scope: .document, window: "id1", document: "file:///a.txt"),
            .save(window: "id1", stage: .begin, id: "s1"),
            .save(window: "id1", stage: .end, id: "s1"),
        ])
    }

    @Test func anExplicitDismissThenTheViewsEndRecordsOneDismiss() {
        let (scenes, sink) = make()
        var window: RecordedWindow? = scenes.newWindow()
        window?.appear(scene: "main", stored: nil)
        window?.dismiss(reason: "dismissWindow")
        window = nil
        #expect(kinds(sink) == [.open(window: "id1", scene: "main"), .dismiss(window: "id1", reason: "dismissWindow")])
    }

    @Test func sharedIsOnePerRecorder() {
        let recorder = LifecycleRecorder(sink: MemorySink())
        #expect(SceneRecorder.shared(for: recorder) === SceneRecorder.shared(for: recorder))
        #expect(SceneRecorder.shared(for: recorder) !== SceneRecorder.shared(for: LifecycleRecorder(sink: MemorySink())))
    }
    @Test func windowsOnManyThreadsOpenOnceAndRecordPhasesAfterTheirOpen() {
        let (scenes, sink) = make()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let window = scenes.newWindow()
            let id = window.phase(.inactive, stored: "w\(i)")
            for _ in 0..<50 {
                window.appear(scene: "main", stored: id)
                window.phase(.active, stored: id)
                scenes.appPhase(.active)
                window.disappear()
            }
        }
        let events = sink.events.map(\.kind)
        #expect(events.filter { if case .phase(_, nil) = $0 { true } else { false } }.count == 1)
        for i in 0..<8 {
            let mine = events.filter { kind in
                switch kind {
                case .open(let w, _, _, _), .phase(_, let w?): w == "w\(i)"
                default: false
                }
            }
            #expect(mine == [
                .open(window: "w\(i)", scene: "main", restored: true),
                .phase(.inactive, window: "w\(i)"),
                .phase(.active, window: "w\(i)"),
            ])
        }
    }
}
