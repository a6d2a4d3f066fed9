#!/usr/bin/env python3
"""Replays every trace of DISAGREEMENTS.md through replay (.build/debug/replay) and reference.py
(with and without --explore) and prints both, so that the triage can be re-checked after a fix."""
import re, subprocess, json, sys
import os
os.chdir(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0,'tools/reference')
import reference
s=open('tools/reference/DISAGREEMENTS.md').read()
heads=[(m.start(), m.group(0)) for m in re.finditer(r'^##+ .*$', s, re.M)]
for m in re.finditer(r'```\n(.*?)```', s, re.S):
    h=[t for p,t in heads if p<m.start()][-1]
    open('/tmp/v.jsonl','w').write(m.group(1))
    for ex in ([],['--explore']):
        p=subprocess.run(['.build/debug/replay','/tmp/v.jsonl','--format','json']+ex,capture_output=True,text=True)
        tool = 'error' if p.returncode==2 else [(f['rule'],f['seq'],f['related']) for f in json.loads(p.stdout)['findings']]
        try: ref=[(f['rule'],f['seq'],f['related']) for f in reference.replay(m.group(1).encode(), bool(ex))]
        except reference.InputError: ref='error'
        print(h[:60], ex, '\n   tool', tool, '\n   ref ', ref)
