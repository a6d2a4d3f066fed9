import LifecycleLogRecorder
import Testing

/// One validation of events (issue 20.3): a call whose event is not valid is reported at the call
/// (lastError, the misuse reporter) and not recorded, never a crash; the decoder says the same.
@Suite(.serialized) struct MisuseTests {
    private static func recorder() -> (LifecycleRecorder, MemorySink) {
        let sink = MemorySink()
        return (LifecycleRecorder(sink: sink, durability: .everyEvent, clock: { 0 }), sink)
    }

    @Test func aSceneKeyWithoutItsWindowIsNotRecordedAndSaysWhy() throws {
        let (recorder, sink) = Self.recorder()
        recorder.launch(platform: .iOS, scenes: [SceneDeclaration(id: "main", kind: .windowGroup)])
        recorder.write(key: "draft", scope: .scene)  // no window: a misuse
        recorder.mark("after")
        #expect(sink.events.map(\.name) == ["launch", "mark"])
        let error = try #require(recorder.lastError)
        #expect(error.code == .invalidInput)
        #expect(error.message == "a write event was not recorded: a write of a scene-scoped key needs \"window\" (the window that owns the key). This is a misuse of the recorder's API: fix the call (spec/trace-format.md says what each event needs)")
    }

    @Test func everyKindOfMisuseIsRefusedWithTheDecodersMessage() throws {
        let cases: [(LifecycleEvent.Kind, String)] = [
            (.read(key: "draft", scope: .scene), "a read of a scene-scoped key needs \"window\""),
            (.write(key: "title", scope: .shared, window: "w1", document: "file:///a.txt"), "field \"document\" is only for scope \"document\", got scope \"shared\""),
            (.write(key: "title", scope: .document), "a write of a document-scoped key needs \"document\""),
            (.write(key: "n", scope: .shared, base: .max), "field \"base\" must be at most 18446744073709551614"),
            (.read(key: "n", scope: .shared, version: .max), "field \"version\" must be at most 18446744073709551614"),
            (.kill(reason: "watchdog", signal: -9), "field \"signal\" must be a whole number from 0"),
        ]
        for (kind, expected) in cases {
            #expect(!kind.isValid && kind.validationProblem != nil, "the fast check and the message agree on \(kind)")
            let (recorder, sink) = Self.recorder()
            recorder.record(kind)
            #expect(sink.events.isEmpty, "\(kind) was recorded")
            #expect(recorder.lastError?.message.contains(expected) == true, "\(String(describing: recorder.lastError))")
            // The JSON Lines decoder refuses the same event with the same sentence.
            let line = Array(LifecycleEvent(t: 0, kind).jsonLine.utf8)
            var decoder = JSONLinesDecoder(path: "misuse.jsonl", continuingAfter: 0, at: 0, formatVersion: 2)
            do {
                _ = try line.withUnsafeBufferPointer { try decoder.decode(line: $0, number: 1) }
                Issue.record("the decoder accepted \(kind)")
            } catch let error as LifecycleLogError {
                #expect(error.message.contains(expected), "\(error.message)")
            }
        }
    }

    @Test func theFastCheckAgreesWithTheMessageOnValidEvents() {
        let valid: [LifecycleEvent.Kind] = [
            .write(key: "k", scope: .scene, window: "w"), .read(key: "k", scope: .scene, window: "w", version: 3),
            .write(key: "k", scope: .app), .write(key: "k", scope: .shared, base: .max - 1), .write(key: "k", scope: .group),
            .write(key: "k", scope: .document, document: "file:///a"), .read(key: "k", scope: .document, window: "w"),
            .kill(reason: "user"), .kill(reason: "crash", signal: 0), .kill(reason: "crash", signal: 11),
            .mark(label: "x"), .terminate(reason: nil), .phase(.active, window: nil), .save(), .unknown(name: "future"),
        ]
        for kind in valid {
            #expect(kind.isValid && kind.validationProblem == nil, "\(kind)")
        }
    }

    @Test func theMisuseReporterIsCalledOnTheCallingThread() throws {
        let seen = Locked<[String]>([])
        LifecycleRecorder.onMisuse { error in seen.withLock { $0.append(error.message) } }
        defer { LifecycleRecorder.onMisuse(nil) }
        let (recorder, _) = Self.recorder()
        recorder.write(key: "draft", scope: .scene)
        recorder.write(key: "draft", scope: .scene, window: "w1")  // valid: not reported
        #expect(seen.withLock { $0 }.count == 1)
        #expect(seen.withLock { $0 }.first?.hasPrefix("a write event was not recorded") == true)
    }

    @Test func aValidEventLaterDoesNotHideTheMisuseButASinkFailureComesFirst() throws {
        let (recorder, sink) = Self.recorder()
        recorder.write(key: "draft", scope: .scene)
        recorder.write(key: "notes", scope: .shared)
        #expect(sink.events.count == 1)
        #expect(recorder.lastError?.code == .invalidInput, "a successful commit does not clear the misuse")
    }
}
