/// `scene-storage-lost`: a restored window read a scene key as empty that the window it restores had saved.
package struct SceneStorageLost: BuiltInRule {
    @inline(__always)
    package mutating func observe(_ transition: Transition, at now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard case .keyRead(let name, .scene, let window?, 0) = transition, model.openWindows[window].restored else { return }
        check(name, window: window, now, &model, &findings)
    }

    @inline(never)
    private func check(_ name: Name, window: Int, _ now: EventTime, _ model: inout ModelView, _ findings: inout FindingQueue) {
        guard let saved = model.openWindows[window].restoredFrom[name], saved > 0 else { return }
        findings.report(.sceneStorageLost, at: now.seq, related: [model.openWindows[window].openSeq],
                        subject: model.subject(keys: [model.openWindows[window].sceneKeyRef(name)], windows: [window]),
                        "Restored window \(model.names[model.openWindows[window].id]) read scene key \"\(model.names[name])\" as empty (version 0), but the window it restores had saved version \(saved). Keep the window's state in @SceneStorage (or restore it in .onAppear from what was saved) instead of starting empty.")
    }
}

extension SceneStorageLost: DescribedRule {
    /// `scene-storage-lost` as the catalogue describes it (README.md's rule table and spec/rules.md section 2 are
    /// generated from it), with examples from `traces/rules/scene-storage-lost.jsonl` and `traces/rules/scene-storage-lost-negative.jsonl`.
    package static let description = RuleDescription(
        rule: .sceneStorageLost, defaultSeverity: .warning,
        summary: "A restored window read its scene storage as empty.",
        fix: "Keep window state in `@SceneStorage` or restore it in `.onAppear`.",
        anchor: "the `read`",
        fires: [
            #"""
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"editor","kind":"WindowGroup","for":"Doc.ID"}]}
            {"event":"open","t":10,"window":"e1","scene":"editor","value":"doc-1"}
            {"event":"open","t":11,"window":"e2","scene":"editor","value":"doc-2"}
            {"event":"phase","t":20,"phase":"active"}
            {"event":"write","t":30,"window":"e1","key":"draft","scope":"scene"}
            {"event":"write","t":31,"window":"e1","key":"draft","scope":"scene"}
            {"event":"write","t":32,"window":"e2","key":"draft","scope":"scene"}
            {"event":"save","t":40}
            {"event":"terminate","t":50}
            {"event":"launch","t":1000,"platform":"iOS","scenes":[{"id":"editor","kind":"WindowGroup","for":"Doc.ID"}]}
            {"event":"open","t":1010,"window":"r1","scene":"editor","value":"doc-1","restored":true}
            {"event":"open","t":1011,"window":"r2","scene":"editor","value":"doc-2","restored":true}
            {"event":"read","t":1020,"window":"r1","key":"draft","scope":"scene","version":0}
            {"event":"read","t":1021,"window":"r2","key":"draft","scope":"scene"}
            """#,
        ],
        quiet: [
            #"""
            {"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"editor","kind":"WindowGroup","for":"Doc.ID"}]}
            {"event":"open","t":10,"window":"e1","scene":"editor","value":"doc-1"}
            {"event":"write","t":20,"window":"e1","key":"draft","scope":"scene"}
            {"event":"save","t":30,"window":"e1"}
            {"event":"terminate","t":40}
            {"event":"launch","t":100,"platform":"iOS","scenes":[{"id":"editor","kind":"WindowGroup","for":"Doc.ID"}]}
            {"event":"open","t":110,"window":"r1","scene":"editor","value":"doc-1","restored":true}
            {"event":"read","t":120,"window":"r1","key":"draft","scope":"scene","version":1}
            {"event":"open","t":130,"window":"n1","scene":"editor","value":"doc-2"}
            {"event":"read","t":140,"window":"n1","key":"draft","scope":"scene","version":0}
            """#,
        ])
}
