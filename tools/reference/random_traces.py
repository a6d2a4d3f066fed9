#!/usr/bin/env python3
"""A seeded generator of small random LifecycleLog traces, mostly valid version 2 ones.

It exercises what version 2 added: several processes (the app, a widget and a share
extension), `group` keys written, read and saved across processes, documents (titled and
untitled, window ids reused), asynchronous saves (begin/end/expire), kills of every reason,
launches of every reason (prewarm, background, push, debugger, harness, accessory
activation), immersive spaces, restored windows and willTerminate; and version 1 traces.
Small traces (5-60 events) find more disagreements than big ones.

    python3 tools/reference/random_traces.py --seed 1 --count 3     # print 3 traces

`trace(seed, index)` is deterministic: the same (seed, index) always gives the same lines.
"""
import json
import random
import sys

PROCS_V2 = ["", "", "", "com.example.widget", "com.example.share"]
PLATFORMS = ["iOS", "iOS", "iPadOS", "macOS", "macOS", "visionOS", "macCatalyst", "tvOS", "watchOS"]
SCENES = [
    {"id": "main", "kind": "WindowGroup"},
    {"id": "note", "kind": "WindowGroup", "for": "Note.ID"},
    {"id": "doc", "kind": "DocumentGroup", "for": "URL"},
    {"id": "newdoc", "kind": "DocumentGroup"},
    {"id": "settings", "kind": "Settings"},
    {"id": "menu", "kind": "MenuBarExtra"},
    {"id": "win", "kind": "Window"},
    {"id": "space", "kind": "ImmersiveSpace"},
    {"id": "space2", "kind": "ImmersiveSpace"},
    {"id": "odd", "kind": "FutureScene"},
]
VALUES = ["file:///a.txt", "file:///b.txt", 1, 1.0, {"id": 7, "s": "x"}, None]
DOCS = ["file:///a.txt", "file:///b.txt", "file:///c.txt"]
WINDOW_IDS = ["w1", "w2", "w3"]
KEYS = ["k1", "k2", "g"]
KILL_REASONS = ["user", "harness", "debugger", "watchdog", "jetsam", "crash", "oom", ""]
LAUNCH_REASONS = [None, None, "user", "background", "background", "prewarm", "push"]


class Gen:
    def __init__(self, rng, v2):
        self.rng = rng
        self.v2 = v2
        self.t = 0
        self.lines = []
        self.running = {}       # process -> {"windows": [...], "scenes": [...]}

    def pick(self, xs):
        return self.rng.choice(xs)

    def chance(self, p):
        return self.rng.random() < p

    def emit(self, ev, proc=""):
        r = self.rng.random()
        if r < 0.55:
            pass
        elif r < 0.95:
            self.t += self.rng.choice([1, 5, 10, 100, 1000])
        else:
            self.t += self.rng.choice([15000, 21000, 30000])
        out = {"event": ev.pop("event"), "t": self.t}
        if proc and self.v2:
            out["process"] = proc
        out.update(ev)
        self.lines.append(json.dumps(out))

    def proc(self):
        if not self.v2:
            return ""
        running = [p for p in self.running]
        if running and self.chance(0.85):
            return self.pick(running)
        return self.pick(PROCS_V2)

    def window_of(self, proc, fresh=False):
        st = self.running.get(proc)
        wins = st["windows"] if st else []
        if wins and not fresh and self.chance(0.93):
            return self.pick(wins)
        return self.pick(WINDOW_IDS)

    def step(self):
        r = self.rng
        proc = self.proc()
        st = self.running.get(proc)
        if st is None and self.chance(0.85):
            return self.launch(proc)
        kind = r.choices(
            ["launch", "open", "dismiss", "phase", "write", "read", "save", "activity",
             "delegate", "terminate", "kill", "mark", "unknown", "diagnostic"],
            [3, 10, 5, 14, 16, 6, 9, 4, 4, 2, 3 if self.v2 else 0.3, 1, 0.3, 0.3])[0]
        getattr(self, "ev_" + kind)(proc)

    def launch(self, proc):
        ev = {"event": "launch"}
        plat = self.pick(PLATFORMS)
        ev["platform"] = plat
        if proc and self.chance(0.8):
            scenes = []
        else:
            scenes = [dict(s) for s in self.rng.sample(SCENES, self.rng.randint(1, 4))]
            if self.chance(0.7) and not any(s["id"] == "main" for s in scenes):
                scenes.insert(0, dict(SCENES[0]))
        ev["scenes"] = scenes
        reason = "background" if proc and self.chance(0.7) else self.pick(LAUNCH_REASONS)
        if reason is not None:
            ev["reason"] = reason
        if self.chance(0.2):
            ev["build"] = self.pick(["1", "2"])
        if self.chance(0.1):
            ev["os"] = self.pick(["17.0", "18.0"])
        if self.v2:
            if self.chance(0.15):
                ev["debugger"] = self.chance(0.7)
            if self.chance(0.1):
                ev["harness"] = "xcuitest"
            if self.chance(0.15):
                ev["activation"] = self.pick(["regular", "accessory", "prohibited"])
        elif self.chance(0.05):
            ev["debugger"] = True      # an unknown member in version 1
        self.emit(ev, proc)
        self.running[proc] = {"windows": [], "scenes": [s["id"] for s in scenes]}

    def ev_launch(self, proc):
        self.launch(proc)

    def ev_open(self, proc):
        st = self.running.get(proc)
        scenes = st["scenes"] if st else []
        scene = self.pick(scenes) if scenes and self.chance(0.9) else self.pick(["main", "nope"])
        ev = {"event": "open", "window": self.window_of(proc, fresh=True), "scene": scene}
        if scene in ("note", "doc") and self.chance(0.8) or self.chance(0.08):
            ev["value"] = self.pick(VALUES)
        if self.chance(0.2):
            ev["restored"] = self.chance(0.85)
        self.emit(ev, proc)
        if st is not None and ev["window"] not in st["windows"]:
            st["windows"].append(ev["window"])

    def ev_dismiss(self, proc):
        w = self.window_of(proc)
        self.emit({"event": "dismiss", "window": w}, proc)
        st = self.running.get(proc)
        if st and w in st["windows"]:
            st["windows"].remove(w)

    def ev_phase(self, proc):
        ev = {"event": "phase", "phase": self.pick(["active", "inactive", "background"])}
        if self.chance(0.55):
            ev["window"] = self.window_of(proc)
        self.emit(ev, proc)

    def key_event(self, kind, proc):
        scopes = ["scene", "app", "shared"] + (["group", "group", "document", "document"] if self.v2 else [])
        scope = self.pick(scopes)
        ev = {"event": kind, "key": self.pick(KEYS), "scope": scope}
        if scope == "scene" or self.chance(0.6):
            ev["window"] = self.window_of(proc)
        if scope == "document" and ("window" not in ev or self.chance(0.35)):
            ev["document"] = self.pick(DOCS)
        if self.chance(0.12):
            ev["base" if kind == "write" else "version"] = self.rng.randint(0, 3)
        self.emit(ev, proc)

    def ev_write(self, proc):
        self.key_event("write", proc)

    def ev_read(self, proc):
        self.key_event("read", proc)

    def ev_save(self, proc):
        ev = {"event": "save"}
        if self.chance(0.3):
            ev["window"] = self.window_of(proc)
        if self.chance(0.25):
            ev["keys"] = self.rng.sample(KEYS, self.rng.randint(1, 2))
        if self.v2 and self.chance(0.45):
            ev["stage"] = self.pick(["begin", "end"])
            if self.chance(0.5):
                ev["id"] = self.pick(["s1", "s2"])
        elif self.v2 and self.chance(0.05):
            ev["id"] = "s1"
        if self.chance(0.15):
            ev["store"] = self.pick(["db", "file"])
        self.emit(ev, proc)

    def ev_activity(self, proc):
        states = ["start", "start", "stop"] + (["expire"] if self.v2 else [])
        ev = {"event": "activity", "name": self.pick(["timer", "audio", "bgtask"]),
              "state": self.pick(states)}
        if self.chance(0.4):
            ev["window"] = self.window_of(proc)
        self.emit(ev, proc)

    def ev_delegate(self, proc):
        ev = {"event": "delegate",
              "callback": self.pick(["willTerminate", "willTerminate", "didEnterBackground",
                                     "didBecomeActive"])}
        if self.chance(0.15):
            ev["window"] = self.window_of(proc)
        self.emit(ev, proc)

    def ev_terminate(self, proc):
        self.emit({"event": "terminate"}, proc)
        self.running.pop(proc, None)

    def ev_kill(self, proc):
        ev = {"event": "kill", "reason": self.pick(KILL_REASONS)}
        if self.chance(0.3):
            ev["signal"] = self.pick([9, 6, 15, 0])
        if self.chance(0.2):
            ev["by"] = "runner"
        self.emit(ev, proc)
        if self.v2:
            self.running.pop(proc, None)

    def ev_mark(self, proc):
        self.emit({"event": "mark", "label": "step"}, proc)

    def ev_unknown(self, proc):
        self.emit({"event": self.pick(["custom", "future"]), "window": "zz"}, proc)

    def ev_diagnostic(self, proc):
        # trace-format.md section 5: a diagnostic, or an event of that name that is not one
        ev = {"event": "diagnostic", "check": self.pick(["A2", "W7", 7]), "message": self.pick(["m", None])}
        if self.chance(0.3):
            ev["window"] = self.pick(["w1", "zz", 5])
        self.emit({k: v for k, v in ev.items() if v is not None}, proc)


def scenario(g):
    """Small focused stories around what version 2 added and what issue 19 names: restoration
    (Readings 2), lost updates after a refused open, a read before any write, group keys across
    runs and processes, documents closed by a dismiss, willTerminate with work after it."""
    r = g.rng
    v = g.pick(["file:///a.txt", 1, None, "absent"])
    scene = "note" if v != "absent" else "main"
    launch = {"event": "launch", "platform": g.pick(["iOS", "iPadOS", "macOS"]),
              "scenes": [dict(SCENES[0]), dict(SCENES[1]), dict(SCENES[2]), dict(SCENES[3])]}

    def L(proc="", **kw):
        ev = dict(launch, **kw)
        ev["scenes"] = [dict(x) for x in launch["scenes"]]
        if proc:
            ev["scenes"] = []
            ev["reason"] = "background"
        g.emit(ev, proc)

    def O(w, sc=scene, val=v, proc="", **kw):
        ev = {"event": "open", "window": w, "scene": sc}
        if val != "absent":
            ev["value"] = val
        ev.update(kw)
        g.emit(ev, proc)

    def E(proc="", **kw):
        g.emit(dict(kw), proc)

    L()
    for _ in range(r.randint(2, 5)):
        what = g.pick(["restore", "refused", "readfirst", "group", "doc", "wt", "async", "noise"])
        if what == "restore":
            w = g.pick(WINDOW_IDS)
            O(w)
            E(event="write", window=w, key="draft", scope="scene")
            if g.chance(0.6):
                E(event="save", **({"window": w} if g.chance(0.5) else {}))
            if g.chance(0.5):
                E(event="dismiss", window=w)
            if g.chance(0.7):
                L()
            w2 = w if g.chance(0.6) else g.pick(WINDOW_IDS)
            O(w2, val=v if g.chance(0.7) else g.pick(VALUES + ["absent"]), restored=True)
            E(event="read", window=w2, key="draft", scope="scene", **({"version": 0} if g.chance(0.7) else {}))
        elif what == "refused":
            O("w1", sc="main", val="absent")
            O("w1", sc="main", val="absent")
            O("w2", sc="main", val="absent")
            E(event="write", window="w2", key="m", scope=g.pick(["shared", "app", "group"]))
            E(event="write", window="w1", key="m", scope=g.pick(["shared", "app", "group"]))
        elif what == "readfirst":
            proc = g.pick(["", "com.example.widget"])
            if proc:
                L(proc)
            E(proc, event="read", key="r", scope=g.pick(["group", "shared"]))
            E(event="write", key="r", scope="group")
            E(proc, event="write", key="r", scope="group")
        elif what == "group":
            E(event="write", key="g", scope="group")
            if g.chance(0.5):
                E(event="save")
            if g.chance(0.5):
                L()
            E(event="write", key="g", scope="group")
            if g.chance(0.5):
                L("com.example.widget")
                E("com.example.widget", event="write", key="g", scope="group")
            E(event=g.pick(["terminate", "kill"]), **({"reason": g.pick(KILL_REASONS)}))
            L()
        elif what == "doc":
            w = g.pick(WINDOW_IDS)
            sc = g.pick(["doc", "newdoc"])
            O(w, sc=sc, val=g.pick(DOCS) if sc == "doc" else "absent")
            kw = {"document": g.pick(DOCS)} if g.chance(0.4) else {}
            E(event="write", window=w, key="text", scope="document", **kw)
            if g.chance(0.4):
                E(event="phase", phase="background")
            if g.chance(0.4):
                E(event="save", **({"window": w} if g.chance(0.5) else {}))
            E(event="dismiss", window=w)
        elif what == "wt":
            E(event="write", key="a", scope=g.pick(["app", "group"]))
            E(event="delegate", callback="willTerminate")
            if g.chance(0.6):
                E(event="write", key="b", scope=g.pick(["app", "group"]))
            if g.chance(0.3):
                E(event="save", stage="begin", id="s")
            if g.chance(0.5):
                L()
        elif what == "async":
            E(event="write", key="a", scope="shared")
            E(event="save", stage="begin", **({"id": "s1"} if g.chance(0.5) else {}))
            E(event="write", key="a", scope="shared")
            if g.chance(0.5):
                E(event="activity", name="bg", state="expire")
            if g.chance(0.6):
                E(event="save", stage="end", **({"id": "s1"} if g.chance(0.5) else {}))
            E(event="phase", phase=g.pick(["inactive", "background"]))
        else:
            for _ in range(r.randint(1, 4)):
                g.step()
    return g.lines


def crash_loop(rng, v2):
    """Runs that never become active, ending in crash or watchdog kills, unrecorded ends (the
    next launch, a kill of an unknown reason), quick or slow relaunches (around the 60 s limit
    of launch-crash-loop and the 20 s of slow-launch), background and prewarmed launches,
    updates (build/os changes), debugger and harness runs, accessory activation, willTerminate,
    a second process interleaved (rules.md Readings 22, 23)."""
    lines = []
    t = [0]

    def E(ev, proc="", gap=None):
        if gap is None:
            gap = rng.choice([0, 1, 10, 100, 1800])
        t[0] += gap
        out = {"event": ev.pop("event"), "t": t[0]}
        if proc and v2:
            out["process"] = proc
        out.update(ev)
        lines.append(json.dumps(out))

    scenes = [dict(SCENES[0]), dict(SCENES[1])]
    build = ["1"]
    procs = ["", "", "", "com.example.widget"] if v2 else [""]
    for _ in range(rng.randint(2, 6)):
        proc = rng.choice(procs)
        ev = {"event": "launch", "platform": rng.choice(["macOS", "iOS", "iPadOS"]),
              "scenes": [dict(x) for x in scenes]}
        r = rng.random()
        if r < 0.12:
            ev["reason"] = rng.choice(["background", "prewarm"])
        elif r < 0.25:
            ev["reason"] = rng.choice(["user", "push"])
        if rng.random() < 0.5:
            if rng.random() < 0.15:
                build[0] = rng.choice(["1", "2", "3"])
            ev["build"] = build[0]
        if rng.random() < 0.05:
            ev["os"] = rng.choice(["17.0", "18.0"])
        if v2:
            if rng.random() < 0.12:
                ev["debugger"] = rng.random() < 0.8
            if rng.random() < 0.06:
                ev["harness"] = "xcuitest"
            if rng.random() < 0.08:
                ev["activation"] = rng.choice(["regular", "accessory", "prohibited"])
        gap = rng.choice([100, 1800, 5000, 20000, 21000, 59000, 60000, 60001, 61000, 120000])
        E(ev, proc, gap=gap)
        launch_t = t[0]
        for _ in range(rng.randint(0, 3)):
            what = rng.random()
            if what < 0.45:
                E({"event": "open", "window": rng.choice(WINDOW_IDS), "scene": "note",
                   "value": rng.choice([7, 9]), "restored": rng.random() < 0.8}, proc)
            elif what < 0.6:
                E({"event": "phase", "phase": rng.choice(["active", "inactive", "background"])}, proc)
            elif what < 0.75:
                E({"event": "phase", "window": rng.choice(WINDOW_IDS),
                   "phase": rng.choice(["active", "inactive", "background"])}, proc)
            elif what < 0.85:
                E({"event": "write", "key": "k", "scope": "app"}, proc)
            elif what < 0.9:
                E({"event": "delegate", "callback": "willTerminate"}, proc)
            else:
                E({"event": "mark", "label": "x"}, proc)
        end = rng.random()
        if v2 and end < 0.55:
            reason = rng.choice(["crash", "crash", "watchdog", "watchdog", "user", "jetsam",
                                 "harness", "debugger", "oom", ""])
            E({"event": "kill", "reason": reason}, proc,
              gap=rng.choice([0, 5, 100, 20000, 21000]) if t[0] == launch_t else None)
        elif end < 0.65:
            E({"event": "terminate"}, proc)
        # else: the end is not recorded; the next launch ends the run
    return lines


def trace(seed, index):
    """The lines of random trace number `index` of `seed` (header included when there is one)."""
    rng = random.Random("%s/%s" % (seed, index))
    if rng.random() < 0.2:
        v2 = rng.random() < 0.8
        head = ['{"format":"lifecycle-trace","version":2}'] if v2 else \
            (['{"format":"lifecycle-trace","version":1}'] if rng.random() < 0.5 else [])
        return head + crash_loop(rng, v2)
    if rng.random() < 0.35:
        g = Gen(rng, True)
        g.running[""] = {"windows": [], "scenes": ["main", "note", "doc", "newdoc"]}
        return ['{"format":"lifecycle-trace","version":2}'] + scenario(g)
    v2 = rng.random() < 0.8
    g = Gen(rng, v2)
    n = rng.choice([5, 8, 12, 16, 20, 25, 30, 40, 60])
    header = []
    if v2:
        header = ['{"format":"lifecycle-trace","version":2}']
    elif rng.random() < 0.5:
        header = ['{"format":"lifecycle-trace","version":1}']
    if rng.random() < 0.8:
        g.launch("")
    while len(g.lines) < n:
        g.step()
    return header + g.lines


def main(argv):
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", default="1")
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    a = ap.parse_args(argv[1:])
    for i in range(a.start, a.start + a.count):
        print("# trace %s/%d" % (a.seed, i))
        print("\n".join(trace(a.seed, i)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
