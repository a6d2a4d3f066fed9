"use strict";
const D = JSON.parse(document.getElementById("timeline-data").textContent);
const PHASE = ["#2e7d32", "#f0a500", "#9aa0a6"], PHASE_NAME = ["active", "inactive", "background"];
// Mark kinds, in the order of Timeline.dataJSON; 4 to 7 are run boundaries. The colours are the legend's.
const KIND = ["open", "dismiss", "write", "save", "launch", "terminate", "ended without terminate", "kill", "mark"];
const BOUNDARY_COLOR = ["", "", "", "", "#1a73e8", "#202124", "#d32f2f", "#8e24aa"];
const WRITE_COLOR = "#795548", SAVE_COLOR = "#0b8043", MARK_COLOR = "#00838f", MARK = 8;
const isBoundary = k => k >= 4 && k <= 7;
const SEV = ["error", "warning"], SEV_COLOR = ["#d32f2f", "#ef6c00"];
const canvas = document.getElementById("canvas"), ctx = canvas.getContext("2d"), tip = document.getElementById("tip");
const LABEL_W = 170, LANE_H = 30, TOP = 54, PAD = 8, AXIS_Y = 14, RUNS_Y = 26;  // axis labels, then a strip for dense run boundaries, then the lanes
const MORE = D.aggregated.length > 0 ? 1 : 0;  // a lane for the counted findings
// Lanes, top to bottom: the counted findings (if any), then each process in turn: its name
// (when there are several), its app phase, its window rows.
const P = Math.max(D.processes.length, 1), MULTI = D.processes.length > 1;
const procRows = p => D.processRows[p] || 0;
// A process that never ran (a test runner that only marks) has no app phase: its lane holds its marks.
const phased = new Set(), marked = new Set();
for (const sg of D.segments) if (sg[0] === -1) phased.add(sg[5]);
for (const m of D.marks) if (m[0] === MARK) marked.add(m[5]);
const base = [];  // the lane index of each process's app-phase lane
let lanes = MORE;
for (let p = 0; p < P; p++) { if (MULTI) lanes++; base.push(lanes); lanes += 1 + procRows(p); }
// Lanes of thousands of windows would make a canvas taller than a browser draws (it stays
// blank): past SCROLL_AT pixels the chart scrolls, and the canvas draws only what is in view.
const CONTENT_H = TOP + (lanes - 1) * LANE_H + LANE_H / 2 + 6, SCROLL_AT = 6000, SCROLL = CONTENT_H > SCROLL_AT;
const chart = document.getElementById("chart");
let scrollY = 0;
if (SCROLL) {
  const spacer = document.createElement("div");
  chart.appendChild(spacer);
  chart.style.overflowY = "auto";
  canvas.style.position = "sticky"; canvas.style.top = "0";
  const fit = () => {
    const h = Math.max(400, Math.min(CONTENT_H, window.innerHeight - 120));
    chart.style.height = (h + 2) + "px"; spacer.style.height = (CONTENT_H - h) + "px";
  };
  fit();
  window.addEventListener("resize", fit);
  chart.addEventListener("scroll", () => { scrollY = chart.scrollTop; draw(); });
}
const span = Math.max(D.end - D.start, 1);
let v0 = D.start - span * 0.01, v1 = D.end + span * 0.01, width = 800, hits = [], selected = -1;
const name = D.trace.split("/").pop();
document.getElementById("title").textContent = name;
const s = document.getElementById("summary");
s.innerHTML = `<span>${D.events} events</span>${MULTI ? `<span>${D.processes.length} processes</span>` : ""}<span>${D.runs} run${D.runs === 1 ? "" : "s"}</span>` +
  `<span class="errors">${D.errors} error${D.errors === 1 ? "" : "s"}</span><span class="warnings">${D.warnings} warning${D.warnings === 1 ? "" : "s"}</span>`;
{
  let note = "";
  if (SCROLL) note += `${lanes} lanes: the chart scrolls (its scroll bar, or Shift+scroll over it). `;
  if (D.buckets > 0) note += `Long trace: shown on a grid of ${D.buckets} time steps; short phase changes may be merged, and ticks show counts. `;
  if (D.more > 0) {
    let e = 0, w = 0;
    for (const a of D.aggregated) if (a[2] === 0) e += a[4]; else w += a[4];
    note += `${D.findings.length} findings are placed one by one (every error first); ${D.more} more ` +
      `(${e} error${e === 1 ? "" : "s"}, ${w} warning${w === 1 ? "" : "s"}) are aggregated into ${D.aggregated.length} counts ` +
      `per stretch and rule, in the “more findings” lane and at the end of the table: click one to zoom to its stretch.`;
  }
  document.getElementById("note").textContent = note;
}
// The middle of a lane: process p's row (-1: its app phase, -2: its name), or the counted findings' lane.
const laneIndex = (p, row) => row === -3 ? 0 : base[p] + row + 1;
const laneY = (p, row) => TOP + laneIndex(p, row) * LANE_H - scrollY;
const MORE_Y = () => TOP - scrollY;
const plotW = () => width - LABEL_W - PAD;
const x = t => LABEL_W + (t - v0) / (v1 - v0) * plotW();
const tAt = px => v0 + (px - LABEL_W) / plotW() * (v1 - v0);
// Time axis: a step of 1, 2 or 5 × 10^k ms (or whole seconds, minutes, hours), labelled in the
// step's unit with exactly the decimals the step needs, so neighbouring labels never repeat.
const UNITS = [[3600000, "h"], [60000, "min"], [1000, "s"], [1, "ms"]];
const STEPS = [];
for (let p = 1e-3; p < 1e3; p *= 10) for (const m of [1, 2, 5]) STEPS.push(m * p);
for (const m of [1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000]) STEPS.push(m);
for (const m of [1, 2, 3, 6, 12, 24, 48, 96, 168, 336, 720, 1440, 2880, 7200]) STEPS.push(m * 3600000);
STEPS.sort((a, b) => a - b);
function axisStep(range, pixels) {
  const want = range / Math.max(2, Math.floor(pixels / 110));
  for (const st of STEPS) if (st >= want) return st;
  return STEPS[STEPS.length - 1] * Math.ceil(want / STEPS[STEPS.length - 1]);
}
function axisFormat(step) {
  // In the step's unit, after whole larger units: "21 h 51 min 42 s" rather than "78702 s".
  const i = Math.max(0, UNITS.findIndex(([u]) => step >= u) < 0 ? UNITS.length - 1 : UNITS.findIndex(([u]) => step >= u));
  const [unit, suffix] = UNITS[i];
  let decimals = 0;
  while (decimals < 6 && Math.abs(Math.round(step / unit * 10 ** decimals) - step / unit * 10 ** decimals) > 1e-6) decimals++;
  return ms => {
    const sign = ms < 0 ? "−" : "", parts = [];
    let rest = Math.round(Math.abs(ms) / unit * 10 ** decimals) / 10 ** decimals * unit;
    for (const [u, name] of UNITS.slice(0, i)) {
      const whole = Math.floor(rest / u + 1e-9);
      if (whole > 0 || parts.length) { parts.push(`${whole} ${name}`); rest -= whole * u; }
    }
    const last = Math.round(rest / unit * 10 ** decimals) / 10 ** decimals;
    if (last > 0 || !parts.length) parts.push(`${last.toFixed(decimals)} ${suffix}`);
    return sign + parts.join(" ");
  };
}
function fmt(ms) {
  const a = Math.abs(ms);
  if (a >= 3600000) return (ms / 3600000).toFixed(a >= 36000000 ? 0 : 1) + " h";
  if (a >= 60000) return (ms / 60000).toFixed(a >= 600000 ? 0 : 1) + " min";
  if (a >= 1000) return (ms / 1000).toFixed(a >= 10000 ? 0 : 1) + " s";
  return Math.round(ms) + " ms";
}
// Pixel columns: what falls into one is drawn once.
const COL = 3, TICK_COL = 6, OPEN_COL = 10, FCOL = 16;
const column = (px, w) => Math.floor((px - LABEL_W) / w);
function draw() {
  const dpr = window.devicePixelRatio || 1;
  width = canvas.parentElement.clientWidth;
  const height = SCROLL ? chart.clientHeight : CONTENT_H;
  canvas.width = width * dpr; canvas.height = height * dpr; canvas.style.height = height + "px";
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.font = "12px -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Arial, sans-serif";
  hits = [];
  ctx.textBaseline = "middle";
  const visible = y => y > -LANE_H && y < height + LANE_H;
  for (let i = 0; i < lanes; i++) {
    const y = TOP + i * LANE_H - scrollY;
    if (!visible(y)) continue;
    ctx.fillStyle = (i + 1) % 2 ? "#fafafa" : "#fff";
    ctx.fillRect(0, y - LANE_H / 2, width, LANE_H);
  }
  if (MULTI) for (let p = 0; p < P; p++) {
    const y = laneY(p, -2);
    if (!visible(y)) continue;
    ctx.fillStyle = "#e8eaed"; ctx.fillRect(0, y - LANE_H / 2, width, LANE_H);
    ctx.fillStyle = "#bdc1c6"; ctx.fillRect(0, y - LANE_H / 2, width, 1);
  }
  // time axis, measured from the start of the trace
  ctx.fillStyle = "#5f6368"; ctx.strokeStyle = "#e3e6e8";
  const step = axisStep(v1 - v0, plotW()), label = axisFormat(step);
  let lastRight = LABEL_W - 4;
  const drawn = [];
  for (let k = Math.ceil((v0 - D.start) / step); D.start + k * step <= v1; k++) {
    const t = D.start + k * step, px = x(t);
    if (px < LABEL_W) continue;
    ctx.beginPath(); ctx.moveTo(px, AXIS_Y + 8); ctx.lineTo(px, height); ctx.stroke();
    const text = label(k * step), w = ctx.measureText(text).width;
    if (px + 3 >= lastRight + 8 && px + 3 + w <= width - 2) { ctx.fillText(text, px + 3, AXIS_Y); lastRight = px + 3 + w; drawn.push(text); }
  }
  // What the canvas shows, for screen readers (and the page's own checks).
  // Below the axis, only lanes (when they scroll, they pass under it).
  const laneTop = SCROLL ? TOP - LANE_H / 2 : 0;
  ctx.save(); ctx.beginPath(); ctx.rect(0, laneTop, width, height - laneTop); ctx.clip();
  ctx.fillStyle = "#202124";
  for (let p = 0; p < P; p++) {
    if (MULTI) {
      ctx.font = "600 12px -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Arial, sans-serif";
      ctx.fillText(clip(D.processes[p], width - 16), 8, laneY(p, -2));
      ctx.font = "12px -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Arial, sans-serif";
    }
    ctx.fillText(!phased.has(p) && marked.has(p) ? "marks" : "app phase", MULTI ? 16 : 8, laneY(p, -1));
  }
  if (MORE) ctx.fillText("more findings", 8, MORE_Y());
  ctx.restore();
  ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, laneTop, width - LABEL_W, height - laneTop); ctx.clip();
  drawPhases();
  drawMarks(height);
  drawAggregated();
  drawFindings();
  ctx.restore();
  // Window names at the left edge: a row that holds several windows in view says so.
  ctx.save(); ctx.beginPath(); ctx.rect(0, laneTop, LABEL_W, height - laneTop); ctx.clip();
  ctx.fillStyle = "#202124";
  const named = [];
  for (let p = 0; p < P; p++) {
    if (MULTI && visible(laneY(p, -2))) named.push(D.processes[p] + ":");
    for (let r = 0; r < procRows(p); r++) {
      const y = laneY(p, r);
      if (!visible(y)) continue;
      const held = labelsAt.get(p + "," + r);
      const text = !held ? `window row ${r + 1}` : held.count === 1 ? D.labels[held.first]
        : `${D.labels[held.first]} +${held.count - 1} more`;
      ctx.fillText(clip(text, LABEL_W - (MULTI ? 20 : 12)), MULTI ? 16 : 8, y);
      named.push(text);
    }
  }
  ctx.restore();
  // What the canvas shows, for screen readers (and the page's own checks).
  canvas.setAttribute("aria-label", `Timeline of ${name} from ${fmt(v0 - D.start)} to ${fmt(v1 - D.start)}; ` +
    `window lanes: ${named.join(", ")}; ${marksShown.length ? `marks: ${marksShown.join(", ")}; ` : ""}time axis: ${drawn.join(", ")}`);
}
let labelsAt = new Map();  // "process,row" → the windows the row shows in view: {first, count}
function drawPhases() {
  // Bands at least a column wide are drawn as they are; narrower ones add their time to
  // their column, which is then painted in the phase that covers most of it.
  labelsAt = new Map();
  const seen = new Map();  // "process,row" → the labels seen in view
  const cover = new Map();  // lane → column → [active, inactive, background] in ms
  for (const [row, a, b, ph, label, p] of D.segments) {
    if (b < v0 || a > v1) continue;
    if (row >= 0) {
      const key = p + "," + row;
      let held = labelsAt.get(key), labels = seen.get(key);
      if (!held) { labelsAt.set(key, held = {first: label, from: a, count: 0}); seen.set(key, labels = new Set()); }
      if (!labels.has(label)) { labels.add(label); held.count++; }
      if (a < held.from) { held.first = label; held.from = a; }
    }
    const y = laneY(p, row);
    if (y < -LANE_H || y > canvas.height + LANE_H) continue;
    const xa = Math.max(x(a), LABEL_W - 1), xb = Math.min(x(b), width + 1);
    if (xb - xa < COL) {
      const lane = p + "," + row;
      let cols = cover.get(lane); if (!cols) cover.set(lane, cols = {p, row, cols: new Map()});
      cols = cols.cols;
      const c = column((xa + xb) / 2, COL);
      let acc = cols.get(c); if (!acc) cols.set(c, acc = [0, 0, 0, label]);
      acc[ph] += b - a;
      continue;
    }
    ctx.fillStyle = PHASE[ph];
    ctx.fillRect(xa, y - 8, xb - xa, 16);
    const who = row >= 0 ? esc(D.labels[label]) : "app phase";
    hits.push({x0: xa, x1: xb, y0: y - 8, y1: y + 8, text: `<b>${who}</b>${MULTI ? " · " + esc(D.processes[p]) : ""}<br>${PHASE_NAME[ph]} from ${fmt(a - D.start)} to ${fmt(b - D.start)}`});
    if (row >= 0 && xb - xa > 70) { ctx.fillStyle = "#fff"; ctx.fillText(clip(D.labels[label], xb - xa - 8), Math.max(xa, LABEL_W) + 4, y); }
  }
  for (const {p, row, cols} of cover.values()) for (const [c, acc] of cols) {
    const y = laneY(p, row);
    const ph = acc[0] >= acc[1] && acc[0] >= acc[2] ? 0 : acc[1] >= acc[2] ? 1 : 2, total = acc[0] + acc[1] + acc[2];
    const xa = LABEL_W + c * COL;
    ctx.fillStyle = PHASE[ph];
    ctx.fillRect(xa, y - 8, COL, 16);
    const share = i => total > 0 ? Math.round(acc[i] / total * 100) + "% " + PHASE_NAME[i] : "";
    hits.push({x0: xa, x1: xa + COL, y0: y - 8, y1: y + 8,
      text: `<b>${row >= 0 ? esc(D.labels[acc[3]]) : "app phase"}</b>${MULTI ? " · " + esc(D.processes[p]) : ""}<br>short phases here (zoom in to see each): ${[0, 1, 2].filter(i => acc[i] > 0).map(share).join(", ") || PHASE_NAME[ph]}`});
  }
}
let marksShown = [];  // the texts of the marks in view (the first MARKS_LISTED), for the canvas's label
const MARKS_LISTED = 50;
function drawMarks(height) {
  // One glyph per kind, lane and column; run boundaries thin out to short ticks when dense.
  const cells = new Map();
  for (const [k, row, t, count, seq, p, label] of D.marks) {
    if (t < v0 || t > v1) continue;
    const key = `${k},${p},${row},${column(x(t), k <= 1 || k === MARK ? OPEN_COL : TICK_COL)}`;
    const cell = cells.get(key);
    if (cell) { cell.count += count; cell.last = seq; } else cells.set(key, {k, p, row, t, count, seq, last: seq, label});
  }
  let boundaries = 0;
  for (const c of cells.values()) if (isBoundary(c.k)) boundaries++;
  const dense = boundaries > plotW() / 12;
  // Flags of `mark` events, per lane in time order: each text runs to the next flag of its lane.
  const flags = [...cells.values()].filter(c => c.k === MARK).sort((a, b) => a.p - b.p || a.row - b.row || a.t - b.t || a.seq - b.seq);
  marksShown = [];
  for (const c of cells.values()) if (c.k === MARK && marksShown.length < MARKS_LISTED) marksShown.push(D.labels[c.label] + (c.count > 1 ? ` +${c.count - 1}` : ""));
  for (const cell of cells.values()) {
    const {k, p, row, t, count, seq, last, label} = cell, px = x(t), y = laneY(p, row);
    if (!isBoundary(k) && (y < -LANE_H || y > height + LANE_H)) continue;
    const kind = k !== MARK ? KIND[k] : `${count > 1 ? "marks, the first" : "mark"} “${esc(D.labels[label])}”`;
    const what = `${count > 1 ? count + " × " : ""}${kind}${MULTI ? " of " + esc(D.processes[p]) : ""} (seq ${seq}${count > 1 ? "…" + last : ""}) at ${fmt(t - D.start)}`;
    if (k === MARK) {
      cell.what = what;  // drawn below, with the other flags
    } else if (isBoundary(k)) {
      // A run boundary spans its own process's lanes (with one process, every lane).
      ctx.strokeStyle = BOUNDARY_COLOR[k];
      ctx.setLineDash(k === 6 && !dense ? [5, 4] : []); ctx.lineWidth = dense ? 1 : 2;
      const head = laneY(p, -2), bottom = laneY(p, procRows(p) - 1) + LANE_H / 2;
      const y0 = MULTI ? (dense ? head - 5 : head - LANE_H / 2) : RUNS_Y - 5;
      const y1 = MULTI ? (dense ? head + 5 : bottom) : dense ? RUNS_Y + 5 : height;
      ctx.beginPath(); ctx.moveTo(px, y0); ctx.lineTo(px, y1); ctx.stroke();
      ctx.setLineDash([]); ctx.lineWidth = 1;
      hits.push({x0: px - 2, x1: px + 2, y0, y1, text: what});
    } else if (k <= 1) {
      ctx.fillStyle = "#202124"; ctx.beginPath();
      if (k === 0) { ctx.moveTo(px, y - 15); ctx.lineTo(px - 4, y - 9); ctx.lineTo(px + 4, y - 9); }
      else { ctx.moveTo(px, y + 15); ctx.lineTo(px - 4, y + 9); ctx.lineTo(px + 4, y + 9); }
      ctx.fill();
      hits.push({x0: px - 4, x1: px + 4, y0: y - 15, y1: y + 15, text: what});
    } else {
      ctx.fillStyle = k === 2 ? WRITE_COLOR : SAVE_COLOR;
      ctx.fillRect(px - 0.5, k === 2 ? y + 8 : y - 12, 1.5, k === 2 ? 6 : 24);
      hits.push({x0: px - 2, x1: px + 2, y0: y - 12, y1: y + 14, text: what});
    }
  }
  // Flags last, over the bands and ticks: a staff, a pennant, and the text on a white tab.
  ctx.font = "11px -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Arial, sans-serif";
  // The text goes right of its flag, up to the next flag of the lane; where that leaves less
  // room than the text needs (the last flag, at the chart's right edge), left of it when there
  // is more room there, back to the previous text.
  // Dense flags (a long trace zoomed out) keep to the top of the lane, clear of its phases.
  let laneKey = "", prevRight = LABEL_W;
  const denseFlags = flags.length > plotW() / 12;
  flags.forEach((f, i) => {
    const px = x(f.t), y = laneY(f.p, f.row);
    if (laneKey !== f.p + "," + f.row) { laneKey = f.p + "," + f.row; prevRight = LABEL_W; }
    if (y < -LANE_H || y > height + LANE_H) return;
    ctx.fillStyle = MARK_COLOR;
    ctx.fillRect(px - 1, y - 14, 2, denseFlags ? 7 : 24);
    ctx.beginPath(); ctx.moveTo(px + 1, y - 14); ctx.lineTo(px + 9, y - 11); ctx.lineTo(px + 1, y - 8); ctx.closePath(); ctx.fill();
    hits.push({x0: px - 3, x1: px + 9, y0: y - 14, y1: y + 10, text: f.what});
    const next = flags[i + 1], sameLane = next && next.p === f.p && next.row === f.row;
    const right = Math.min(sameLane ? x(next.t) - px - 8 : width - px - 6, 240), left = Math.min(px - prevRight - 8, 240);
    const full = D.labels[f.label] + (f.count > 1 ? ` +${f.count - 1}` : "");
    const onLeft = ctx.measureText(full).width + 9 > right && left > right;
    const room = onLeft ? left : right;
    if (room < 24) { prevRight = Math.max(prevRight, px + 10); return; }  // no room for text: the tooltip has it
    const label = clip(full, room - 9), w = ctx.measureText(label).width, x0 = onLeft ? px - 4 - (w + 6) : px + 3;
    ctx.fillStyle = "rgba(255,255,255,0.92)"; ctx.fillRect(x0, y - 5, w + 6, 14);
    ctx.fillStyle = MARK_COLOR; ctx.fillRect(x0, y + 8, w + 6, 1);
    ctx.fillStyle = "#202124"; ctx.fillText(label, x0 + 3, y + 2);
    hits.push({x0, x1: x0 + w + 6, y0: y - 5, y1: y + 9, text: f.what});
    prevRight = Math.max(x0 + w + 6, px + 10);
  });
  ctx.font = "12px -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Arial, sans-serif";
}
function diamond(px, y, r, color) {
  ctx.fillStyle = color;
  ctx.beginPath(); ctx.moveTo(px, y - r); ctx.lineTo(px + r, y); ctx.lineTo(px, y + r); ctx.lineTo(px - r, y); ctx.closePath(); ctx.fill();
  ctx.strokeStyle = "#fff"; ctx.stroke();
}
function badge(px, y, n) {
  if (n < 2) return;
  const text = n > 999 ? Math.round(n / 1000) + "k" : String(n);
  ctx.font = "10px -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Arial, sans-serif";
  ctx.fillStyle = "#202124"; ctx.fillText(text, px + 7, y - 5);
  ctx.font = "12px -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Arial, sans-serif";
}
function drawFindings() {
  // One diamond per lane, column and severity (errors drawn over warnings), with a count.
  const cells = new Map();
  D.findings.forEach((f, i) => {
    const [t, row, sev] = f, p = f[7];
    if (t < v0 || t > v1) return;
    const key = `${sev},${p},${row},${column(x(t), FCOL)}`;
    const cell = cells.get(key);
    if (cell) cell.items.push(i); else cells.set(key, {sev, p, row, t, items: [i]});
  });
  const ordered = [...cells.values()].sort((a, b) => b.sev - a.sev);
  for (const {sev, p, row, t, items} of ordered) {
    const px = x(t), y = laneY(p, row) - 13;
    diamond(px, y, 6, SEV_COLOR[sev]);
    if (sev === 0) badge(px, y, items.length);  // warnings give their count in the tooltip: less clutter
    let text;
    if (items.length === 1) {
      const [, , , rule, seq, msg] = D.findings[items[0]];
      text = `<b>${SEV[sev]}: ${esc(rule)}</b> at seq ${seq}<br>${esc(msg)}`;
    } else {
      const rules = {};
      for (const i of items) rules[D.findings[i][3]] = (rules[D.findings[i][3]] || 0) + 1;
      text = `<b>${items.length} ${SEV[sev]}s here</b> (seq ${D.findings[items[0]][4]}…${D.findings[items[items.length - 1]][4]})<br>` +
        Object.keys(rules).sort().map(r => `${esc(r)} × ${rules[r]}`).join("<br>") + "<br>click to zoom in";
    }
    hits.push({x0: px - 7, x1: px + 7, y0: y - 7, y1: y + 7, front: true, text, items});
  }
  if (selected >= 0) {
    const [t, row] = D.findings[selected], px = x(t), y = laneY(D.findings[selected][7], row) - 13;
    if (t >= v0 && t <= v1) {
      ctx.strokeStyle = "#1a73e8"; ctx.lineWidth = 1.5; ctx.setLineDash([4, 3]);
      ctx.beginPath(); ctx.moveTo(px, RUNS_Y); ctx.lineTo(px, Math.min(canvas.height, TOP + lanes * LANE_H - scrollY)); ctx.stroke();
      ctx.setLineDash([]); ctx.lineWidth = 3;
      ctx.beginPath(); ctx.arc(px, y, 10, 0, 2 * Math.PI); ctx.stroke();
      ctx.lineWidth = 1;
      diamond(px, y, 6, SEV_COLOR[D.findings[selected][2]]);
    }
  }
}
function drawAggregated() {
  if (!MORE) return;
  const cells = new Map(), y = MORE_Y();
  D.aggregated.forEach((a, i) => {
    const [t0, t1, sev, rule, count] = a;
    if (t1 < v0 || t0 > v1) return;
    const c0 = column(Math.max(x(t0), LABEL_W), FCOL), c1 = column(Math.min(x(t1), width), FCOL);
    for (let c = c0; c <= c1; c++) {
      let cell = cells.get(c); if (!cell) cells.set(c, cell = {c, sev: 1, count: 0, rules: {}, t0, t1});
      const share = count / (c1 - c0 + 1);
      cell.sev = Math.min(cell.sev, sev); cell.count += share;
      cell.rules[SEV[sev] + " " + rule] = (cell.rules[SEV[sev] + " " + rule] || 0) + share;
      cell.t0 = Math.min(cell.t0, t0); cell.t1 = Math.max(cell.t1, t1);
    }
  });
  for (const cell of cells.values()) {
    const xa = LABEL_W + cell.c * FCOL, n = Math.round(cell.count);
    ctx.globalAlpha = 0.35 + 0.65 * Math.min(1, Math.log10(1 + cell.count) / 3);
    ctx.fillStyle = SEV_COLOR[cell.sev];
    ctx.fillRect(xa + 1, y - 7, FCOL - 2, 14);
    ctx.globalAlpha = 1;
    hits.push({x0: xa, x1: xa + FCOL, y0: y - 8, y1: y + 8, front: true, zoomTo: [cell.t0, cell.t1],
      text: `<b>about ${n} finding${n === 1 ? "" : "s"} counted here</b>, not placed one by one<br>` +
        Object.keys(cell.rules).sort().map(r => `${esc(r)} × ${Math.max(1, Math.round(cell.rules[r]))}`).join("<br>") + "<br>click to zoom to this stretch"});
  }
}
function clip(text, px) {
  if (ctx.measureText(text).width <= px) return text;
  while (text.length > 1 && ctx.measureText(text + "…").width > px) text = text.slice(0, -1);
  return text + "…";
}
function esc(s) { return String(s).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]); }
function zoom(factor, around) {
  const c = around === undefined ? (v0 + v1) / 2 : around;
  const minSpan = Math.max(span / 1e6, 0.001);
  let a = c - (c - v0) * factor, b = c + (v1 - c) * factor;
  if (b - a < minSpan) { a = c - minSpan / 2; b = c + minSpan / 2; }
  v0 = a; v1 = b; draw();
}
function show(t0, t1, least) {
  const w = Math.max(t1 - t0, least === undefined ? span / 500 : least, 20);
  v0 = (t0 + t1) / 2 - w * 0.6; v1 = (t0 + t1) / 2 + w * 0.6; draw();
}
function reset() { v0 = D.start - span * 0.01; v1 = D.end + span * 0.01; draw(); }
function hitAt(e) {
  const r = canvas.getBoundingClientRect(), px = e.clientX - r.left, py = e.clientY - r.top;
  const inside = hits.filter(h => px >= h.x0 && px <= h.x1 && py >= h.y0 && py <= h.y1);
  return {hit: inside.find(h => h.front) || inside[inside.length - 1], px, py};
}
canvas.addEventListener("wheel", e => {
  if (SCROLL && e.shiftKey) return;  // Shift+wheel (and the scroll bar) move through the lanes
  e.preventDefault(); const r = canvas.getBoundingClientRect(); zoom(e.deltaY > 0 ? 1.25 : 0.8, tAt(e.clientX - r.left));
}, {passive: false});
let drag = null;
canvas.addEventListener("mousedown", e => { drag = {x: e.clientX, v0, v1, moved: false}; canvas.classList.add("dragging"); });
window.addEventListener("mouseup", e => {
  const click = drag && !drag.moved;
  drag = null; canvas.classList.remove("dragging");
  if (!click) return;
  const {hit} = hitAt(e);
  if (!hit) return;
  if (hit.zoomTo) show(hit.zoomTo[0], hit.zoomTo[1]);
  else if (hit.items && hit.items.length === 1) select(hit.items[0], false);
  else if (hit.items) show(D.findings[hit.items[0]][0], D.findings[hit.items[hit.items.length - 1]][0]);
});
window.addEventListener("mousemove", e => {
  if (drag) {
    if (Math.abs(e.clientX - drag.x) > 3) drag.moved = true;
    if (!drag.moved) return;
    const dt = (e.clientX - drag.x) / plotW() * (drag.v1 - drag.v0);
    v0 = drag.v0 - dt; v1 = drag.v1 - dt; draw(); tip.style.display = "none"; return;
  }
  const {hit, px, py} = hitAt(e);
  if (!hit) { tip.style.display = "none"; return; }
  tip.innerHTML = hit.text; tip.style.display = "block";
  tip.style.left = Math.min(px + 14, width - 430) + "px"; tip.style.top = (py + 14 + scrollY) + "px";
});
canvas.addEventListener("mouseleave", () => { tip.style.display = "none"; });
document.getElementById("zoom-in").onclick = () => zoom(0.5);
document.getElementById("zoom-out").onclick = () => zoom(2);
document.getElementById("reset").onclick = reset;
window.addEventListener("keydown", e => { if (e.key === "+" || e.key === "=") zoom(0.5); else if (e.key === "-") zoom(2); else if (e.key === "0") reset(); });
window.addEventListener("resize", draw);
const tbody = document.querySelector("#findings tbody");
const rows = [];
D.findings.forEach(([t, row, sev, rule, seq, msg, related], i) => {
  rows.push(`<tr class="f" id="f${i}" data-i="${i}"><td>${seq}</td><td class="sev-${SEV[sev]}">${SEV[sev]}</td><td>${esc(rule)}</td><td>${esc(msg)}${related.length ? ` <span style="color:#5f6368">(related: ${related.join(", ")})</span>` : ""}</td></tr>`);
});
D.aggregated.forEach(([t0, t1, sev, rule, count, seq0, seq1], i) => {
  rows.push(`<tr class="f agg" data-a="${i}"><td>${seq0}${seq1 > seq0 ? "–" + seq1 : ""}</td><td class="sev-${SEV[sev]}">${SEV[sev]}</td><td>${esc(rule)}</td><td>${count} finding${count === 1 ? "" : "s"} of this rule in this stretch, counted but not placed one by one: click to zoom to the stretch.</td></tr>`);
});
// An empty trace is no evidence of a clean app: `replay --assert` fails it, and the page says why.
if (!rows.length) rows.push(D.events === 0
  ? `<tr><td colspan="4">The trace has no events: nothing was recorded, so nothing could be checked (replay --assert fails an empty trace).</td></tr>`
  : `<tr><td colspan="4">No findings: nothing to fix in this trace.</td></tr>`);
// No column headers over a table with no finding in it (issue 30: 12).
if (!D.findings.length && !D.aggregated.length) document.querySelector("#findings thead").remove();
tbody.innerHTML = rows.join("");
function select(i, fromTable) {
  const old = document.querySelector("#findings tr.selected");
  if (old) old.classList.remove("selected");
  selected = i;
  const tr = document.getElementById("f" + i);
  if (tr) { tr.classList.add("selected"); if (!fromTable) tr.scrollIntoView({block: "nearest"}); }
  const t = D.findings[i][0];
  if (SCROLL) {  // bring the finding's lane into view
    const want = TOP + laneIndex(D.findings[i][7], D.findings[i][1]) * LANE_H - chart.clientHeight / 2;
    chart.scrollTop = Math.max(0, want); scrollY = chart.scrollTop;
  }
  if (fromTable || t < v0 || t > v1) show(t, t, Math.min(span / 20, Math.max(span / 500, 60000))); else draw();
}
tbody.addEventListener("click", e => {
  const tr = e.target.closest("tr.f"); if (!tr) return;
  if (tr.dataset.a !== undefined) { const a = D.aggregated[Number(tr.dataset.a)]; show(a[0], a[1]); }
  else select(Number(tr.dataset.i), true);
  window.scrollTo({top: 0, behavior: "smooth"});
});
draw();
// A link to the page at #seq-N (replay summary's examples) selects the finding at seq N and
// zooms to it; a finding counted per stretch rather than placed zooms to its stretch.
function selectFromHash() {
  const wanted = /^#seq-(\d+)$/.exec(location.hash);
  if (!wanted) return;
  const seq = Number(wanted[1]), i = D.findings.findIndex(f => f[4] === seq);
  if (i >= 0) {
    select(i, true);
    const tr = document.getElementById("f" + i); if (tr) tr.scrollIntoView({block: "nearest"});
    return;
  }
  const a = D.aggregated.find(a => a[5] <= seq && seq <= a[6]);
  if (a) show(a[0], a[1]);
}
window.addEventListener("hashchange", selectFromHash);
selectFromHash();

