#!/usr/bin/env python3
"""A reference reader for LifecycleLog trace files, written from FORMAT.md alone.

Prints a trace as JSON Lines (the interchange form), the way `replay export`
does, using only the `lmdb` package from PyPI:

    python3 tools/read_trace.py session.lmdb > session.jsonl

It opens the file read-only without a lock file, checks the metadata, and
decodes every event record. It exists to prove that FORMAT.md is complete and
that the stored layout stays stable; the tests run it against traces written
by the tool.
"""
import json
import struct
import sys

import lmdb

LAYOUT = 3
CHECKSUM_LAYOUT = 3
MASK = (1 << 64) - 1
K = 0xFF51AFD7ED558CCD


def checked(value, key, path, what):
    """A layout-3 value without its 4-byte check (FORMAT.md, "Checksums"), or exit naming it."""
    if len(value) < 4:
        sys.exit("%s: %s: too short for its checksum" % (path, what))
    body, stored = value[:-4], struct.unpack("<I", value[-4:])[0]
    h = ((0x9E3779B97F4A7C15 ^ ((len(body) * 0xC2B2AE3D27D4EB4F) & MASK) ^ key) * K) & MASK
    for at in range(0, len(body), 8):
        (w,) = struct.unpack("<Q", body[at:at + 8].ljust(8, b"\0"))
        h = ((h ^ w) * K) & MASK
    if (h ^ (h >> 32)) & 0xFFFFFFFF != stored:
        sys.exit("%s: %s fails its checksum: the file is damaged" % (path, what))
    return body
PLATFORMS = ["iOS", "iPadOS", "macOS", "macCatalyst", "tvOS", "watchOS", "visionOS"]
PHASES = ["active", "inactive", "background"]
SCOPES = ["scene", "app", "shared", "group", "document"]
STATES = ["start", "stop", "expire"]
ACTIVATIONS = ["regular", "accessory", "prohibited"]
STAGES = ["begin", "end"]
KINDS = {0: None, 1: "launch", 2: "terminate", 3: "open", 4: "dismiss", 5: "phase", 6: "delegate",
         7: "write", 8: "read", 9: "save", 10: "activity", 11: "mark", 12: "kill"}
EXTENSION = 0x80


class Damaged(Exception):
    pass


class Number(float):
    """A JSON number kept as its exact literal text."""

    def __new__(cls, literal):
        value = float(literal)
        obj = super().__new__(cls, value)
        obj.literal = literal
        return obj


class Record:
    def __init__(self, data, symbols):
        self.data = data
        self.pos = 0
        self.symbols = symbols

    def byte(self):
        if self.pos >= len(self.data):
            raise Damaged("unexpected end of record")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self):
        result, shift = 0, 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if b < 0x80:
                return result
            shift += 7
            if shift > 63:
                raise Damaged("varint too long")

    def raw(self, n):
        if self.pos + n > len(self.data):
            raise Damaged("field runs past the end of the record")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk.decode("utf-8")

    def sym(self):
        n = self.varint()
        if n == 0:
            return None
        if n - 1 >= len(self.symbols):
            raise Damaged("unknown symbol %d" % (n - 1))
        return self.symbols[n - 1]

    def text(self):
        n = self.varint()
        return None if n == 0 else self.raw(n - 1)

    def string(self):
        return self.raw(self.varint())

    def ver(self):
        n = self.varint()
        return None if n == 0 else n - 1

    def code(self, table):
        c = self.byte()
        if c == 0:
            return None
        if c > len(table):
            raise Damaged("unknown code %d" % c)
        return table[c - 1]

    def time(self):
        v = self.varint()
        if v % 2 == 0:
            return v // 2
        if v != 1:
            raise Damaged("bad time")
        (d,) = struct.unpack("<d", bytes(self.data[self.pos:self.pos + 8]))
        self.pos += 8
        return d

    def value(self):
        tag = self.byte()
        if tag == 0:
            return None
        if tag in (1, 2):
            return tag == 2
        if tag == 3:
            z = self.varint()
            return (z >> 1) ^ -(z & 1)
        if tag == 4:
            return Number(self.string())
        if tag == 5:
            return self.string()
        if tag == 6:
            return [self.value() for _ in range(self.varint())]
        if tag == 7:
            members = []
            for _ in range(self.varint()):
                name = self.string()
                members.append((name, self.value()))
            return dict(members)
        raise Damaged("unknown value tag %d" % tag)

    def extras(self, into):
        for _ in range(self.varint()):
            name = self.sym()
            into.append((name, self.value()))


def put(fields, name, value):
    if value is not None:
        fields.append((name, value))


def decode(data, symbols):
    r = Record(data, symbols)
    tag = r.byte()
    extended = tag & EXTENSION != 0
    tag &= ~EXTENSION
    if tag not in KINDS:
        raise Damaged("unknown event tag %d" % tag)
    t = r.time()
    fields = []
    if tag == 0:
        kind = r.sym()
    else:
        kind = KINDS[tag]
    if tag == 1:
        put(fields, "platform", r.code(PLATFORMS))
        scenes = []
        for _ in range(r.varint()):
            scene = [("id", r.sym()), ("kind", r.sym())]
            put(scene, "for", r.text())
            put(scene, "title", r.text())
            r.extras(scene)
            scenes.append(dict(scene))
        fields.append(("scenes", scenes))
        for name in ("reason", "app", "os", "build"):
            put(fields, name, r.text())
        if extended:
            debugger = r.byte()
            if debugger > 2:
                raise Damaged("bad debugger flag")
            if debugger:
                fields.append(("debugger", debugger == 2))
            put(fields, "harness", r.sym())
            put(fields, "activation", r.code(ACTIVATIONS))
    elif tag == 2:
        put(fields, "reason", r.text())
    elif tag == 3:
        put(fields, "window", r.sym())
        put(fields, "scene", r.sym())
        restored = r.byte()
        if r.byte() == 1:
            fields.append(("value", r.value()))
        if restored:
            fields.append(("restored", restored == 2))
    elif tag == 4:
        put(fields, "window", r.sym())
        put(fields, "reason", r.text())
    elif tag == 5:
        put(fields, "phase", r.code(PHASES))
        put(fields, "window", r.sym())
    elif tag == 6:
        put(fields, "callback", r.sym())
        put(fields, "window", r.sym())
    elif tag in (7, 8):
        put(fields, "key", r.sym())
        put(fields, "scope", r.code(SCOPES))
        put(fields, "window", r.sym())
        put(fields, "base" if tag == 7 else "version", r.ver())
        if extended:
            put(fields, "document", r.sym())
    elif tag == 9:
        n = r.varint()
        if n:
            fields.append(("keys", [r.sym() for _ in range(n - 1)]))
        put(fields, "window", r.sym())
        put(fields, "store", r.text())
        if extended:
            put(fields, "stage", r.code(STAGES))
            put(fields, "id", r.sym())
    elif tag == 10:
        put(fields, "name", r.sym())
        put(fields, "state", r.code(STATES))
        put(fields, "window", r.sym())
    elif tag == 11:
        put(fields, "label", r.text())
    elif tag == 12:
        put(fields, "reason", r.sym())
        n = r.varint()
        if n:
            z = n - 1
            fields.append(("signal", (z >> 1) ^ -(z & 1)))
        put(fields, "by", r.sym())
    if extended:
        process = r.sym()
        if process is not None:
            fields.insert(0, ("process", process))
    r.extras(fields)
    if r.pos != len(data):
        raise Damaged("%d trailing bytes" % (len(data) - r.pos))
    return dict([("event", kind), ("t", t)] + fields)


def dumps(value):
    if isinstance(value, Number):
        return value.literal
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + dumps(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    if isinstance(value, float):
        return repr(value) if value != int(value) or abs(value) >= 2**53 else str(int(value))
    return json.dumps(value, ensure_ascii=False)


def main(path):
    env = lmdb.open(path, subdir=False, readonly=True, lock=False, max_dbs=8)
    with env.begin() as txn:
        meta = env.open_db(b"meta", txn=txn, create=False)
        if txn.get(b"format", db=meta) != b"lifecycle-trace":
            sys.exit("%s: not a LifecycleLog trace" % path)
        (layout,) = struct.unpack(">I", txn.get(b"layout", db=meta))
        if layout > LAYOUT:
            sys.exit("%s: stored layout %d, this reader knows %d" % (path, layout, LAYOUT))
        symbols_db = env.open_db(b"symbols", txn=txn, create=False)
        symbols = [(checked(bytes(v), i, path, "symbol %d" % i) if layout >= CHECKSUM_LAYOUT else bytes(v)).decode("utf-8")
                   for i, (_, v) in enumerate(txn.cursor(db=symbols_db))]
        events_db = env.open_db(b"events", txn=txn, create=False)
        out = sys.stdout
        version = txn.get(b"trace-version", db=meta)
        version = struct.unpack(">I", version)[0] if version is not None and len(version) == 4 else 1
        out.write('{"format":"lifecycle-trace","version":%d}\n' % version)
        expected = 1
        for key, data in txn.cursor(db=events_db):
            (seq,) = struct.unpack(">Q", key)
            if seq != expected:
                sys.exit("%s: seq %d missing" % (path, expected))
            record = checked(bytes(data), seq, path, "seq %d" % seq) if layout >= CHECKSUM_LAYOUT else bytes(data)
            try:
                out.write(dumps(decode(record, symbols)) + "\n")
            except (Damaged, UnicodeDecodeError) as error:
                sys.exit("%s: seq %d: damaged record: %s" % (path, seq, error))
            expected += 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: read_trace.py TRACE.lmdb")
    main(sys.argv[1])
