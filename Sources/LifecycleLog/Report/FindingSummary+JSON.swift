import LifecycleLogRules

extension FindingSummary {
    /// The summary as one JSON object (`replay summary --format json`), each group on a line of
    /// its own, in report order; text from the traces exactly as recorded. The same summary
    /// always gives the same bytes.
    ///
    /// ```json
    /// {"format":"lifecycle-summary","version":1,"traces":5,"replayed":4,"unreadable":1,"emptyTraces":0,
    ///  "events":4000,"runs":21,"findings":9,
    ///  "groups":[
    ///   {"fingerprint":"9c1e0f3a5b7d2468","rule":"lost-update","severity":"error",
    ///    "subject":{"scenes":[],"keys":["shared:notes"],"details":[]},"traces":3,"runs":4,"findings":5,
    ///    "builds":{"count":2,"values":["9","10"]},"osVersions":{…},"platforms":{…},"processes":{…},
    ///    "firstSeenBuild":"9","lastSeenBuild":"10",
    ///    "example":{"trace":"traces/a.jsonl","name":"a.jsonl","seq":8,"message":"…"}}
    ///  ],
    ///  "errors":[{"trace":"traces/broken.lmdb","message":"…"}]}
    /// ```
    ///
    /// Each list (`builds`, `osVersions`, `platforms`, `processes`: `""` is the main app) gives
    /// how many distinct values there are and the first ``listedValues`` of them, builds and OS
    /// versions in ``BuildOrder``, the others by their UTF-8 bytes. `subject` is `null` for an
    /// app's own rule; `firstSeenBuild` and `lastSeenBuild` are `null` when no run of the group
    /// names a build.
    package func json() -> String {
        var out: [UInt8] = []
        func add(_ text: String) { out.append(contentsOf: text.utf8) }
        func string(_ text: String) { JSONWriter.writeString(text, into: &out) }
        func strings(_ values: [String]) {
            add("[")
            for (i, value) in values.enumerated() {
                if i > 0 { add(",") }
                string(value)
            }
            add("]")
        }
        func list(_ values: [String]) {
            add("{\"count\":\(values.count),\"values\":")
            strings(Array(values.prefix(Self.listedValues)))
            add("}")
        }
        func optional(_ value: String?) {
            if let value { string(value) } else { add("null") }
        }
        add("{\"format\":\"lifecycle-summary\",\"version\":1,\"traces\":\(traces + unreadable.count),\"replayed\":\(traces),"
            + "\"unreadable\":\(unreadable.count),\"emptyTraces\":\(emptyTraces),\"events\":\(events),\"runs\":\(runs),"
            + "\"findings\":\(findings),\n \"groups\":[")
        for (i, group) in sortedGroups.enumerated() {
            add(i == 0 ? "\n  " : ",\n  ")
            add("{\"fingerprint\":\"\(group.fingerprint)\",\"rule\":")
            string(group.rule.rawValue)
            add(",\"severity\":\"\(group.severity.rawValue)\",\"subject\":")
            if let subject = group.subject {
                add("{\"scenes\":")
                strings(subject.scenes)
                add(",\"keys\":")
                strings(subject.keys)
                add(",\"details\":")
                strings(subject.details)
                add("}")
            } else {
                add("null")
            }
            add(",\"traces\":\(group.traces),\"runs\":\(group.runs),\"findings\":\(group.findings),\"builds\":")
            list(group.sortedBuilds)
            add(",\"osVersions\":")
            list(group.sortedOSVersions)
            add(",\"platforms\":")
            list(group.sortedPlatforms)
            add(",\"processes\":")
            list(group.sortedProcesses)
            add(",\"firstSeenBuild\":")
            optional(group.firstSeenBuild)
            add(",\"lastSeenBuild\":")
            optional(group.lastSeenBuild)
            add(",\"example\":{\"trace\":")
            string(group.example.trace)
            add(",\"name\":")
            string(group.example.name)
            add(",\"seq\":\(group.example.seq),\"message\":")
            string(group.example.message)
            add("}}")
        }
        add(groups.isEmpty ? "],\n \"errors\":[" : "\n ],\n \"errors\":[")
        for (i, trace) in sortedUnreadable.enumerated() {
            add(i == 0 ? "\n  {\"trace\":" : ",\n  {\"trace\":")
            string(trace.trace)
            add(",\"message\":")
            string(trace.reason)
            add("}")
        }
        add(unreadable.isEmpty ? "]}\n" : "\n ]}\n")
        return String(decoding: out, as: UTF8.self)
    }
}
