#!/usr/bin/env python3
"""An independent reference reading of LifecycleLog's spec, written from the text alone.

Reads a JSON Lines trace as spec/trace-format.md (version 2) says, applies every rule of
spec/rules.md (version 3, with its Readings) and prints the findings as one JSON list of
{"rule","severity","seq","related"}, in report order (rules.md section 5).

    python3 tools/reference/reference.py TRACE.jsonl [--explore]

It was written without reading Sources/, Tests/ or the tool's expected outputs, so that it
can be compared with `replay --format json` (scripts/compare-reference). Where the spec
says the input is malformed it prints the error (naming the line and field) and exits 2.
Python 3.11, standard library only. Where the text was ambiguous, the choice made is
marked "CHOICE" in a comment and discussed in tools/reference/DISAGREEMENTS.md.
"""
import json
import math
import sys

PLATFORMS = ["iOS", "iPadOS", "macOS", "macCatalyst", "tvOS", "watchOS", "visionOS"]
PHASES = ["active", "inactive", "background"]
KNOWN_KINDS_V1 = ["launch", "terminate", "open", "dismiss", "phase", "delegate", "write",
                  "read", "save", "activity", "mark"]
KNOWN_KILL_REASONS = ["user", "harness", "debugger", "watchdog", "jetsam", "crash"]
SEVERITY = {
    "missed-background-save": "error", "unsaved-dismiss": "error", "unsaved-at-exit": "error",
    "unfinished-save": "error", "lost-update": "error", "duplicate-window": "error",
    "undeclared-scene": "error", "unknown-window": "error", "event-before-launch": "error",
    "unsupported-scene": "warning", "phase-skip": "warning", "unclean-exit": "warning",
    "slow-launch": "warning", "activity-in-background": "warning",
    "app-phase-mismatch": "warning", "scene-storage-lost": "warning",
    "unknown-event": "warning", "kill-exposure": "warning", "unexpected-callback-order": "warning",
    "launch-crash-loop": "error",
}
SLOW_LAUNCH_MS = 20000
LAUNCH_CRASH_LOOP_MS = 60000     # rules.md Readings 23
LINE_LIMIT = 16 * 1024 * 1024    # trace-format.md section 1

# For triage only: REFERENCE_AS_TOOL=class,class,... makes the reference imitate a known
# departure of the tool (DISAGREEMENTS.md, verdict (a)) so that the comparison shows what is
# left. Never set by scripts/compare-reference unless asked (--as-tool).
import os as _os
AS_TOOL = set(filter(None, _os.environ.get("REFERENCE_AS_TOOL", "").split(",")))


class InputError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# JSON with exact number literals (trace-format.md section 1, Readings 1, 3, 5)

class Num:
    __slots__ = ("literal", "value")

    def __init__(self, literal):
        self.literal = literal
        self.value = float(literal)

    def is_digits(self):
        return not any(c in self.literal for c in ".eE")


def _reject_constant(name):
    raise ValueError("not valid JSON: %s is not a JSON value" % name)


def _pairs(pairs):
    seen = set()
    for k, _ in pairs:
        if k in seen:
            raise ValueError('not valid JSON: duplicate member "%s"' % k)
        seen.add(k)
    return dict(pairs)


def _check_strings_and_depth(v, depth=1):
    """depth is the nesting level of v if v is an object or list (scalars do not nest)."""
    if isinstance(v, (dict, list)) and depth > 256:
        raise ValueError("not valid JSON: nesting deeper than 256 levels")
    if isinstance(v, str):
        _check_str(v)
    elif isinstance(v, dict):
        for k, x in v.items():
            _check_str(k)
            _check_strings_and_depth(x, depth + 1)
    elif isinstance(v, list):
        for x in v:
            _check_strings_and_depth(x, depth + 1)


def _check_str(s):
    for c in s:
        if 0xD800 <= ord(c) <= 0xDFFF:
            raise ValueError("not valid JSON: unpaired surrogate in a \\u escape")


def parse_json(text):
    try:
        v = json.loads(text, object_pairs_hook=_pairs, parse_int=Num, parse_float=Num,
                       parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("not valid JSON: nesting deeper than 256 levels")
    except json.JSONDecodeError as e:
        raise ValueError("not valid JSON: %s (column %d)" % (e.msg, e.colno))
    _check_strings_and_depth(v)
    return v


def canonical(v):
    """Readings 1: canonical text of a JSON value."""
    if isinstance(v, dict):
        items = sorted(v.items(), key=lambda kv: kv[0].encode("utf-8"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical(x)
                              for k, x in items) + "}"
    if isinstance(v, list):
        return "[" + ",".join(canonical(x) for x in v) + "]"
    if isinstance(v, Num):
        lit = v.literal
        if v.is_digits():
            return "0" if lit == "-0" else lit
        f = v.value
        if math.isinf(f):
            return lit
        if f == int(f) and abs(f) < 2 ** 53:
            return str(int(f))
        return repr(f)
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    return json.dumps(v, ensure_ascii=False)


def describe(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, Num):
        return "the number " + v.literal
    if isinstance(v, str):
        return "the string " + json.dumps(v)
    if isinstance(v, list):
        return "a list"
    return "an object"


# ---------------------------------------------------------------------------------------------
# Reading and validating (trace-format.md sections 1-8)

class Event:
    __slots__ = ("seq", "line", "kind", "t", "f", "proc")


def read_trace(data):
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    raw_lines = data.split(b"\n")
    # a last line without a newline that is not valid JSON is dropped (section 8); a file
    # ending in "\n" gives an empty last piece, which is not such a line
    torn_last = len(raw_lines) if raw_lines[-1] != b"" else None
    events = []
    version = None
    first_object = True
    prev_t = None
    seq = 0
    for lineno, raw in enumerate(raw_lines, 1):
        if len(raw) > LINE_LIMIT:
            raise InputError("line %d: the line is longer than 16 MiB (16777216 bytes)" % lineno)
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if lineno == torn_last:
                continue     # torn final record: not valid JSON (section 8)
            raise InputError("line %d: not valid JSON: bytes that are not UTF-8" % lineno)
        stripped = text.strip(" \t")
        if stripped == "" or stripped.startswith("#"):
            continue
        try:
            obj = parse_json(text)
        except ValueError as e:
            if lineno == torn_last:
                continue     # torn final record: dropped with a warning (section 8)
            raise InputError("line %d: %s" % (lineno, e))
        if not isinstance(obj, dict):
            raise InputError("line %d: each line must be one JSON object (an event), got %s"
                             % (lineno, describe(obj)))
        if first_object:
            first_object = False
            if "format" in obj and "event" not in obj:
                if obj["format"] != "lifecycle-trace":
                    raise InputError('line %d: the header\'s "format" must be "lifecycle-trace", got %s'
                                     % (lineno, describe(obj["format"])))
                if "version" in obj:
                    v = obj["version"]
                    if not isinstance(v, Num) or math.isinf(v.value) or v.value != int(v.value) \
                            or v.value < 1:
                        raise InputError('line %d: the header\'s "version" must be a whole number from 1, got %s'
                                         % (lineno, describe(v)))
                    version = int(v.value)
                    if version > 2:
                        raise InputError("line %d: the trace is format version %d, but this reader "
                                         "reads versions 1 and 2" % (lineno, version))
                continue
        seq += 1
        if version is None and (obj.get("event") == "kill" or "process" in obj):
            # Readings 7 (since issue 22): no header, and v2 things: refused
            raise InputError('line %d (seq %d): the event kind "kill" (or "process") needs trace '
                             'format version 2' % (lineno, seq))
        ev = validate_event(obj, lineno, seq, version == 2)
        if prev_t is not None and ev.t < prev_t:
            raise InputError('line %d (seq %d): "t" goes backwards' % (lineno, seq))
        prev_t = ev.t
        events.append(ev)
    return (version or 1), events


def validate_event(o, lineno, seq, v2):
    where = "line %d (seq %d): " % (lineno, seq)

    def err(msg):
        raise InputError(where + msg)

    def opt(name, typ, required=False):
        if name not in o:
            if required:
                err('missing required field "%s"' % name)
            return None
        v = o[name]
        if v is None:
            err('field "%s" must be %s, got null; leave the field out when there is none'
                % (name, typ))
        ok = {"string": isinstance(v, str), "bool": isinstance(v, bool),
              "array": isinstance(v, list)}.get(typ, True)
        if not ok:
            err('field "%s" must be a %s, got %s' % (name, typ, describe(v)))
        return v

    def version_field(name):
        if name not in o:
            return None
        v = o[name]
        if name == "signal" and "input" in AS_TOOL and isinstance(v, Num) and v.is_digits():
            if -2 ** 63 <= int(v.literal) < 2 ** 63:
                return int(v.literal)
            err('field "signal" must be a whole number')
        # Readings 5: digits; base/version up to 2^64 - 2, signal up to 2^63 - 1; -0 is 0
        top = 2 ** 63 - 1 if name == "signal" else 2 ** 64 - 2
        if not isinstance(v, Num) or not v.is_digits() or \
                (v.literal.startswith("-") and int(v.literal) != 0) or int(v.literal) > top:
            err('field "%s" must be a non-negative whole number, got %s' % (name, describe(v)))
        return int(v.literal)

    ev = Event()
    ev.seq = seq
    ev.line = lineno
    ev.f = o
    if "event" not in o:
        err('missing required field "event"')
    kind = o["event"]
    if not isinstance(kind, str):
        err('field "event" must be a string, got %s' % describe(kind))
    if "t" not in o:
        err('missing required field "t"')
    t = o["t"]
    if not isinstance(t, Num) or math.isinf(t.value) or math.isnan(t.value) or t.value < 0:
        err('field "t" must be a non-negative number of milliseconds, got %s' % describe(t))
    ev.t = t.value
    known = KNOWN_KINDS_V1 + (["kill"] if v2 else [])
    if kind == "diagnostic" and isinstance(o.get("check"), str) and isinstance(o.get("message"), str) \
            and ("window" not in o or isinstance(o["window"], str)):
        # trace-format.md section 5, diagnostic (issue 29): in traces of every version, only with
        # string check and message (and window absent or a string); otherwise an unknown kind.
        ev.kind = "diagnostic"
        ev.proc = (opt("process", "string") or "") if v2 else ""
        return ev
    if kind not in known:
        ev.kind = "?" + kind       # unknown kind: only t (and v2 process) is read (section 7)
        ev.proc = ""
        if v2:
            ev.proc = opt("process", "string") or ""
        return ev
    ev.kind = kind
    proc = ""
    if v2:
        p = opt("process", "string")
        proc = p or ""
    ev.proc = proc
    if kind == "launch":
        p = opt("platform", "string", True)
        if p not in PLATFORMS:
            err('unknown platform "%s"; expected one of %s' % (p, ", ".join(PLATFORMS)))
        sc = opt("scenes", "array", True)
        for i, s in enumerate(sc):
            if not isinstance(s, dict):
                err('field "scenes" must hold only objects, got %s' % describe(s))
            for name, req in (("id", True), ("kind", True), ("for", False), ("title", False)):
                if name not in s:
                    if req:
                        err('missing required field "scenes[%d].%s"' % (i, name))
                    continue
                if not isinstance(s[name], str):
                    err('field "scenes[%d].%s" must be a string, got %s' % (i, name, describe(s[name])))
        for name in ("reason", "app", "os", "build"):
            opt(name, "string")
        if v2:
            opt("debugger", "bool")
            opt("harness", "string")
            a = opt("activation", "string")
            if a is not None and a not in ("regular", "accessory", "prohibited"):
                err('unknown activation "%s"; expected regular, accessory or prohibited' % a)
            opt("prewarmed", "bool")   # trace-format.md section 5 (issue 29): a fact, no effect on the rules
    elif kind == "terminate":
        opt("reason", "string")
    elif kind == "kill":
        opt("reason", "string", True)
        version_field("signal")
        opt("by", "string")
    elif kind == "open":
        opt("window", "string", True)
        opt("scene", "string", True)
        opt("restored", "bool")
    elif kind == "dismiss":
        opt("window", "string", True)
        opt("reason", "string")
    elif kind == "phase":
        p = opt("phase", "string", True)
        if p not in PHASES:
            err('unknown phase "%s"' % p)
        opt("window", "string")
    elif kind == "delegate":
        opt("callback", "string", True)
        opt("window", "string")
    elif kind in ("write", "read"):
        opt("key", "string", True)
        sc = opt("scope", "string", True)
        scopes = ["scene", "app", "shared"] + (["group", "document"] if v2 else [])
        if sc not in scopes:
            err('unknown scope "%s"' % sc)
        w = opt("window", "string")
        if sc == "scene" and w is None:
            err('a %s of a scene-scoped key needs "window"' % kind)
        if v2:
            d = opt("document", "string")
            if d is not None and sc != "document" and "input" not in AS_TOOL:
                err('field "document" is only for scope "document", got scope "%s"' % sc)
            if sc == "document" and d is None and w is None:
                err('a %s of a document key needs "document" or "window"' % kind)
        version_field("base" if kind == "write" else "version")
    elif kind == "save":
        keys = opt("keys", "array")
        if keys is not None:
            for k in keys:
                if not isinstance(k, str):
                    err('field "keys" must hold only strings, got %s' % describe(k))
        opt("window", "string")
        opt("store", "string")
        if v2:
            st = opt("stage", "string")
            if st is not None and st not in ("begin", "end"):
                err('unknown save stage "%s"; expected begin or end' % st)
            opt("id", "string")
    elif kind == "activity":
        opt("name", "string", True)
        st = opt("state", "string", True)
        states = ["start", "stop"] + (["expire"] if v2 else [])
        if st not in states:
            err('unknown activity state "%s"' % st)
        opt("window", "string")
    elif kind == "mark":
        opt("label", "string", True)
    return ev


# ---------------------------------------------------------------------------------------------
# The model (trace-format.md sections 4 and 6)

class Writer:
    __slots__ = ("uid", "proc", "run", "seq", "window")

    def __init__(self, uid, proc, run, seq, window):
        self.uid, self.proc, self.run, self.seq, self.window = uid, proc, run, seq, window


class Key:
    def __init__(self, ident):
        self.ident = ident          # hashable identity, also used for MBS exclusion
        self.version = 0
        self.saved = 0
        self.hist = []              # hist[i] = (writer, seq) that produced version i+1
        self.vhist = []             # (seq, version) after every change of version
        self.lastseen = {}          # writer uid -> (version, seq)
        self.snap = {}              # lastseen as of the last save
        self.last_write_seq = None
        self.proc_dirty = {}        # AS_TOOL group-per-process: run uid -> (seq, version)

    def dirty(self):
        return self.version > self.saved

    def version_at(self, seq):
        v = 0
        for s, ver in self.vhist:
            if s <= seq:
                v = ver
            else:
                break
        return v

    def rewind(self, seq):
        """Back to the saved version, as at a new run (section 6)."""
        self.version = self.saved
        del self.hist[self.saved:]
        self.lastseen = dict(self.snap)
        self.vhist.append((seq, self.version))

    def last_writer(self):
        return self.hist[-1][0] if self.hist else None


class Window:
    def __init__(self, uid, wid, scene, kind, has_value, vcanon, restored, seq):
        self.uid, self.id, self.scene, self.kind = uid, wid, scene, kind
        self.has_value, self.vcanon, self.restored = has_value, vcanon, restored
        self.open_seq = seq
        self.own_phase = None
        self.activities = {}        # name -> start seq
        self.skeys = {}             # name -> Key
        self.docs = set()           # documents shown
        self.taken = {}             # name -> saved version taken over at a restored open
        self.writer = None
        self.pend_b = None          # {anchor, stake: {Key: threshold}}
        if has_value:
            self.docs.add(("v", vcanon))


class Run:
    def __init__(self, ev, uid):
        f = ev.f
        self.uid = uid
        self.launch_seq = ev.seq
        self.launch_t = ev.t
        self.platform = f["platform"]
        self.decls = f["scenes"]
        self.scenes = {}
        for s in f["scenes"]:
            self.scenes.setdefault(s["id"], s)
        self.reason = f.get("reason")
        self.build = f.get("build")
        self.os = f.get("os")
        self.debugger = False
        self.activation = None
        self.became_active = False
        self.wt_seq = None
        self.last_event_seq = ev.seq
        self.mbs_listed = set()
        self.app_writer = None
        # What the rules that judge a run's end would find in the state after the run's last
        # event, kept from the first change another process made to group keys since then
        # (rules.md Readings 11: an unrecorded end is judged by the state after the last event)
        self.frozen = None


class Proc:
    def __init__(self, name):
        self.name = name
        self.run = None
        self.ended_by = None
        self.windows = {}
        self.all_windows = []
        self.app_level = None
        self.keys = {}
        self.activities = {}
        self.begins = []
        self.pend_a = None
        self.stretch = None          # [first, last, run uid, dirty key names]
        self.stretches = []
        self.failed_prev = None      # launch-crash-loop: (launch seq, launch t, end seq) of the
        self.in_loop = False         # previous run when it failed to launch; loop reported


class Begin:
    def __init__(self, seq, bid, window_id, store, snapshot):
        self.seq, self.id, self.window_id, self.store = seq, bid, window_id, store
        self.snapshot = snapshot     # list of (Key, version, lastseen copy)
        self.open = True
        self.reported = False


class Replayer:
    def __init__(self, version, events, explore):
        self.v2 = version == 2
        self.events = events
        self.explore = explore
        self.procs = {}
        self.group = {}
        self.findings = {}           # (rule, seq) -> set(related)
        self.unknown_seen = set()
        self.uid = 0
        self.cur_seq = 0

    def next_uid(self):
        self.uid += 1
        return self.uid

    def proc(self, name):
        p = self.procs.get(name)
        if p is None:
            p = self.procs[name] = Proc(name)
        return p

    def find(self, rule, seq, related=()):
        s = self.findings.setdefault((rule, seq), set())
        s.update(r for r in related if r is not None)

    # --- phases ---------------------------------------------------------------------------

    def win_phase(self, p, w):
        return w.own_phase if w.own_phase is not None else p.app_level

    def app_phase(self, p):
        if not p.windows:
            return p.app_level
        ph = [self.win_phase(p, w) for w in p.windows.values()]
        if "active" in ph:
            return "active"
        if "inactive" in ph:
            return "inactive"
        return "background"

    def snapshot_phases(self, p):
        return self.app_phase(p), {w.uid: (w, self.win_phase(p, w)) for w in p.windows.values()}

    # --- keys -----------------------------------------------------------------------------

    def held_keys(self, p):
        """The keys a run holds (section 6)."""
        out = []
        for w in p.windows.values():
            out.extend(w.skeys.values())
        out.extend(p.keys.values())
        for k in self.group.values():
            lw = k.last_writer()
            if "group-per-process" in AS_TOOL:
                if p.run.uid in k.proc_dirty:
                    out.append(k)
            elif lw is not None and lw.run is p.run:
                out.append(k)
        return out

    def dirty(self, k, p):
        if "group-per-process" in AS_TOOL and k.ident[0] == "group":
            return p.run is not None and p.run.uid in k.proc_dirty
        return k.dirty()

    def lw(self, k, p):
        """The seq of the last write of a listed key."""
        if "group-per-process" in AS_TOOL and k.ident[0] == "group" and p.run is not None \
                and p.run.uid in k.proc_dirty:
            return k.proc_dirty[p.run.uid][0]
        return k.last_write_seq

    def covered(self, p, window, names):
        out = []
        if window is not None:
            out.extend(window.skeys.values())
        else:
            for w in p.windows.values():
                out.extend(w.skeys.values())
        for (scope, *rest), k in p.keys.items():
            if scope in ("app", "shared"):
                out.append(k)
            elif scope == "document":
                if window is None or rest[0] in window.docs or "window-save-docs" in AS_TOOL:
                    out.append(k)
        if "group-per-process" in AS_TOOL:
            out.extend(k for k in self.group.values() if p.run.uid in k.proc_dirty)
        else:
            out.extend(self.group.values())
        if names is not None:
            ns = set(names)
            out = [k for k in out if k.ident[-1] in ns]
        return out

    def take_off(self, p, keys_versions):
        """A save took keys off missed-background-save's keys at stake (rules.md, Readings 18)."""
        pend = [p.pend_a] + [w.pend_b for w in p.windows.values()]
        for pe in pend:
            if pe is None:
                continue
            for k, v in keys_versions:
                if k in pe["stake"] and (v is None or v >= pe["stake"][k]):
                    del pe["stake"][k]
        # a save of another process covers group keys: their pending (a)s too
        for q in self.procs.values():
            if q is p or q.pend_a is None:
                continue
            for k, v in keys_versions:
                if k.ident[0] == "group" and k in q.pend_a["stake"] and \
                        (v is None or v >= q.pend_a["stake"][k]):
                    del q.pend_a["stake"][k]

    def decide(self, p, pend):
        if pend is None or not pend["stake"]:
            return
        keys = list(pend["stake"])
        self.find("missed-background-save", pend["anchor"], [self.lw(k, p) for k in keys])
        if p.run is not None:
            p.run.mbs_listed.update(k.ident for k in keys)

    # --- runs -----------------------------------------------------------------------------

    def end_result(self, p):
        """What the rules that judge a run's end find in the current state (without recording)."""
        run = p.run
        mbs = []
        listed = set(run.mbs_listed)
        for pend in [p.pend_a] + [w.pend_b for w in p.windows.values()]:
            if pend is not None and pend["stake"]:
                mbs.append((pend["anchor"], [self.lw(k, p) for k in pend["stake"]]))
                listed.update(k.ident for k in pend["stake"])
        uae = [self.lw(k, p) for k in self.held_keys(p) if self.dirty(k, p) and k.ident not in listed]
        begins = [b for b in p.begins if b.open and not b.reported]
        return mbs, uae, begins, listed

    def end_run(self, p, ev, how):
        """how: terminate, kill, launch (the next launch), trace-end."""
        run = p.run
        end_seq = None
        clean = False
        if how in ("terminate", "kill"):
            end_seq = ev.seq
            clean = how == "terminate"
        elif run.wt_seq is not None:
            end_seq = run.wt_seq
            clean = True
        elif how == "launch":
            end_seq = ev.seq
        if clean and how != "terminate":
            # ended at the willTerminate: the state judged is the one after the run's last
            # event (trace-format.md Readings 9), kept after each of its events (apply)
            mbs, uae, begins, listed = run.tentative
        elif how == "launch" and run.frozen is not None:
            # ended unrecorded: the state after the run's last event too (Readings 11), without
            # what other processes did to group keys since (a save of theirs covers no key of a
            # process that may already be gone)
            mbs, uae, begins, listed = run.frozen
        else:
            mbs, uae, begins, listed = self.end_result(p)
        for anchor, rel in mbs:
            self.find("missed-background-save", anchor, rel)
        run.mbs_listed = listed
        p.pend_a = None
        for w in p.windows.values():
            w.pend_b = None
        phase = self.app_phase(p)
        if end_seq is not None:
            if uae:
                self.find("unsaved-at-exit", end_seq, uae)
            if begins:
                self.find("unfinished-save", end_seq, [b.seq for b in begins])
                for b in begins:
                    b.reported = True
        if end_seq is not None and not clean:
                reason = ev.f.get("reason") if how == "kill" else None
                update = False
                if how == "launch":
                    nb, no = ev.f.get("build"), ev.f.get("os")
                    update = (nb is not None and nb != run.build) or (no is not None and no != run.os)
                fire = False
                if how == "kill" and reason in ("crash", "watchdog"):
                    fire = True
                elif how == "kill" and reason == "jetsam":
                    fire = phase == "active"
                elif how == "kill" and reason in ("user", "harness", "debugger"):
                    fire = False
                else:   # unknown kill reason, or the next launch
                    fire = phase == "active" and not run.debugger and not update
                if fire:
                    self.find("unclean-exit", end_seq, [run.launch_seq, run.last_event_seq])
                # slow-launch, killed-run case
                if self.slow_eligible(run) and not run.became_active:
                    cand = False
                    if how == "kill" and reason == "watchdog":
                        cand = True   # CHOICE: "while not background" read as applying to both
                    elif how == "kill" and reason not in KNOWN_KILL_REASONS:
                        cand = not run.debugger   # CHOICE: Readings 13 + 16
                    elif how == "launch":
                        cand = not update and not run.debugger
                    if cand and phase != "background" and ev.t - run.launch_t > SLOW_LAUNCH_MS:
                        self.find("slow-launch", end_seq, [run.launch_seq])
        self.crash_loop_step(p, run, ev, how, end_seq, clean, self.app_phase(p))
        # kill-exposure: the end event does not belong to a stretch
        self.close_stretch(p)
        # CHOICE (DISAGREEMENTS 5): a run that ends at its willTerminate has no stretch from
        # the willTerminate on
        if run.wt_seq is not None and end_seq == run.wt_seq and "ke-wt" not in AS_TOOL:
            keep = []
            for st in p.stretches:
                if st[2] == run.uid and st[1] >= run.wt_seq:
                    if st[0] >= run.wt_seq:
                        continue
                    st[1] = run.wt_seq - 1
                keep.append(st)
            p.stretches = keep
        p.run = None
        p.ended_by = ev.seq if how in ("terminate", "kill") else None
        p.windows = {}
        p.activities = {}
        p.begins = []

    def failed_launch(self, run, ev, how, end_seq, clean, phase):
        """rules.md Readings 22."""
        if end_seq is None or clean:
            return False          # still going at the end of the trace, or a clean end
        if not self.slow_eligible(run) or run.became_active:
            return False
        if how == "kill":
            reason = ev.f.get("reason")
            if reason in ("crash", "watchdog"):
                return True       # whatever the phase, debugger or harness too
            if reason in KNOWN_KILL_REASONS:
                return False      # user, harness, debugger, jetsam
            return phase != "background" and not run.debugger
        if how == "launch":
            nb, no = ev.f.get("build"), ev.f.get("os")
            update = (nb is not None and nb != run.build) or (no is not None and no != run.os)
            return not update and phase != "background" and not run.debugger
        return False

    def crash_loop_step(self, p, run, ev, how, end_seq, clean, phase):
        """rules.md launch-crash-loop, Readings 23: one finding per loop."""
        if not self.failed_launch(run, ev, how, end_seq, clean, phase):
            p.failed_prev = None
            p.in_loop = False
            return
        prev = p.failed_prev
        if prev is not None and run.launch_t - prev[1] <= LAUNCH_CRASH_LOOP_MS:
            if not p.in_loop:
                self.find("launch-crash-loop", end_seq, [prev[0], prev[2], run.launch_seq])
                p.in_loop = True
        else:
            p.in_loop = False
        p.failed_prev = (run.launch_seq, run.launch_t, end_seq)

    def slow_eligible(self, run):
        if run.reason in ("background", "prewarm"):
            return False
        if run.activation in ("accessory", "prohibited"):
            return False
        return True

    # --- kill-exposure --------------------------------------------------------------------

    def close_stretch(self, p):
        if p.stretch is not None:
            p.stretches.append(p.stretch)
            p.stretch = None

    def exposure_step(self, seq, ev=None):
        only = None
        if "ke-other-events" in AS_TOOL and ev is not None and not ev.kind.startswith("?") \
                and ev.kind != "mark":
            only = ev.proc      # the tool: known events of other processes are not counted
        for p in self.procs.values():
            if only is not None and p.name != only:
                continue
            cond = False
            if p.run is not None and self.app_phase(p) != "active":
                cond = any(self.dirty(k, p) for k in self.held_keys(p))
            if cond:
                if p.stretch is None:
                    p.stretch = [seq, seq, p.run.uid]
                else:
                    p.stretch[1] = seq
            else:
                self.close_stretch(p)

    # --- events ---------------------------------------------------------------------------

    def run_all(self):
        for ev in self.events:
            self.cur_seq = ev.seq
            self.apply(ev)
            if self.explore:
                self.exposure_step(ev.seq, ev)
        for p in list(self.procs.values()):
            if p.run is not None:
                self.end_run(p, None, "trace-end")
            self.close_stretch(p)
        if self.explore:
            for p in self.procs.values():
                for first, last, _ in p.stretches:
                    self.find("kill-exposure", first, [last] if last != first else [])
        out = []
        for (rule, seq), rel in self.findings.items():
            out.append({"rule": rule, "severity": SEVERITY[rule], "seq": seq,
                        # Readings 9 and 24: each seq once, ascending, at most the first 10.
                        "related": sorted(r for r in rel if r != seq)[:10]})
        out.sort(key=lambda f: (f["seq"], f["rule"].encode("utf-8")))
        return out

    def apply(self, ev):
        kind = ev.kind
        if kind == "diagnostic":
            # rules.md Readings 25: changes nothing, stands anywhere; every one is reported
            self.find("unexpected-callback-order", ev.seq)
            return
        if kind.startswith("?"):
            if kind not in self.unknown_seen:
                self.unknown_seen.add(kind)
                self.find("unknown-event", ev.seq)
            return
        p = self.proc(ev.proc)
        f = ev.f
        if kind == "mark":
            return
        if kind == "save" or (kind == "write" and f.get("scope") == "group"):
            # may change group keys other processes hold: keep what their runs' ends would be
            # judged by now, after their last events (Readings 11)
            for q in self.procs.values():
                if q is not p and q.run is not None and q.run.frozen is None:
                    q.run.frozen = self.end_result(q)
        if kind == "launch":
            if p.run is not None:
                self.end_run(p, ev, "launch")
            self.start_run(p, ev)
            return
        if p.run is None:
            # CHOICE: only event-before-launch, even when the event also names a window
            self.find("event-before-launch", ev.seq, [p.ended_by])
            return
        run = p.run
        wid = f.get("window")
        win = None
        if kind == "open":
            if wid in p.windows:
                self.find("unknown-window", ev.seq, [p.windows[wid].open_seq])
                run.last_event_seq = ev.seq
                self.keep_tentative(run, p)
                return
        elif wid is not None:
            win = p.windows.get(wid)
            if win is None:
                # CHOICE: flagged events have no effect at all (rules.md section 1), so an
                # `expire` or a save `end` naming such a window neither reports nor pairs
                self.find("unknown-window", ev.seq)
                run.last_event_seq = ev.seq
                self.keep_tentative(run, p)
                return
        before = self.snapshot_phases(p)
        if kind == "terminate":
            self.end_run(p, ev, "terminate")
            return
        if kind == "kill":
            self.end_run(p, ev, "kill")
            return
        getattr(self, "on_" + kind)(p, ev, win)
        if kind in ("open", "dismiss", "phase"):
            self.after_phase_change(p, ev, before)
        if not run.became_active and self.app_phase(p) == "active":
            run.became_active = True
            if self.slow_eligible(run) and ev.t - run.launch_t > SLOW_LAUNCH_MS:
                self.find("slow-launch", ev.seq, [run.launch_seq])
        run.last_event_seq = ev.seq
        self.keep_tentative(run, p)

    def keep_tentative(self, run, p):
        run.frozen = None   # an event of the run: its state is its own again
        # after a willTerminate, the state judged at the end is the state after the run's last
        # event (trace-format.md Readings 9), flagged events included: rules.md Readings 10
        # excludes only other processes, marks and unknown kinds from "the last event"; the
        # state then includes what other processes did to group keys before it
        if run.wt_seq is not None:
            run.tentative = self.end_result(p)

    def start_run(self, p, ev):
        run = Run(ev, self.next_uid())
        f = ev.f
        if self.v2:
            run.debugger = f.get("debugger") is True
            run.activation = f.get("activation")
        p.run = run
        p.ended_by = None
        p.app_level = "background" if run.reason in ("background", "prewarm") else "inactive"
        run.app_writer = Writer(self.next_uid(), p.name, run, ev.seq, None)
        for k in p.keys.values():
            k.rewind(ev.seq)
        # unsupported-scene
        bad = []
        for s in run.decls:
            kd = s["kind"]
            plat = run.platform
            if kd in ("Settings", "MenuBarExtra") and plat != "macOS":
                bad.append(s)
            elif kd == "Window" and plat not in ("macOS", "visionOS"):
                bad.append(s)
            elif kd == "ImmersiveSpace" and plat != "visionOS":
                bad.append(s)
            elif kd == "DocumentGroup" and plat in ("tvOS", "watchOS"):
                bad.append(s)
        if bad:
            self.find("unsupported-scene", ev.seq)

    def on_open(self, p, ev, _):
        f = ev.f
        run = p.run
        sid = f["scene"]
        decl = run.scenes.get(sid)
        has_value = "value" in f
        vcanon = canonical(f["value"]) if has_value else None
        kind = decl["kind"] if decl is not None else None
        if decl is None or (has_value and "for" not in decl):
            self.find("undeclared-scene", ev.seq, [run.launch_seq])
        if decl is not None:
            same = []
            if kind in ("Window", "Settings", "MenuBarExtra"):
                same = [w for w in p.windows.values() if w.scene == sid]
            elif kind in ("WindowGroup", "DocumentGroup") and has_value:
                same = [w for w in p.windows.values() if w.scene == sid and w.has_value
                        and w.vcanon == vcanon]
            elif kind == "ImmersiveSpace":
                same = [w for w in p.windows.values() if w.kind == "ImmersiveSpace"]
            if same:
                self.find("duplicate-window", ev.seq, [min(w.open_seq for w in same)])
        restored = f.get("restored") is True
        w = Window(self.next_uid(), f["window"], sid, kind, has_value, vcanon, restored, ev.seq)
        w.writer = Writer(self.next_uid(), p.name, run, ev.seq, w)
        if restored:
            # CHOICE: the last earlier matching window only (Readings 2), dismissed ones included
            src = None
            for e in p.all_windows:
                if e.scene != sid:
                    continue
                if has_value:
                    if e.has_value and e.vcanon == vcanon:
                        src = e
                elif e.id == f["window"]:
                    src = e
            if src is not None:
                for name, k in src.skeys.items():
                    if k.saved > 0:
                        nk = Key(("scene", w.uid, name))
                        nk.version = nk.saved = k.saved
                        nk.vhist.append((ev.seq, k.saved))
                        w.skeys[name] = nk
                        w.taken[name] = k.saved
        p.windows[w.id] = w
        p.all_windows.append(w)

    def on_dismiss(self, p, ev, w):
        self.decide(p, w.pend_b)
        w.pend_b = None
        del p.windows[w.id]
        lost = [k for k in w.skeys.values() if k.dirty()]
        for doc in sorted(w.docs, key=repr):
            if any(doc in o.docs for o in p.windows.values()):
                continue
            for (scope, *rest), k in p.keys.items():
                if scope == "document" and rest[0] == doc:
                    if k.dirty():
                        lost.append(k)
                    k.rewind(ev.seq)
        if lost:
            self.find("unsaved-dismiss", ev.seq, [k.last_write_seq for k in lost])

    def on_phase(self, p, ev, w):
        f = ev.f
        new = f["phase"]
        run = p.run
        if w is not None:
            old = self.win_phase(p, w)
            w.own_phase = new
        else:
            old = p.app_level
            p.app_level = new
            own = [x.own_phase for x in p.windows.values() if x.own_phase is not None]
            if own:
                agg = "active" if "active" in own else ("inactive" if "inactive" in own
                                                          else "background")
                if agg != new:
                    self.find("app-phase-mismatch", ev.seq)
        if run.platform != "macOS" and {old, new} == {"active", "background"}:
            self.find("phase-skip", ev.seq)

    def after_phase_change(self, p, ev, before):
        app_before, wins_before = before
        app_after = self.app_phase(p)
        act_related = []
        # windows: only phase events move a window (b); leaving the background decides
        for uid, (w, ph_before) in wins_before.items():
            if w.id not in p.windows or p.windows[w.id] is not w:
                continue
            ph_after = self.win_phase(p, w)
            if ev.kind == "phase" and ph_before in ("active", "inactive") and ph_after == "background":
                dirty = {k: k.version for k in w.skeys.values() if k.dirty()}
                if dirty:
                    w.pend_b = {"anchor": ev.seq, "stake": dirty}
                act_related.extend(w.activities.values())
            elif ph_before == "background" and ph_after != "background":
                self.decide(p, w.pend_b)
                w.pend_b = None
        if app_before in ("active", "inactive") and app_after == "background":
            dirty = {k: k.version for k in self.held_keys(p)
                     if k.ident[0] != "scene" and self.dirty(k, p)}
            if dirty:
                p.pend_a = {"anchor": ev.seq, "stake": dirty}
            act_related.extend(p.activities.values())
        elif app_before == "background" and app_after != "background":
            self.decide(p, p.pend_a)
            p.pend_a = None
        if act_related:
            self.find("activity-in-background", ev.seq, act_related)

    def on_delegate(self, p, ev, w):
        if ev.f["callback"] == "willTerminate" and p.run.wt_seq is None:
            p.run.wt_seq = ev.seq

    def doc_of(self, ev, w):
        d = ev.f.get("document")
        if d is not None:
            return ("v", canonical(d))
        if w.has_value:
            return ("v", w.vcanon)
        return ("u", w.uid)

    def key_for(self, p, ev, w):
        f = ev.f
        scope, name = f["scope"], f["key"]
        if scope == "scene":
            k = w.skeys.get(name)
            if k is None:
                k = w.skeys[name] = Key(("scene", w.uid, name))
            return k
        if scope == "group":
            k = self.group.get(name)
            if k is None:
                k = self.group[name] = Key(("group", name))
            return k
        if scope == "document":
            doc = self.doc_of(ev, w)
            if w is not None and ("shows-by-write" not in AS_TOOL or doc[0] == "u"):
                w.docs.add(doc)
            ident = ("document", doc, name)
        else:
            ident = (scope, name)
        k = p.keys.get(ident)
        if k is None:
            k = p.keys[ident] = Key(("k", p.name) + ident)
        return k

    def writer_of(self, p, w):
        return w.writer if w is not None else p.run.app_writer

    def last_seen(self, k, wr):
        if wr.uid in k.lastseen:
            return k.lastseen[wr.uid]
        return (k.version_at(wr.seq), wr.seq)

    def on_write(self, p, ev, w):
        f = ev.f
        k = self.key_for(p, ev, w)
        if f["scope"] != "scene":
            wr = self.writer_of(p, w)
            if "base" in f:
                base, ls_seq = int(f["base"].literal), None
            else:
                base, ls_seq = self.last_seen(k, wr)
            if k.version > base:
                top = None
                for i in range(len(k.hist) - 1, -1, -1):
                    if k.hist[i][0] is not wr:
                        top = i
                        break
                if top is not None and top + 1 > base:
                    self.find("lost-update", ev.seq, [k.hist[top][1], ls_seq])
        else:
            wr = w.writer
        k.version += 1
        k.hist.append((wr, ev.seq))
        del k.hist[k.version:]
        k.vhist.append((ev.seq, k.version))
        k.last_write_seq = ev.seq
        if k.ident[0] == "group":
            k.proc_dirty[p.run.uid] = (ev.seq, k.version)
        if f["scope"] != "scene":
            k.lastseen[wr.uid] = (k.version, ev.seq)

    def on_read(self, p, ev, w):
        f = ev.f
        k = self.key_for(p, ev, w)
        seen = int(f["version"].literal) if "version" in f else k.version
        if f["scope"] == "scene":
            if w.restored and seen == 0 and w.taken.get(f["key"], 0) > 0:
                self.find("scene-storage-lost", ev.seq, [w.open_seq])
            return
        wr = self.writer_of(p, w)
        if "read-before-write" in AS_TOOL and k.ident[0] == "group" \
                and not any(x.vhist for x in self.group.values()):
            return
        k.lastseen[wr.uid] = (seen, ev.seq)

    def on_save(self, p, ev, w):
        f = ev.f
        stage = f.get("stage") if self.v2 else None
        names = f.get("keys")
        if stage == "begin":
            snap = [(k, k.version, dict(k.lastseen)) for k in self.covered(p, w, names)]
            p.begins.append(Begin(ev.seq, f.get("id"), f.get("window"), f.get("store"), snap))
            return
        if stage == "end":
            paired = None
            for b in reversed(p.begins):
                if not b.open:
                    continue
                if "id" in f:
                    if b.id == f["id"]:
                        paired = b
                        break
                elif b.id is None and b.window_id == f.get("window") and b.store == f.get("store"):
                    paired = b
                    break
            if paired is not None:
                paired.open = False
                kv = []
                for k, v, ls in paired.snapshot:
                    if v > k.saved:
                        k.saved = v
                        k.snap = ls
                    kv.append((k, v))
                    pd = k.proc_dirty.get(p.run.uid)
                    if pd is not None and v >= pd[1]:
                        del k.proc_dirty[p.run.uid]
                self.take_off(p, kv)
                return
        keys = self.covered(p, w, names)
        for k in keys:
            k.proc_dirty.pop(p.run.uid, None)
            if k.dirty():
                k.saved = k.version
                k.snap = dict(k.lastseen)
        self.take_off(p, [(k, None) for k in keys])

    def on_activity(self, p, ev, w):
        f = ev.f
        acts = w.activities if w is not None else p.activities
        name, state = f["name"], f["state"]
        if state == "start":
            acts.setdefault(name, ev.seq)
        else:
            acts.pop(name, None)
        if state == "expire":
            open_begins = [b for b in p.begins if b.open and not b.reported]
            if open_begins:
                self.find("unfinished-save", ev.seq, [b.seq for b in open_begins])
                for b in open_begins:
                    b.reported = True


def replay(data, explore=False):
    version, events = read_trace(data)
    return Replayer(version, events, explore).run_all()


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    explore = "--explore" in argv
    if len(args) != 1:
        print("usage: reference.py TRACE.jsonl [--explore]", file=sys.stderr)
        return 2
    path = args[0]
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        findings = replay(data, explore)
    except InputError as e:
        print("%s: %s" % (path, e), file=sys.stderr)
        return 2
    print(json.dumps(findings))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
