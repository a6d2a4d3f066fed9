extension LifecycleState {
    /// Several processes' states (`Replayer.states(of:at:process:)`) as text: the tables of
    /// each, under the process's name when there are several or the one is not the main app.
    public static func table(_ states: [LifecycleState]) -> String {
        if states.count == 1 { return states[0].table() }
        return states.map { $0.table(named: true) }.joined(separator: "\n")
    }

    /// Several processes' states as JSON: the first one's object (see ``json()``) with, when
    /// there are several, `processes`, an array of every one's object, the first included.
    public static func json(_ states: [LifecycleState]) -> String {
        guard let first = states.first else { return "{}\n" }
        var out: [UInt8] = []
        first.write(into: &out)
        if states.count > 1 {
            out.removeLast()  // the closing brace
            out.append(contentsOf: ",\"processes\":[".utf8)
            for (i, state) in states.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                state.write(into: &out)
            }
            out.append(contentsOf: "]}".utf8)
        }
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    /// How the text output names the process: the main app, or the process by its name.
    var processTitle: String { process.isEmpty ? "the app (main process)" : "process \"\(VisibleText.escape(process))\"" }

    /// The state as aligned tables: the run and app phase, the open windows,
    /// and the keys with their versions. A process other than the main app is named.
    public func table() -> String { table(named: !process.isEmpty) }

    /// ``table()``, its first line naming the process when `named`.
    func table(named: Bool) -> String {
        var out = named ? "state of \(processTitle) after seq \(seq): " : "state after seq \(seq): "
        if run == 0 {
            out += "no run yet (no launch before this point)\n"
        } else if !isRunning {
            out += "run \(run) (\(platform?.rawValue ?? "?")) has ended\n"
        } else {
            out += "run \(run) (\(platform?.rawValue ?? "?")), app phase \(appPhase?.rawValue ?? "-") (app-level \(appLevelPhase?.rawValue ?? "-"))"
            if !activities.isEmpty { out += ", app activities: \(VisibleText.escape(activities.joined(separator: ", ")))" }
            out += "\n"
        }
        if !windows.isEmpty {
            var rows = [["WINDOW", "SCENE", "VALUE", "PHASE", "OPENED", "UNSAVED", "ACTIVITIES"]]
            for w in windows {
                rows.append([w.id, w.scene, w.value ?? "", w.phase.rawValue + (w.hasOwnPhase ? "" : "*") + (w.restored ? " (restored)" : ""),
                             String(w.openedAt), w.keys.filter(\.isDirty).map(\.name).joined(separator: ","),
                             w.activities.joined(separator: ",")])
            }
            out += Self.align(rows)
            if windows.contains(where: { !$0.hasOwnPhase }) { out += "(* follows the app-level phase)\n" }
        }
        if !keys.isEmpty {
            var rows = [["KEY", "SCOPE", "VERSION", "SAVED", ""]]
            for k in keys { rows.append([k.name, k.scope.rawValue, String(k.version), String(k.savedVersion), k.isDirty ? "unsaved" : ""]) }
            out += Self.align(rows)
        }
        return out
    }

    /// `rows` as columns padded to their widest cell, with control characters
    /// from the trace made visible (`VisibleText`).
    static func align(_ rows: [[String]]) -> String {
        let rows = rows.map { $0.map(VisibleText.escape) }
        let widths = (0..<rows[0].count).map { col in rows.map { $0[col].count }.max() ?? 0 }
        return rows.map { row in
            var line = ""
            for (i, cell) in row.enumerated() {
                line += cell
                if i < row.count - 1 { line += String(repeating: " ", count: widths[i] - cell.count + 2) }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line + "\n"
        }.joined()
    }

    /// The state as one JSON object, with its `process` (`""` for the main app).
    public func json() -> String {
        var out: [UInt8] = []
        write(into: &out)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the state's JSON object to `out`.
    func write(into out: inout [UInt8]) {
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        func str(_ s: String?) { if let s { JSONWriter.writeString(s, into: &out) } else { raw("null") } }
        func keyList(_ keys: [Key]) {
            raw("[")
            for (i, k) in keys.enumerated() {
                if i > 0 { raw(",") }
                raw("{\"scope\":\"\(k.scope.rawValue)\",\"key\":"); str(k.name)
                raw(",\"version\":\(k.version),\"saved\":\(k.savedVersion),\"dirty\":\(k.isDirty)}")
            }
            raw("]")
        }
        raw("{\"process\":"); str(process)
        raw(",\"seq\":\(seq),\"run\":\(run),\"platform\":"); str(platform?.rawValue)
        raw(",\"running\":\(isRunning),\"appPhase\":"); str(appPhase?.rawValue)
        raw(",\"appLevelPhase\":"); str(appLevelPhase?.rawValue)
        raw(",\"windows\":[")
        for (i, w) in windows.enumerated() {
            if i > 0 { raw(",") }
            raw("{\"window\":"); str(w.id)
            raw(",\"scene\":"); str(w.scene)
            raw(",\"value\":"); raw(w.value ?? "null")
            raw(",\"phase\":\"\(w.phase.rawValue)\",\"ownPhase\":\(w.hasOwnPhase),\"restored\":\(w.restored),\"opened\":\(w.openedAt),\"keys\":")
            keyList(w.keys)
            raw(",\"activities\":[\(w.activities.map { s -> String in var o: [UInt8] = []; JSONWriter.writeString(s, into: &o); return String(decoding: o, as: UTF8.self) }.joined(separator: ","))]}")
        }
        raw("],\"keys\":")
        keyList(keys)
        raw(",\"activities\":[\(activities.map { s -> String in var o: [UInt8] = []; JSONWriter.writeString(s, into: &o); return String(decoding: o, as: UTF8.self) }.joined(separator: ","))]}")
    }
}
