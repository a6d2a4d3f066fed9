#!/usr/bin/env python3
"""Input-validation probes: small traces at the edges of trace-format.md sections 1-8, each run
through replay (.build/debug/replay) and reference.py; "!!" marks a difference in accept/refuse."""
import os
os.chdir(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import subprocess, json, sys
sys.path.insert(0,'tools/reference'); import reference
H='{"format":"lifecycle-trace","version":2}'
L='{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"main","kind":"WindowGroup"}]}'
probes = {
 "unknown kind process null": [H,L,'{"event":"x","t":1,"process":null}'],
 "unknown kind t missing": [H,L,'{"event":"x"}'],
 "mark process number": [H,'{"event":"mark","t":0,"label":"a","process":3}'],
 "v1 process null": [L,'{"event":"mark","t":1,"label":"a","process":null}'],
 "v1 document on shared": [L,'{"event":"write","t":1,"key":"k","scope":"shared","document":"x"}'],
 "v1 stage bogus": [L,'{"event":"save","t":1,"stage":"commit"}'],
 "v1 activation bogus": ['{"event":"launch","t":0,"platform":"iOS","scenes":[],"activation":"x"}'],
 "value null dup": [L,'{"event":"open","t":1,"window":"a","scene":"main","value":null}'],
 "header version 0": ['{"format":"lifecycle-trace","version":0}',L],
 "header version true": ['{"format":"lifecycle-trace","version":true}',L],
 "header version 1e0": ['{"format":"lifecycle-trace","version":1e0}',L],
 "header with event": ['{"format":"lifecycle-trace","event":"mark","t":0,"label":"x"}'],
 "header extra member null": ['{"format":"lifecycle-trace","version":2,"x":null}',L],
 "t string": ['{"event":"launch","t":"0","platform":"iOS","scenes":[]}'],
 "t 1e400": ['{"event":"launch","t":1e400,"platform":"iOS","scenes":[]}'],
 "t -0": ['{"event":"launch","t":-0,"platform":"iOS","scenes":[]}'],
 "t -0.0": ['{"event":"launch","t":-0.0,"platform":"iOS","scenes":[]}'],
 "base -0": [L,'{"event":"write","t":1,"key":"k","scope":"app","base":-0}'],
 "scene for null": ['{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"m","kind":"W","for":null}]}'],
 "scene extra null": ['{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":"m","kind":"W","x":null}]}'],
 "event null": ['{"event":null,"t":0}'],
 "unknown member null": [L,'{"event":"mark","t":1,"label":"a","zz":null}'],
 "NaN": ['{"event":"launch","t":NaN,"platform":"iOS","scenes":[]}'],
 "trailing garbage": ['{"event":"launch","t":0,"platform":"iOS","scenes":[]} x'],
 "two objects": ['{"event":"launch","t":0,"platform":"iOS","scenes":[]}{"a":1}'],
 "raw tab in string": [L,'{"event":"mark","t":1,"label":"a\tb"}'],
 "nested dup member": [L,'{"event":"open","t":1,"window":"a","scene":"main","value":{"a":1,"a":2}}'],
 "surrogate pair ok": [L,'{"event":"mark","t":1,"label":"\\ud83d\\ude00"}'],
 "kill reason empty": [H,L,'{"event":"kill","t":1,"reason":""}'],
 "harness empty": [H,'{"event":"launch","t":0,"platform":"iOS","scenes":[],"harness":""}'],
 "debugger null": [H,'{"event":"launch","t":0,"platform":"iOS","scenes":[],"debugger":null}'],
 "id number": [H,L,'{"event":"save","t":1,"id":3}'],
 "id on plain save": [H,L,'{"event":"save","t":1,"id":"x"}'],
 "store null": [L,'{"event":"save","t":1,"store":null}'],
 "keys empty list": [L,'{"event":"save","t":1,"keys":[]}'],
 "restored string": [L,'{"event":"open","t":1,"window":"a","scene":"main","restored":"yes"}'],
 "document number": [H,L,'{"event":"write","t":1,"key":"k","scope":"document","document":1}'],
 "read document no window": [H,L,'{"event":"read","t":1,"key":"k","scope":"document"}'],
 "doc write window not open": [H,L,'{"event":"write","t":1,"key":"k","scope":"document","window":"zz"}'],
 "bom mid file": [L,'\ufeff{"event":"mark","t":1,"label":"a"}'],
 "comment after spaces": [L,'  \t# hi'],
 "only header": [H],
 "version 2 header twice": [H,H],
 "format missing version present": ['{"version":2}',L],
 "depth 256 obj": ['{"event":"mark","t":0,"label":"x","d":'+'{"a":'*255+'1'+'}'*255+'}'],
 "depth 257 obj": ['{"event":"mark","t":0,"label":"x","d":'+'{"a":'*256+'1'+'}'*256+'}'],
 "version huge digits": [L,'{"event":"read","t":1,"key":"k","scope":"app","version":00}'],
 "platform lower": ['{"event":"launch","t":0,"platform":"ios","scenes":[]}'],
 "scenes object": ['{"event":"launch","t":0,"platform":"iOS","scenes":{}}'],
 "scene id number": ['{"event":"launch","t":0,"platform":"iOS","scenes":[{"id":1,"kind":"W"}]}'],
 "expire v2": [H,L,'{"event":"activity","t":1,"name":"a","state":"expire"}'],
 "phase window null": [L,'{"event":"phase","t":1,"phase":"active","window":null}'],
 # spec at issue 22/23 (rules v3): Readings 5, 7, section 7, 16 MiB lines, torn final record
 "R5 version 2^64-2": [L,'{"event":"read","t":1,"key":"k","scope":"app","version":18446744073709551614}'],
 "R5 version 2^64-1": [L,'{"event":"read","t":1,"key":"k","scope":"app","version":18446744073709551615}'],
 "R5 base 2^64-1": [L,'{"event":"write","t":1,"key":"k","scope":"app","base":18446744073709551615}'],
 "R5 signal 2^63-1": [H,L,'{"event":"kill","t":1,"reason":"user","signal":9223372036854775807}'],
 "R5 signal 2^63": [H,L,'{"event":"kill","t":1,"reason":"user","signal":9223372036854775808}'],
 "R5 signal -0": [H,L,'{"event":"kill","t":1,"reason":"user","signal":-0}'],
 "R5 signal -1": [H,L,'{"event":"kill","t":1,"reason":"user","signal":-1}'],
 "R5 version -0 v1": [L,'{"event":"read","t":1,"key":"k","scope":"app","version":-0}'],
 "R5 version -00": [L,'{"event":"read","t":1,"key":"k","scope":"app","version":-00}'],
 "R5 version -0.0": [L,'{"event":"read","t":1,"key":"k","scope":"app","version":-0.0}'],
 "R7 no header kill": [L,'{"event":"kill","t":1,"reason":"crash"}'],
 "R7 no header process": [L,'{"event":"mark","t":1,"label":"a","process":"x"}'],
 "R7 no header process empty": [L,'{"event":"mark","t":1,"label":"a","process":""}'],
 "R7 no header process on unknown kind": [L,'{"event":"zoom","t":1,"process":"x"}'],
 "R7 no header kill as member value": [L,'{"event":"mark","t":1,"label":"kill"}'],
 "R7 header v1 kill": ['{"format":"lifecycle-trace","version":1}',L,'{"event":"kill","t":1,"reason":"crash"}'],
 "R7 header v1 process number": ['{"format":"lifecycle-trace","version":1}',L,'{"event":"mark","t":1,"label":"a","process":2}'],
 "s7 unknown kind process number": [H,L,'{"event":"zoom","t":1,"process":2}'],
 "s7 unknown kind process string": [H,L,'{"event":"zoom","t":1,"process":"w"}'],
}
LONG = '{"event":"mark","t":1,"label":"%s"}'
base = len(LONG % "")
raws = {
 "line exactly 16 MiB": (L+"\n"+LONG % ("x"*(16777216-base))+"\n").encode(),
 "line 16 MiB + 1": (L+"\n"+LONG % ("x"*(16777217-base))+"\n").encode(),
 "line 16 MiB with \\r": (L+"\n"+LONG % ("x"*(16777216-base))+"\r\n").encode(),
 "comment line over 16 MiB": (L+"\n#"+"x"*16777216+"\n").encode(),
 "torn last line": (L+"\n"+'{"event":"mark","t":1,"lab').encode(),
 "torn last line with \\r": (L+"\n"+'{"event":"mark","t":1,"lab\r').encode(),
 "torn last line valid JSON not object": (L+"\n"+'[1,2]').encode(),
 "torn last line valid but bad event": (L+"\n"+'{"event":"mark","t":1}').encode(),
 "torn last line not UTF-8": (L+"\n").encode()+b'{"event":"mark","t":1,"label":"\xff',
 "torn last line over 16 MiB": (L+"\n"+'{"event":"mark","t":1,"label":"'+"x"*16777220).encode(),
 "bad middle line": (L+"\n"+'{"event":"mark","t":1,"lab'+"\n"+L).encode(),
 "torn only line": b'{"event":"lau',
 "torn header": b'{"format":"lifecycle-tr',
 "torn after header": ('{"format":"lifecycle-trace","version":2}\n{"event":"la').encode(),
}
cases = [(n, ("\n".join(ls)+"\n").encode()) for n, ls in probes.items()] + list(raws.items())
for name, data in cases:
    open('/tmp/p.jsonl','wb').write(data)
    p=subprocess.run(['.build/debug/replay','/tmp/p.jsonl','--format','json'],capture_output=True,text=True)
    tool='error' if p.returncode==2 else ('crash %d'%p.returncode if p.returncode else [(f['rule'],f['seq']) for f in json.loads(p.stdout)['findings']])
    try: ref=[(f['rule'],f['seq']) for f in reference.replay(data)]
    except reference.InputError as e: ref='error'
    mark = "  " if (tool=='error')==(ref=='error') and (tool==ref or tool=='error') else "!!"
    print(mark, name, '| tool', tool, '| ref', ref, '|', p.stderr.strip()[:150] if mark=="!!" else "")
