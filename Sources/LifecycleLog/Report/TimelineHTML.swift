extension Timeline {
    /// The timeline as one self-contained HTML page: no network access, no
    /// external scripts or fonts. A lane per window row and one for the app
    /// phase, phase bands, opens, dismisses, writes and saves as ticks, run
    /// boundaries, and each finding as a marker; zoom with the wheel or the
    /// buttons, pan by dragging. The same timeline always gives the same bytes.
    public func html() -> String {
        var page = Self.pageHead
        page += "<title>\(Self.escapeHTML(ExpectedReport.fileName(trace))) · lifecycle timeline</title>\n"
        page += Self.style
        page += "</head>\n<body>\n"
        page += Self.body
        page += "<script type=\"application/json\" id=\"timeline-data\">"
        page += Self.scriptSafe(dataJSON())
        page += "</script>\n<script>\n"
        page += Self.script
        page += "</script>\n</body>\n</html>\n"
        return page
    }

    /// The data the page draws, as compact JSON arrays.
    func dataJSON() -> String {
        var out: [UInt8] = []
        func raw(_ s: String) { out.append(contentsOf: s.utf8) }
        func str(_ s: String) { JSONWriter.writeString(s, into: &out) }
        func num(_ d: Double) { raw(JSONWriter.number(d)) }
        let phases: [ScenePhase] = [.active, .inactive, .background]
        raw("{\"trace\":"); str(trace)
        raw(",\"events\":\(events),\"runs\":\(runs),\"start\":"); num(startTime)
        raw(",\"end\":"); num(endTime)
        raw(",\"rows\":\(rows),\"buckets\":\(buckets),\"errors\":\(errors),\"warnings\":\(warnings),\"more\":\(moreFindings),\"labels\":[")
        for (i, l) in labels.enumerated() { if i > 0 { raw(",") }; str(l) }
        raw("],\"segments\":[")
        for (i, s) in segments.enumerated() {
            if i > 0 { raw(",") }
            // `!`: every phase is in `phases`.
            raw("[\(s.row),"); num(s.start); raw(","); num(s.end); raw(",\(phases.firstIndex(of: s.phase)!),\(s.label)]")
        }
        raw("],\"marks\":[")
        let kinds: [Mark.Kind] = [.open, .dismiss, .write, .save, .launch, .terminate, .uncleanEnd]
        for (i, m) in marks.enumerated() {
            if i > 0 { raw(",") }
            // `!`: every kind is in `kinds`.
            raw("[\(kinds.firstIndex(of: m.kind)!),\(m.row),"); num(m.t); raw(",\(m.count),\(m.seq)]")
        }
        raw("],\"findings\":[")
        for (i, p) in findings.enumerated() {
            if i > 0 { raw(",") }
            raw("["); num(p.t); raw(",\(p.row),\(p.finding.severity == .error ? 0 : 1),")
            str(p.finding.rule.rawValue)
            raw(",\(p.finding.seq),")
            str(p.finding.message)
            raw(",[\(p.finding.related.map(String.init).joined(separator: ","))]]")
        }
        raw("]}")
        return String(decoding: out, as: UTF8.self)
    }

    /// `json` made safe to stand inside a `<script>` element: `<`, `>` and `&`
    /// become `\u003c`, `\u003e` and `\u0026`, and U+2028 and U+2029 become
    /// `\u2028` and `\u2029`. JSON has these characters only inside strings, where
    /// the escapes mean the same; without them a string holding `</script>` or
    /// `<!--<script` ends the element early or swallows the rest of the page.
    static func scriptSafe(_ json: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(json.utf8.count)
        var bytes = json.utf8.makeIterator()
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
        return String(decoding: out, as: UTF8.self)
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
        :root { --active:#2e7d32; --inactive:#f0a500; --background:#9aa0a6; --error:#d32f2f; --warning:#ef6c00; --ink:#202124; --muted:#5f6368; }
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
        #chart { position: relative; margin: 0 16px; border: 1px solid #e0e0e0; border-radius: 4px; }
        canvas { display: block; width: 100%; cursor: grab; }
        canvas.dragging { cursor: grabbing; }
        #tip { position: absolute; pointer-events: none; background: rgba(32,33,36,.95); color: #fff; padding: 6px 8px; border-radius: 4px; max-width: 420px; font-size: 12px; display: none; z-index: 2; }
        #tip b { color: #fff; }
        #findings { margin: 12px 16px 24px; border-collapse: collapse; width: calc(100% - 32px); }
        #findings th, #findings td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eee; vertical-align: top; }
        #findings tr.f { cursor: pointer; }
        #findings tr.f:hover { background: #f1f3f4; }
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
          <span><i style="background:#1a73e8;width:3px"></i>write</span>
          <span><i style="background:#0b8043;width:3px"></i>save</span>
          <span><i style="background:#1a73e8;width:2px"></i>launch</span>
          <span><i style="background:#202124;width:2px"></i>terminate</span>
          <span><i style="background:var(--error);width:2px"></i>ended without terminate</span>
          <span><i style="background:var(--error);transform:rotate(45deg)"></i>error</span>
          <span><i style="background:var(--warning);transform:rotate(45deg)"></i>warning</span>
          <span>Scroll to zoom, drag to pan, click a finding to go to it.</span>
        </div>
        <div id="chart"><canvas id="canvas"></canvas><div id="tip"></div></div>
        <p class="note" id="note"></p>
        <table id="findings"><thead><tr><th>seq</th><th>severity</th><th>rule</th><th>what happened, and the fix</th></tr></thead><tbody></tbody></table>

        """

    static let script = #"""
        "use strict";
        const D = JSON.parse(document.getElementById("timeline-data").textContent);
        const PHASE = ["#2e7d32", "#f0a500", "#9aa0a6"], PHASE_NAME = ["active", "inactive", "background"];
        const KIND = ["open", "dismiss", "write", "save", "launch", "terminate", "ended without terminate"];
        const canvas = document.getElementById("canvas"), ctx = canvas.getContext("2d"), tip = document.getElementById("tip");
        const LABEL_W = 170, LANE_H = 30, TOP = 40, PAD = 8;
        const lanes = D.rows + 1;
        const span = Math.max(D.end - D.start, 1);
        let v0 = D.start - span * 0.01, v1 = D.end + span * 0.01, width = 800, hits = [];
        const name = D.trace.split("/").pop();
        document.getElementById("title").textContent = name;
        const s = document.getElementById("summary");
        s.innerHTML = `<span>${D.events} events</span><span>${D.runs} run${D.runs === 1 ? "" : "s"}</span>` +
          `<span class="errors">${D.errors} error${D.errors === 1 ? "" : "s"}</span><span class="warnings">${D.warnings} warning${D.warnings === 1 ? "" : "s"}</span>`;
        if (D.buckets > 0) document.getElementById("note").textContent =
          `Long trace: shown on a grid of ${D.buckets} time steps; short phase changes may be merged, and ticks show counts.` +
          (D.more > 0 ? ` ${D.more} more findings are counted in the summary but not placed.` : "");
        const laneY = row => TOP + (row + 1) * LANE_H;
        const x = t => LABEL_W + (t - v0) / (v1 - v0) * (width - LABEL_W - PAD);
        const tAt = px => v0 + (px - LABEL_W) / (width - LABEL_W - PAD) * (v1 - v0);
        function fmt(ms) {
          const a = Math.abs(ms);
          if (a >= 3600000) return (ms / 3600000).toFixed(a >= 36000000 ? 0 : 1) + " h";
          if (a >= 60000) return (ms / 60000).toFixed(a >= 600000 ? 0 : 1) + " min";
          if (a >= 1000) return (ms / 1000).toFixed(a >= 10000 ? 0 : 1) + " s";
          return Math.round(ms) + " ms";
        }
        function draw() {
          const dpr = window.devicePixelRatio || 1;
          width = canvas.parentElement.clientWidth;
          const height = TOP + lanes * LANE_H + 6;
          canvas.width = width * dpr; canvas.height = height * dpr; canvas.style.height = height + "px";
          ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
          ctx.clearRect(0, 0, width, height);
          ctx.font = "12px -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Arial, sans-serif";
          hits = [];
          ctx.textBaseline = "middle";
          // lane backgrounds
          for (let r = -1; r < D.rows; r++) {
            ctx.fillStyle = r % 2 ? "#fafafa" : "#fff";
            ctx.fillRect(0, laneY(r) - LANE_H / 2, width, LANE_H);
          }
          // time axis, measured from the start of the trace
          ctx.fillStyle = "#5f6368"; ctx.strokeStyle = "#e3e6e8";
          const step = niceStep((v1 - v0) / 8);
          for (let t = D.start + Math.ceil((v0 - D.start) / step) * step; t <= v1; t += step) {
            const px = x(t); if (px < LABEL_W) continue;
            ctx.beginPath(); ctx.moveTo(px, TOP - 8); ctx.lineTo(px, height); ctx.stroke();
            ctx.fillText(fmt(t - D.start), px + 3, TOP - 16);
          }
          ctx.fillStyle = "#202124"; ctx.fillText("app phase", 8, laneY(-1));
          ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, 0, width - LABEL_W, height); ctx.clip();
          // phase bands
          const labelAt = {};
          for (const [row, a, b, ph, label] of D.segments) {
            if (b < v0 || a > v1) continue;
            const xa = Math.max(x(a), LABEL_W - 1), xb = Math.max(x(b), xa + 1);
            ctx.fillStyle = PHASE[ph];
            ctx.fillRect(xa, laneY(row) - 8, xb - xa, 16);
            hits.push({x0: xa, x1: xb, y0: laneY(row) - 8, y1: laneY(row) + 8, text: `<b>${esc(D.labels[label])}</b><br>${PHASE_NAME[ph]} from ${fmt(a - D.start)} to ${fmt(b - D.start)}`});
            if (row >= 0 && (labelAt[row] === undefined || a <= v0)) labelAt[row] = label;
            if (row >= 0 && xb - xa > 70) { ctx.fillStyle = "#fff"; ctx.fillText(clip(D.labels[label], xb - xa - 8), xa + 4, laneY(row)); }
          }
          // marks
          for (const [k, row, t, count, seq] of D.marks) {
            if (t < v0 || t > v1) continue;
            const px = x(t), y = laneY(row);
            const what = `${count > 1 ? count + " × " : ""}${KIND[k]} (seq ${seq}${count > 1 ? "…" : ""}) at ${fmt(t - D.start)}`;
            if (k >= 4) {
              ctx.strokeStyle = k === 4 ? "#1a73e8" : k === 5 ? "#202124" : "#d32f2f";
              ctx.setLineDash(k === 6 ? [5, 4] : []); ctx.lineWidth = 2;
              ctx.beginPath(); ctx.moveTo(px, TOP - 4); ctx.lineTo(px, height); ctx.stroke();
              ctx.setLineDash([]); ctx.lineWidth = 1;
              hits.push({x0: px - 3, x1: px + 3, y0: TOP - 4, y1: height, text: what});
            } else if (k <= 1) {
              ctx.fillStyle = "#202124"; ctx.beginPath();
              if (k === 0) { ctx.moveTo(px, y - 15); ctx.lineTo(px - 5, y - 8); ctx.lineTo(px + 5, y - 8); }
              else { ctx.moveTo(px, y + 15); ctx.lineTo(px - 5, y + 8); ctx.lineTo(px + 5, y + 8); }
              ctx.fill();
              hits.push({x0: px - 5, x1: px + 5, y0: y - 15, y1: y + 15, text: what});
            } else {
              ctx.fillStyle = k === 2 ? "#1a73e8" : "#0b8043";
              ctx.fillRect(px - 1, k === 2 ? y + 8 : y - 12, 2, k === 2 ? 6 : 24);
              hits.push({x0: px - 3, x1: px + 3, y0: y - 12, y1: y + 14, text: what});
            }
          }
          // findings
          for (const f of D.findings) {
            const [t, row, sev, rule, seq, msg] = f;
            if (t < v0 || t > v1) continue;
            const px = x(t), y = laneY(row) - 13;
            ctx.fillStyle = sev === 0 ? "#d32f2f" : "#ef6c00";
            ctx.beginPath(); ctx.moveTo(px, y - 6); ctx.lineTo(px + 6, y); ctx.lineTo(px, y + 6); ctx.lineTo(px - 6, y); ctx.closePath(); ctx.fill();
            ctx.strokeStyle = "#fff"; ctx.stroke();
            hits.push({x0: px - 7, x1: px + 7, y0: y - 7, y1: y + 7, front: true, text: `<b>${sev === 0 ? "error" : "warning"}: ${esc(rule)}</b> at seq ${seq}<br>${esc(msg)}`});
          }
          ctx.restore();
          // window names at the left edge
          ctx.fillStyle = "#202124";
          for (let r = 0; r < D.rows; r++) ctx.fillText(clip(labelAt[r] !== undefined ? D.labels[labelAt[r]] : `window row ${r + 1}`, LABEL_W - 12), 8, laneY(r));
        }
        function niceStep(raw) {
          const p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
          for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
          return 10 * p;
        }
        function clip(text, px) {
          if (ctx.measureText(text).width <= px) return text;
          while (text.length > 1 && ctx.measureText(text + "…").width > px) text = text.slice(0, -1);
          return text + "…";
        }
        function esc(s) { return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]); }
        function zoom(factor, around) {
          const c = around === undefined ? (v0 + v1) / 2 : around;
          const minSpan = Math.max(span / 1e6, 0.001);
          let a = c - (c - v0) * factor, b = c + (v1 - c) * factor;
          if (b - a < minSpan) { a = c - minSpan / 2; b = c + minSpan / 2; }
          v0 = a; v1 = b; draw();
        }
        function reset() { v0 = D.start - span * 0.01; v1 = D.end + span * 0.01; draw(); }
        canvas.addEventListener("wheel", e => { e.preventDefault(); const r = canvas.getBoundingClientRect(); zoom(e.deltaY > 0 ? 1.25 : 0.8, tAt(e.clientX - r.left)); }, {passive: false});
        let drag = null;
        canvas.addEventListener("mousedown", e => { drag = {x: e.clientX, v0, v1}; canvas.classList.add("dragging"); });
        window.addEventListener("mouseup", () => { drag = null; canvas.classList.remove("dragging"); });
        window.addEventListener("mousemove", e => {
          const r = canvas.getBoundingClientRect();
          if (drag) {
            const dt = (e.clientX - drag.x) / (width - LABEL_W - PAD) * (drag.v1 - drag.v0);
            v0 = drag.v0 - dt; v1 = drag.v1 - dt; draw(); tip.style.display = "none"; return;
          }
          const px = e.clientX - r.left, py = e.clientY - r.top;
          const inside = hits.filter(h => px >= h.x0 && px <= h.x1 && py >= h.y0 && py <= h.y1);
          const hit = inside.find(h => h.front) || inside[inside.length - 1];
          if (!hit) { tip.style.display = "none"; return; }
          tip.innerHTML = hit.text; tip.style.display = "block";
          tip.style.left = Math.min(px + 14, width - 430) + "px"; tip.style.top = (py + 14) + "px";
        });
        canvas.addEventListener("mouseleave", () => { tip.style.display = "none"; });
        document.getElementById("zoom-in").onclick = () => zoom(0.5);
        document.getElementById("zoom-out").onclick = () => zoom(2);
        document.getElementById("reset").onclick = reset;
        window.addEventListener("keydown", e => { if (e.key === "+" || e.key === "=") zoom(0.5); else if (e.key === "-") zoom(2); else if (e.key === "0") reset(); });
        window.addEventListener("resize", draw);
        const tbody = document.querySelector("#findings tbody");
        const rows = [];
        for (const [t, row, sev, rule, seq, msg, related] of D.findings) {
          rows.push(`<tr class="f" data-t="${t}"><td>${seq}</td><td class="${sev === 0 ? "sev-error" : "sev-warning"}">${sev === 0 ? "error" : "warning"}</td><td>${esc(rule)}</td><td>${esc(msg)}${related.length ? ` <span style="color:#5f6368">(related: ${related.join(", ")})</span>` : ""}</td></tr>`);
        }
        if (!rows.length) rows.push(`<tr><td colspan="4">No findings: nothing to fix in this trace.</td></tr>`);
        tbody.innerHTML = rows.join("");
        tbody.addEventListener("click", e => {
          const tr = e.target.closest("tr.f"); if (!tr) return;
          const t = Number(tr.dataset.t), w = Math.max(span / 20, 50);
          v0 = t - w / 2; v1 = t + w / 2; draw(); window.scrollTo({top: 0, behavior: "smooth"});
        });
        draw();

        """#
}
