extension Timeline {
    /// The timeline as one self-contained HTML page: no network access, no
    /// external scripts or fonts. A lane per window row and one for the app
    /// phase, phase bands, opens, dismisses, writes and saves as ticks, run
    /// boundaries, `mark` events as flags with their text (on their process's
    /// app lane: a process that only marks has that lane alone), and each
    /// finding as a marker; zoom with the wheel or the buttons, pan by
    /// dragging. The same timeline always gives the same bytes.
    public func html() -> String {
        // One buffer for the page: a long trace's data is written once, not copied from string to string.
        let data = dataJSON()
        var page: [UInt8] = []
        page.reserveCapacity(data.count + data.count / 8 + Self.script.utf8.count + 8192)
        func add(_ s: String) { page.append(contentsOf: s.utf8) }
        add(Self.pageHead)
        add("<title>\(Self.escapeHTML(ExpectedReport.fileName(trace))) · lifecycle timeline</title>\n")
        add(Self.style)
        add("</head>\n<body>\n")
        add(Self.body)
        add("<script type=\"application/json\" id=\"timeline-data\">")
        Self.appendScriptSafe(data, to: &page)
        add("</script>\n<script>\n")
        add(Self.script)
        add("</script>\n</body>\n</html>\n")
        return String(decoding: page, as: UTF8.self)
    }

    /// The data the page draws, as compact JSON arrays (UTF-8).
    func dataJSON() -> [UInt8] {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        func str(_ s: String) { JSONWriter.writeString(s, into: &out) }
        func num(_ d: Double) { raw(JSONWriter.number(d)) }
        let phases: [LifecyclePhase] = [.active, .inactive, .background]
        raw("{\"trace\":"); str(trace)
        raw(",\"events\":\(events),\"runs\":\(runs),\"start\":"); num(startTime)
        raw(",\"end\":"); num(endTime)
        raw(",\"rows\":\(rows),\"buckets\":\(buckets),\"errors\":\(errors),\"warnings\":\(warnings),\"more\":\(moreFindings),\"processes\":[")
        for (i, name) in processNames.enumerated() { if i > 0 { raw(",") }; str(name) }
        raw("],\"processRows\":[\(processRows.map(String.init).joined(separator: ","))],\"labels\":[")
        for (i, l) in labels.enumerated() { if i > 0 { raw(",") }; str(l) }
        raw("],\"segments\":[")
        for (i, s) in segments.enumerated() {
            if i > 0 { raw(",") }
            // `!`: every phase is in `phases`.
            raw("[\(s.row),"); num(s.start); raw(","); num(s.end); raw(",\(phases.firstIndex(of: s.phase)!),\(s.label),\(s.process)]")
        }
        raw("],\"marks\":[")
        // The script's KIND array follows this order.
        let kinds: [Mark.Kind] = [.open, .dismiss, .write, .save, .launch, .terminate, .uncleanEnd, .kill, .mark]
        for (i, m) in marks.enumerated() {
            if i > 0 { raw(",") }
            // `!`: every kind is in `kinds`.
            raw("[\(kinds.firstIndex(of: m.kind)!),\(m.row),"); num(m.t); raw(",\(m.count),\(m.seq),\(m.process)")
            // A `mark` event's text: an index into `labels`.
            if m.kind == .mark { raw(",\(m.label)") }
            raw("]")
        }
        raw("],\"findings\":[")
        for (i, p) in findings.enumerated() {
            if i > 0 { raw(",") }
            raw("["); num(p.t); raw(",\(p.row),\(p.finding.severity == .error ? 0 : 1),")
            str(p.finding.rule.rawValue)
            raw(",\(p.finding.seq),")
            str(p.finding.message)
            raw(",[\(p.finding.related.map(String.init).joined(separator: ","))],\(p.process)]")
        }
        raw("],\"aggregated\":[")
        for (i, a) in aggregated.enumerated() {
            if i > 0 { raw(",") }
            raw("["); num(a.start); raw(","); num(a.end); raw(",\(a.severity == .error ? 0 : 1),")
            str(a.rule.rawValue)
            raw(",\(a.count),\(a.firstSeq),\(a.lastSeq)]")
        }
        raw("]}")
        return out
    }

    /// `json` made safe to stand inside a `<script>` element: `<`, `>` and `&`
    /// become `\u003c`, `\u003e` and `\u0026`, and U+2028 and U+2029 become
    /// `\u2028` and `\u2029`. JSON has these characters only inside strings, where
    /// the escapes mean the same; without them a string holding `</script>` or
    /// `<!--<script` ends the element early or swallows the rest of the page.
    static func scriptSafe(_ json: String) -> String {
        var out: [UInt8] = []
        appendScriptSafe(Array(json.utf8), to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the UTF-8 JSON `json` to `out`, made safe as ``scriptSafe(_:)`` says.
    static func appendScriptSafe(_ json: [UInt8], to out: inout [UInt8]) {
        var bytes = json.makeIterator()
        var pending: [UInt8] = []  // a lead byte E2 and what follows it, until it is known
        func escape(_ code: String) { out.append(contentsOf: "\\u\(code)".utf8) }
        while let b = bytes.next() {
            if !pending.isEmpty {
                pending.append(b)
                if pending.count == 2, b != 0x80 { out.append(contentsOf: pending); pending = []; continue }
                if pending.count == 3 {
                    switch b {
                    case 0xA8: escape("2028")
                    case 0xA9: escape("2029")
                    default: out.append(contentsOf: pending)
                    }
                    pending = []
                }
                continue
            }
            switch b {
            case UInt8(ascii: "<"): escape("003c")
            case UInt8(ascii: ">"): escape("003e")
            case UInt8(ascii: "&"): escape("0026")
            case 0xE2: pending = [b]
            default: out.append(b)
            }
        }
        out.append(contentsOf: pending)
    }

    static func escapeHTML(_ s: String) -> String {
        s.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }

    static let pageHead = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">

        """

    static let style = """
        <style>
        :root { --active:#2e7d32; --inactive:#f0a500; --background:#9aa0a6; --error:#d32f2f; --warning:#ef6c00; --ink:#202124; --muted:#5f6368;
          --write:#795548; --save:#0b8043; --launch:#1a73e8; --terminate:#202124; --kill:#8e24aa; --mark:#00838f; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 13px/1.4 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--ink); background: #fff; }
        header { padding: 12px 16px 8px; border-bottom: 1px solid #e0e0e0; display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: baseline; }
        header h1 { font-size: 16px; margin: 0; font-weight: 600; }
        .summary span { margin-right: 14px; color: var(--muted); }
        .summary .errors { color: var(--error); font-weight: 600; }
        .summary .warnings { color: var(--warning); font-weight: 600; }
        .controls button { font: inherit; padding: 2px 10px; margin-right: 4px; border: 1px solid #c0c0c0; background: #f8f9fa; border-radius: 4px; cursor: pointer; }
        .legend { display: flex; flex-wrap: wrap; gap: 4px 14px; padding: 6px 16px; color: var(--muted); font-size: 12px; }
        .legend i { display: inline-block; width: 12px; height: 12px; vertical-align: -2px; margin-right: 4px; border-radius: 2px; }
        .legend i.tick { width: 3px; height: 7px; vertical-align: -2px; border-radius: 0; }
        .legend i.bar { width: 2px; height: 14px; vertical-align: -3px; border-radius: 0; }
        .legend i.run { width: 2px; height: 16px; vertical-align: -4px; border-radius: 0; }
        .legend i.dashed { background: repeating-linear-gradient(var(--error) 0 4px, transparent 4px 7px); }
        .legend i.flag { width: 9px; height: 14px; vertical-align: -3px; border-radius: 0; background: linear-gradient(var(--mark), var(--mark)) 0 0 / 2px 14px no-repeat, linear-gradient(var(--mark), var(--mark)) 2px 0 / 7px 5px no-repeat; }
        #chart { position: relative; margin: 0 16px; border: 1px solid #e0e0e0; border-radius: 4px; }
        canvas { display: block; width: 100%; cursor: grab; }
        canvas.dragging { cursor: grabbing; }
        #tip { position: absolute; pointer-events: none; background: rgba(32,33,36,.95); color: #fff; padding: 6px 8px; border-radius: 4px; max-width: 420px; font-size: 12px; display: none; z-index: 2; }
        #tip b { color: #fff; }
        #findings { margin: 12px 16px 24px; border-collapse: collapse; width: calc(100% - 32px); }
        #findings th, #findings td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eee; vertical-align: top; }
        #findings tr.f { cursor: pointer; }
        #findings tr.f:hover { background: #f1f3f4; }
        #findings tr.selected, #findings tr.selected:hover { background: #e8f0fe; box-shadow: inset 3px 0 #1a73e8; }
        #findings tr.agg td:last-child { color: var(--muted); }
        .sev-error { color: var(--error); font-weight: 600; }
        .sev-warning { color: var(--warning); font-weight: 600; }
        .note { color: var(--muted); margin: 0 16px; font-size: 12px; }
        </style>

        """

    static let body = """
        <header>
          <h1 id="title">Lifecycle timeline</h1>
          <div class="summary" id="summary"></div>
          <div class="controls"><button id="zoom-in" title="Zoom in (+)">+</button><button id="zoom-out" title="Zoom out (−)">−</button><button id="reset" title="Show everything (0)">Reset</button></div>
        </header>
        <div class="legend">
          <span><i style="background:var(--active)"></i>active</span>
          <span><i style="background:var(--inactive)"></i>inactive</span>
          <span><i style="background:var(--background)"></i>background</span>
          <span>▲ open</span><span>▼ dismiss</span>
          <span id="legend-write"><i class="tick" style="background:var(--write)"></i>write</span>
          <span id="legend-save"><i class="bar" style="background:var(--save)"></i>save</span>
          <span id="legend-mark"><i class="flag"></i>mark</span>
          <span id="legend-launch"><i class="run" style="background:var(--launch)"></i>launch</span>
          <span><i class="run" style="background:var(--terminate)"></i>terminate</span>
          <span><i class="run dashed"></i>ended without terminate</span>
          <span><i class="run" style="background:var(--kill)"></i>kill</span>
          <span><i style="background:var(--error);transform:rotate(45deg)"></i>error</span>
          <span><i style="background:var(--warning);transform:rotate(45deg)"></i>warning</span>
          <span>Scroll to zoom, drag to pan, click a finding to go to it.</span>
        </div>
        <div id="chart"><canvas id="canvas"></canvas><div id="tip"></div></div>
        <p class="note" id="note"></p>
        <table id="findings"><thead><tr><th>seq</th><th>severity</th><th>rule</th><th>what happened, and the fix</th></tr></thead><tbody></tbody></table>

        """
}
