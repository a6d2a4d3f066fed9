#!/usr/bin/env python3
"""Every replayed and worked example of spec/trace-format.md and spec/rules.md, as a table,
run through tools/reference/reference.py. Each entry quotes the sentence it comes from; the
expected findings are what the TEXT says, not what the tool prints.

    python3 tools/reference/spec_examples.py        # exit 0 when every example holds

An entry's `expect` is a list of (rule, seq, related) in report order, or "error" for an input
the spec refuses. `drop` lists rules whose findings are removed before comparing (for the
`--rules` example, which switches rules off: a --rules file only filters, Readings 5).
`related=None` means the text does not give related seqs: only (rule, seq) is compared.
"""
import os
import sys

sys.dont_write_bytecode = True

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402

LAUNCH_IPAD = '{"event":"launch","t":0,"platform":"iPadOS","scenes":[{"id":"main","kind":"WindowGroup"}]}'
MBS_EXAMPLE = [
    LAUNCH_IPAD,
    '{"event":"open","t":10,"window":"w1","scene":"main"}',
    '{"event":"phase","t":20,"phase":"active"}',
    '{"event":"write","t":30,"window":"w1","key":"draft","scope":"scene"}',
    '{"event":"write","t":31,"window":"w1","key":"notes","scope":"shared"}',
    '{"event":"phase","t":40,"phase":"inactive"}',
    '{"event":"phase","t":50,"phase":"background"}',
    '{"event":"terminate","t":70}',
]
KILL_EXPOSURE_FIXTURE = [  # traces/explore/kill-exposure.jsonl, named in rules.md section 7
    '{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"},{"id":"note","kind":"WindowGroup","for":"Note.ID"}]}',
    '{"event":"open","t":10,"window":"w1","scene":"main"}',
    '{"event":"phase","t":20,"window":"w1","phase":"active"}',
    '{"event":"write","t":30,"window":"w1","key":"notes","scope":"shared"}',
    '{"event":"phase","t":40,"window":"w1","phase":"inactive"}',
    '{"event":"mark","t":45,"label":"app switcher shown"}',
    '{"event":"save","t":50}',
    '{"event":"phase","t":60,"window":"w1","phase":"active"}',
    '{"event":"write","t":70,"window":"w1","key":"notes","scope":"shared"}',
    '{"event":"phase","t":80,"window":"w1","phase":"inactive"}',
    '{"event":"terminate","t":90}',
]
V2 = '{"format":"lifecycle-trace","version":2}'
V1 = '{"format":"lifecycle-trace","version":1}'
LCL = '{"event":"launch","t":%d,"platform":"macOS","scenes":[{"id":"main","kind":"WindowGroup","for":"Note.ID"}]}'
L_IOS = '{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}'
L_DOC = '{"event":"launch","t":0,"platform":"iPadOS","scenes":[{"id":"doc","kind":"DocumentGroup"}]}'

EXAMPLES = [
    dict(name="format-9-two-windows",
         source='trace-format.md §9: "replay --format json reports {\\"rule\\":\\"lost-update\\",...\\"seq\\":6,'
                '\\"related\\":[3,5]}" ... "the run has no terminate and the trace ends, which is not judged."',
         lines=['{"format":"lifecycle-trace","version":1}', '# two windows, one model',
                LAUNCH_IPAD,
                '{"event":"open","t":10,"window":"w1","scene":"main"}',
                '{"event":"open","t":11,"window":"w2","scene":"main"}',
                '{"event":"phase","t":20,"phase":"active"}',
                '{"event":"write","t":30,"window":"w1","key":"notes","scope":"shared"}',
                '{"event":"write","t":40,"window":"w2","key":"notes","scope":"shared"}',
                '{"event":"write","t":50,"window":"w1","key":"notes","scope":"shared","base":2}',
                '{"event":"save","t":60}'],
         expect=[("lost-update", 6, [3, 5])]),
    dict(name="format-9-widget-group-async-save",
         source='trace-format.md §9 (v2): "a lost-update (related 3, 5)" at seq 6; '
                '"unfinished-save at seq 8 (related 7) and unsaved-at-exit at seq 8 for pinned ... (related 6)"',
         lines=[V2,
                '{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}',
                '{"event":"launch","t":5,"process":"com.example.notes.widget","platform":"iOS","scenes":[],"reason":"background"}',
                '{"event":"open","t":10,"window":"w1","scene":"main"}',
                '{"event":"phase","t":20,"window":"w1","phase":"active"}',
                '{"event":"write","t":30,"process":"com.example.notes.widget","key":"pinned","scope":"group"}',
                '{"event":"write","t":40,"window":"w1","key":"pinned","scope":"group"}',
                '{"event":"save","t":50,"stage":"begin","id":"s1"}',
                '{"event":"delegate","t":60,"callback":"willTerminate"}',
                '{"event":"launch","t":9000,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}'],
         expect=[("lost-update", 6, [3, 5]), ("unfinished-save", 8, [7]), ("unsaved-at-exit", 8, [6])]),
    dict(name="rules-mbs",
         source='rules.md missed-background-save: "gives one finding, {\\"rule\\":\\"missed-background-save\\",'
                '...\\"seq\\":7,\\"related\\":[4,5]}"; "the terminate at seq 8 adds no unsaved-at-exit (Readings 2)"',
         lines=MBS_EXAMPLE,
         expect=[("missed-background-save", 7, [4, 5])]),
    dict(name="rules-mbs-with-save",
         source='rules.md missed-background-save: "With {\\"event\\":\\"save\\",\\"t\\":60,\\"keys\\":[\\"notes\\"]} '
                'before the terminate, the finding at seq 7 lists only the draft (\\"related\\":[4])."',
         lines=MBS_EXAMPLE[:7] + ['{"event":"save","t":60,"keys":["notes"]}', MBS_EXAMPLE[7]],
         expect=[("missed-background-save", 7, [4])]),
    dict(name="rules-unclean-exit",
         source='rules.md unclean-exit: "gives only {\\"rule\\":\\"unclean-exit\\",\\"severity\\":\\"warning\\",'
                '\\"seq\\":8,\\"related\\":[5,7],…}"',
         lines=[L_IOS,
                '{"event":"open","t":1,"window":"w1","scene":"main"}',
                '{"event":"phase","t":2,"window":"w1","phase":"active"}',
                '{"event":"mark","t":3,"label":"x"}',
                '{"event":"launch","t":4,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}],"build":"2"}',
                '{"event":"open","t":5,"window":"w1","scene":"main"}',
                '{"event":"phase","t":6,"window":"w1","phase":"active"}',
                '{"event":"launch","t":7,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}'],
         expect=[("unclean-exit", 8, [5, 7])]),
    dict(name="rules-slow-launch",
         source='rules.md slow-launch: "gives phase-skip at seq 2; unclean-exit at seq 3 (related 1, 2 ...); and '
                'slow-launch at seq 4 (related 3). ... no unclean-exit at seq 4 ... The third run ...: no finding."',
         lines=['{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}],"reason":"background"}',
                '{"event":"phase","t":10,"phase":"active"}',
                '{"event":"launch","t":100,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}],"reason":"push"}',
                '{"event":"launch","t":30000,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}',
                '{"event":"open","t":50000,"window":"w1","scene":"main"}',
                '{"event":"phase","t":50000,"window":"w1","phase":"active"}'],
         expect=[("phase-skip", 2, []), ("unclean-exit", 3, [1, 2]), ("slow-launch", 4, [3])]),
    dict(name="rules-lost-update-refers-to-format-9",
         source='rules.md lost-update: "The example of trace-format.md (section 9) is a replayed lost update: seq 6, '
                'related 3 (w2\'s open) and 5 (w1\'s write)."',
         lines=[LAUNCH_IPAD,
                '{"event":"open","t":10,"window":"w1","scene":"main"}',
                '{"event":"open","t":11,"window":"w2","scene":"main"}',
                '{"event":"phase","t":20,"phase":"active"}',
                '{"event":"write","t":30,"window":"w1","key":"notes","scope":"shared"}',
                '{"event":"write","t":40,"window":"w2","key":"notes","scope":"shared"}'],
         expect=[("lost-update", 6, [3, 5])]),
    dict(name="rules-7-rules-file-kill-exposure",
         source='rules.md §7: "traces/explore/kill-exposure.jsonl gives only unsaved-at-exit at seq 11 ... '
                '(with --explore) the two kill-exposure findings at seqs 5 and 10 come back" (missed-background-save off)',
         lines=KILL_EXPOSURE_FIXTURE, explore=True, drop=["missed-background-save"],
         expect=[("kill-exposure", 5, None), ("kill-exposure", 10, None), ("unsaved-at-exit", 11, None)]),
    dict(name="rules-7-rules-file-kill-exposure-no-explore",
         source='rules.md §7: "(kill-exposure still needs --explore)": without it, only unsaved-at-exit at seq 11',
         lines=KILL_EXPOSURE_FIXTURE, drop=["missed-background-save"],
         expect=[("unsaved-at-exit", 11, None)]),
    dict(name="rules-7-rules-file-mbs-example",
         source='rules.md §7: "the missed-background-save example above reports nothing at all: the draft and the '
                'model are still left out of unsaved-at-exit at seq 8"',
         lines=MBS_EXAMPLE, drop=["missed-background-save"], expect=[]),
    dict(name="rules-3-kill-exposure-fixture-comment",
         source='rules.md kill-exposure: "Anchor: the first event of the stretch. Related: the last event of the '
                'stretch (none when the stretch is one event long)" with the fixture above: 5 (to 6), 10 (to 10)',
         lines=KILL_EXPOSURE_FIXTURE, explore=True, drop=["missed-background-save"],
         expect=[("kill-exposure", 5, [6]), ("kill-exposure", 10, []), ("unsaved-at-exit", 11, [9])]),
    # --- Readings of trace-format.md -------------------------------------------------------
    dict(name="format-R1-canonical-equal-values",
         source='trace-format.md Readings 1: "So {\\"id\\":7,\\"store\\":\\"local\\"} equals '
                '{\\"store\\":\\"local\\",\\"id\\":7.0}" (shown through duplicate-window, which compares values)',
         lines=['{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"n","kind":"WindowGroup","for":"X"}]}',
                '{"event":"open","t":1,"window":"a","scene":"n","value":{"id":7,"store":"local"}}',
                '{"event":"open","t":2,"window":"b","scene":"n","value":{"store":"local","id":7.0}}'],
         expect=[("duplicate-window", 3, [2])]),
    dict(name="format-R3-value-null-accepted",
         source='trace-format.md Readings 3: "\\"value\\":null is accepted and counts as a value"',
         lines=['{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"n","kind":"WindowGroup","for":"X"}]}',
                '{"event":"open","t":1,"window":"a","scene":"n","value":null}',
                '{"event":"open","t":2,"window":"b","scene":"n","value":null}'],
         expect=[("duplicate-window", 3, [2])]),
    dict(name="format-R3-explicit-null", source='trace-format.md Readings 3: "an explicit null for any optional field except value"',
         lines=[L_IOS, '{"event":"open","t":1,"window":"a","scene":"main","restored":null}'], expect="error"),
    dict(name="format-R3-duplicate-member", source='trace-format.md Readings 3: "a member name that occurs twice in one object"',
         lines=['{"event":"launch","t":0,"t":1,"platform":"iOS","scenes":[]}'], expect="error"),
    dict(name="format-R3-half-surrogate", source='trace-format.md Readings 3: "a \\u escape that is half of a surrogate pair"',
         lines=[L_IOS, '{"event":"mark","t":1,"label":"\\ud800"}'], expect="error"),
    dict(name="format-R3-scene-without-window", source='trace-format.md Readings 3: "a write or read of a scene key without window"',
         lines=[L_IOS, '{"event":"write","t":1,"key":"k","scope":"scene"}'], expect="error"),
    dict(name="format-R5-signal-not-digits", source='trace-format.md Readings 5: "(v2) a kill\'s signal must be JSON integers written as digits (3, not 3.0 or 3e0)"',
         lines=[V2, L_IOS, '{"event":"kill","t":1,"reason":"user","signal":9.0}'], expect="error"),
    dict(name="format-R5-signal-too-big", source='trace-format.md Readings 5: "from 0 up to 2^64 − 1"',
         lines=[V2, L_IOS, '{"event":"kill","t":1,"reason":"user","signal":18446744073709551616}'], expect="error"),
    dict(name="format-R5-signal-max", source='trace-format.md Readings 5: "and a signal up to 2^63 − 1" (the largest is accepted)',
         lines=[V2, L_IOS, '{"event":"kill","t":1,"reason":"user","signal":9223372036854775807}'], expect=[]),
    dict(name="format-R5-signal-2^63", source='trace-format.md Readings 5: "and a signal up to 2^63 − 1"',
         lines=[V2, L_IOS, '{"event":"kill","t":1,"reason":"user","signal":9223372036854775808}'], expect="error"),
    dict(name="format-R5-version-2^64-1", source='trace-format.md Readings 5: "base and version up to 2^64 − 2"',
         lines=[L_IOS, '{"event":"write","t":1,"key":"k","scope":"app","base":18446744073709551615}'], expect="error"),
    dict(name="format-R5-version-2^64-2", source='trace-format.md Readings 5: "base and version up to 2^64 − 2" (the largest is accepted)',
         lines=[L_IOS, '{"event":"read","t":1,"key":"k","scope":"app","version":18446744073709551614}'], expect=[]),
    dict(name="format-R5-minus-zero", source='trace-format.md Readings 5: "-0 is read as 0 (the same number ...)"',
         lines=[V2, L_IOS, '{"event":"read","t":1,"key":"k","scope":"app","version":-0}',
                '{"event":"kill","t":2,"reason":"user","signal":-0}'], expect=[]),
    dict(name="format-R7-noheader-kill-refused", source='trace-format.md Readings 7: "A trace without a header that has a kill event or a process member is refused"',
         lines=[L_IOS, '{"event":"kill","t":1,"reason":"crash"}'], expect="error"),
    dict(name="format-R7-noheader-process-refused", source='trace-format.md Readings 7: "A trace without a header that has a kill event or a process member is refused"',
         lines=[L_IOS, '{"event":"open","t":1,"window":"w","scene":"main","process":"x"}'], expect="error"),
    dict(name="format-7-unknown-kind-process-checked", source='trace-format.md §7: "its t (and (v2) process, a member every event has: section 3) is checked like any other"',
         lines=[V2, L_IOS, '{"event":"zoom","t":1,"process":2}'], expect="error"),
    dict(name="format-1-line-limit", source='trace-format.md §1: "A line holds at most 16 MiB (16,777,216 bytes ...). A longer line ... is an input error naming the line"',
         raw=(L_IOS + "\n" + '{"event":"mark","t":1,"label":"' + "x" * (16 * 1024 * 1024) + '"}' + "\n").encode(), expect="error"),
    dict(name="format-8-torn-final-record", source='trace-format.md §8: "a last line without a newline that is not valid JSON (a torn final record) is dropped with a warning"',
         raw=(L_IOS + "\n" + '{"event":"mark","t":1,"lab').encode(), expect=[]),
    dict(name="format-8-torn-only-last", source='trace-format.md §8: only "a last line without a newline" is dropped',
         raw=(L_IOS + "\n" + '{"event":"mark","t":1,"lab' + "\n").encode(), expect="error"),
    dict(name="format-R6-header-only-first", source='trace-format.md §2: "An object with a format member anywhere after the first is not a header: it is read as an event and, lacking event, refused."',
         lines=[L_IOS, '{"format":"lifecycle-trace","version":2}'], expect="error"),
    dict(name="format-R7-v1-kill-unknown", source='trace-format.md Readings 7: "kill is an unknown kind (reported as unknown-event)" ("A header {...version:1} keeps the version 1 reading")',
         lines=[V1, L_IOS, '{"event":"kill","t":1,"reason":"crash"}', '{"event":"kill","t":2,"reason":"crash"}'],
         expect=[("unknown-event", 2, [])]),
    dict(name="format-5-diagnostic-anywhere", source='trace-format.md §5 diagnostic: "A diagnostic changes nothing and may stand anywhere, like a mark; the rules report each one"; rules.md Readings 25',
         lines=[V2, '{"event":"diagnostic","t":0,"check":"A2","message":"m"}', L_IOS,
                '{"event":"diagnostic","t":1,"check":"W7","message":"m","window":"w9"}',
                '{"event":"diagnostic","t":2,"check":"W7","message":"m"}'],
         expect=[("unexpected-callback-order", 1, []), ("unexpected-callback-order", 3, []), ("unexpected-callback-order", 4, [])]),
    dict(name="format-5-diagnostic-every-version", source='trace-format.md §5 diagnostic: "read in traces of every version"',
         lines=[V1, L_IOS, '{"event":"diagnostic","t":1,"check":"A2","message":"m","process":3}'],
         expect=[("unexpected-callback-order", 2, [])]),
    dict(name="format-5-diagnostic-not-fitting-unknown", source='trace-format.md §5 diagnostic: "any other event of that name stays an unknown kind (section 7)"',
         lines=[V2, L_IOS, '{"event":"diagnostic","t":1,"check":"A2","message":7}', '{"event":"diagnostic","t":2,"message":"m"}',
                '{"event":"diagnostic","t":3,"check":"A2","message":"m","window":null}', '{"event":"diagnostic","t":4,"check":"A2","message":"m"}'],
         expect=[("unknown-event", 2, []), ("unexpected-callback-order", 5, [])]),
    dict(name="format-5-diagnostic-process-checked", source='trace-format.md §3: process is a member every event has (v2)',
         lines=[V2, L_IOS, '{"event":"diagnostic","t":1,"check":"A2","message":"m","process":2}'], expect="error"),
    dict(name="format-R7-v1-group-refused", source='trace-format.md Readings 7: "the scopes group and document ... are refused as unknown values"',
         lines=[L_IOS, '{"event":"write","t":1,"key":"k","scope":"group"}'], expect="error"),
    dict(name="format-R7-v1-expire-refused", source='trace-format.md Readings 7: "and the activity state expire are refused"',
         lines=[L_IOS, '{"event":"activity","t":1,"name":"a","state":"expire"}'], expect="error"),
    dict(name="format-R7-v1-process-unknown", source='trace-format.md Readings 7: "process ... are unknown members (kept, exported, never checked, no effect)"',
         lines=[V1, L_IOS, '{"event":"open","t":1,"window":"w","scene":"main","process":2}',
                '{"event":"dismiss","t":2,"window":"w","process":"other"}'], expect=[]),
    dict(name="format-R7-v1-willTerminate-ends-run", source='trace-format.md Readings 7: "a willTerminate callback ends the run (Readings 9)" in every trace',
         lines=[L_IOS, '{"event":"open","t":1,"window":"w","scene":"main"}',
                '{"event":"phase","t":2,"window":"w","phase":"active"}',
                '{"event":"write","t":3,"key":"k","scope":"app"}',
                '{"event":"delegate","t":4,"callback":"willTerminate"}',
                L_IOS.replace('"t":0', '"t":5')],
         expect=[("unsaved-at-exit", 5, [4])]),
    dict(name="format-R8-empty-process-is-main", source='trace-format.md Readings 8: "\\"process\\":\\"\\" names the main process, exactly like leaving the field out"',
         lines=[V2, L_IOS, '{"event":"open","t":1,"window":"w","scene":"main","process":""}',
                '{"event":"dismiss","t":2,"window":"w"}'], expect=[]),
    dict(name="format-R9-terminate-after-willTerminate", source='trace-format.md Readings 9: "A terminate there is the end (the willTerminate only announced it; a run has one end, never two)"',
         lines=[L_IOS, '{"event":"delegate","t":1,"callback":"willTerminate"}',
                '{"event":"write","t":2,"key":"k","scope":"app"}',
                '{"event":"terminate","t":3}'],
         expect=[("unsaved-at-exit", 4, [3])]),
    dict(name="format-R9-trace-stops-after-willTerminate", source='rules.md Readings 11: "A run that ended at a willTerminate is judged even when the trace stops right after it."',
         lines=[L_IOS, '{"event":"write","t":2,"key":"k","scope":"app"}',
                '{"event":"delegate","t":3,"callback":"willTerminate"}'],
         expect=[("unsaved-at-exit", 3, [2])]),
    dict(name="format-R13-untitled-accepted", source='trace-format.md Readings 13: "It is an input error only when the event has no window"',
         lines=[V2, L_DOC, '{"event":"open","t":1,"window":"d1","scene":"doc"}',
                '{"event":"write","t":2,"window":"d1","key":"text","scope":"document"}',
                '{"event":"dismiss","t":3,"window":"d1"}'],
         expect=[("unsaved-dismiss", 4, [3])]),
    dict(name="format-R13-no-window-no-document", source='trace-format.md §8: "(v2) a document key written or read with neither document nor window (Readings 13)"',
         lines=[V2, L_DOC, '{"event":"write","t":2,"key":"text","scope":"document"}'], expect="error"),
    dict(name="format-R14-group-save-any-process", source='trace-format.md Readings 14: "A save of any process covers every dirty group key, whoever wrote it." (issue 19, item 1)',
         lines=[V2, '{"event":"launch","t":0,"platform":"iOS","scenes":[]}',
                '{"event":"launch","t":1,"process":"ext","platform":"iOS","scenes":[],"reason":"background"}',
                '{"event":"write","t":2,"process":"ext","key":"g","scope":"group"}',
                '{"event":"save","t":3}',
                '{"event":"kill","t":4,"process":"ext","reason":"jetsam"}'],
         expect=[]),
    dict(name="format-R11-issue-document-by-field", source='trace-format.md Readings 11: "A window shows a document when ... it has written or read a key of that document" (issue 19, item 2)',
         lines=[V2, L_DOC, '{"event":"open","t":1,"window":"d1","scene":"doc"}',
                '{"event":"write","t":2,"window":"d1","key":"text","scope":"document","document":"file:///a.txt"}',
                '{"event":"dismiss","t":3,"window":"d1"}'],
         expect=[("unsaved-dismiss", 4, [3])]),
    # --- section 8 table of trace-format.md: each row's example is refused -----------------
    dict(name="format-8-not-json", source='trace-format.md §8: "the line is not JSON"',
         lines=['{"event":"launch","t":0'], expect="error"),
    dict(name="format-8-not-object", source='trace-format.md §8: "the line is JSON but not an object"',
         lines=['[1,2]'], expect="error"),
    dict(name="format-8-bad-format", source='trace-format.md §8: "the header\'s format is wrong"',
         lines=['{"format":"lifecycle","version":1}', L_IOS], expect="error"),
    dict(name="format-8-bad-version", source='trace-format.md §8: "the header\'s version is not a whole number ≥ 1"',
         lines=['{"format":"lifecycle-trace","version":1.5}', L_IOS], expect="error"),
    dict(name="format-8-version-2.0-ok", source='trace-format.md §2: "(1.0 is read as 1, 2.0 as 2)"',
         lines=['{"format":"lifecycle-trace","version":2.0}', L_IOS, '{"event":"kill","t":1,"reason":"user"}'], expect=[]),
    dict(name="format-8-too-new", source='trace-format.md §8: "the header\'s version is too new"',
         lines=['{"format":"lifecycle-trace","version":3}', L_IOS], expect="error"),
    dict(name="format-8-missing-kill-reason", source='trace-format.md §8: "missing required field \\"reason\\" (a kill)"',
         lines=[V2, L_IOS, '{"event":"kill","t":1}'], expect="error"),
    dict(name="format-8-missing-scene-kind", source='trace-format.md §8: "missing required field \\"scenes[0].kind\\""',
         lines=['{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main"}]}'], expect="error"),
    dict(name="format-8-negative-t", source='trace-format.md §8: "field \\"t\\" must be a non-negative number of milliseconds, got the number -1"',
         lines=['{"event":"launch","t":-1,"platform":"iOS","scenes":[]}'], expect="error"),
    dict(name="format-8-t-backwards", source='trace-format.md §8: "\\"t\\" goes backwards: 4 is smaller than the previous event\'s 5"',
         lines=['{"event":"launch","t":5,"platform":"iOS","scenes":[]}', '{"event":"mark","t":4,"label":"x"}'], expect="error"),
    dict(name="format-8-process-number", source='trace-format.md §8: "(v2) field \\"process\\" must be a string, got the number 2"',
         lines=[V2, '{"event":"launch","t":0,"process":2,"platform":"iOS","scenes":[]}'], expect="error"),
    dict(name="format-8-debugger-yes", source='trace-format.md §8: "field \\"debugger\\" must be true or false, got the string \\"yes\\""',
         lines=[V2, '{"event":"launch","t":0,"platform":"iOS","scenes":[],"debugger":"yes"}'], expect="error"),
    dict(name="format-8-version-1.0", source='trace-format.md §8: "field \\"version\\" must be a non-negative whole number (a key version), got the number 1.0"',
         lines=[L_IOS, '{"event":"read","t":1,"key":"k","scope":"app","version":1.0}'], expect="error"),
    dict(name="format-8-android", source='trace-format.md §8: "unknown platform \\"Android\\""',
         lines=['{"event":"launch","t":0,"platform":"Android","scenes":[]}'], expect="error"),
    dict(name="format-8-stage-commit", source='trace-format.md §8: "unknown save stage \\"commit\\"; expected begin or end"',
         lines=[V2, L_IOS, '{"event":"save","t":1,"stage":"commit"}'], expect="error"),
    dict(name="format-8-activation-other", source='trace-format.md §5 launch: "activation ... Any other string, or a non-string, is an input error."',
         lines=[V2, '{"event":"launch","t":0,"platform":"macOS","scenes":[],"activation":"menu"}'], expect="error"),
    dict(name="format-8-keys-not-strings", source='trace-format.md §8: "field \\"keys\\" must hold only strings"',
         lines=[L_IOS, '{"event":"save","t":1,"keys":[1]}'], expect="error"),
    dict(name="format-8-document-on-shared", source='trace-format.md §8: "field \\"document\\" is only for scope \\"document\\", got scope \\"shared\\""',
         lines=[V2, L_IOS, '{"event":"write","t":1,"key":"k","scope":"shared","document":"file:///a"}'], expect="error"),
    dict(name="format-8-scene-write-no-window", source='trace-format.md §8: "a write of a scene-scoped key needs \\"window\\""',
         lines=[L_IOS, '{"event":"write","t":1,"key":"k","scope":"scene"}'], expect="error"),
    dict(name="format-1-bom-crlf-comments", source='trace-format.md §1: "A byte order mark at the very start is skipped ... a \\r before it is dropped ... # is a comment"',
         raw=b'\xef\xbb\xbf# c\r\n  \t\r\n' + L_IOS.encode() + b'\r\n   # x\n', expect=[]),
    dict(name="format-1-depth-257", source='trace-format.md §1: "Nesting deeper than 256 levels is refused."',
         lines=['{"event":"mark","t":0,"label":"x","deep":' + "[" * 256 + "]" * 256 + '}'], expect="error"),
    dict(name="rules-launch-crash-loop", source='rules.md launch-crash-loop: "gives {\"rule\":\"launch-crash-loop\",\"severity\":\"error\",\"seq\":7,\"related\":[1,4],...}"',
         lines=[LCL % 0, '{"event":"open","t":40,"window":"A1","scene":"main","value":7,"restored":true}',
                '{"event":"open","t":45,"window":"B2","scene":"main","value":9,"restored":true}',
                LCL % 1800, '{"event":"open","t":1840,"window":"A1","scene":"main","value":7,"restored":true}',
                '{"event":"open","t":1846,"window":"B2","scene":"main","value":9,"restored":true}',
                LCL % 3900], expect=[("launch-crash-loop", 7, [1, 4])]),
    dict(name="rules-R23-exactly-limit", source='rules.md Readings 23: "exactly the limit still counts"',
         lines=[LCL % 0, LCL % 60000, LCL % 60001], drop=["slow-launch"], expect=[("launch-crash-loop", 3, [1, 2])]),
    dict(name="rules-R23-over-limit", source='rules.md Readings 23: "at most the limit after the t of the first run\'s launch"',
         lines=[LCL % 0, LCL % 60001, LCL % 60002], drop=["slow-launch"], expect=[]),
    dict(name="rules-lcl-recorded-three", source='rules.md launch-crash-loop: "crashes three times: one finding, at the second kill"',
         lines=[V2, LCL % 0, '{"event":"kill","t":5,"reason":"crash"}', LCL % 10, '{"event":"kill","t":15,"reason":"crash"}',
                LCL % 20, '{"event":"kill","t":25,"reason":"crash"}'],
         drop=["unclean-exit"], expect=[("launch-crash-loop", 4, [1, 2, 3])]),
    dict(name="rules-R22-background-never", source='rules.md Readings 22: "not launched with \"reason\":\"background\" or \"prewarm\""',
         lines=[V2, LCL.replace('"platform"', '"reason":"background","platform"') % 0, '{"event":"kill","t":5,"reason":"crash"}',
                LCL.replace('"platform"', '"reason":"prewarm","platform"') % 10, '{"event":"kill","t":15,"reason":"crash"}'], drop=["unclean-exit"], expect=[]),
    dict(name="rules-R22-user-kill-never", source='rules.md Readings 22: "a kill by the user, a harness, a debugger or jetsam is never a failed launch"',
         lines=[V2, LCL % 0, '{"event":"kill","t":5,"reason":"user"}', LCL % 10, '{"event":"kill","t":15,"reason":"user"}'], expect=[]),
    dict(name="rules-R22-update-not", source='rules.md Readings 22: "the next launch of the process when it is not an update (Readings 4)"',
         lines=[LCL.replace('"platform"', '"build":"1","platform"') % 0, LCL.replace('"platform"', '"build":"2","platform"') % 10,
                LCL.replace('"platform"', '"build":"2","platform"') % 20], expect=[]),
    dict(name="format-1-depth-256", source='trace-format.md §1: "Nesting deeper than 256 levels is refused." (256 is accepted)',
         lines=['{"event":"mark","t":0,"label":"x","deep":' + "[" * 255 + "]" * 255 + '}'], expect=[]),
]


def run_example(ex):
    data = ex["raw"] if "raw" in ex else ("\n".join(ex["lines"]) + "\n").encode("utf-8")
    try:
        got = reference.replay(data, ex.get("explore", False))
    except reference.InputError as e:
        return "error", str(e)
    drop = set(ex.get("drop", []))
    return [f for f in got if f["rule"] not in drop], None


def main():
    failed = 0
    for ex in EXAMPLES:
        got, msg = run_example(ex)
        want = ex["expect"]
        if want == "error" or got == "error":
            ok = want == got
        else:
            ok = len(got) == len(want) and all(
                g["rule"] == r and g["seq"] == s and (rel is None or g["related"] == rel)
                and g["severity"] == reference.SEVERITY[r]
                for g, (r, s, rel) in zip(got, want))
        if not ok:
            failed += 1
            print("FAIL %s\n  from: %s\n  want: %s\n  got:  %s %s" % (ex["name"], ex["source"], want,
                                                                     got if got == "error" else
                                                                     [(g["rule"], g["seq"], g["related"]) for g in got],
                                                                     msg or ""))
    print("%d of %d spec examples hold" % (len(EXAMPLES) - failed, len(EXAMPLES)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
