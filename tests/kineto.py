#!/usr/bin/env python3
"""An oracle for Kineto (PyTorch profiler) traces, computed straight from
the JSON with Python's json module, times as exact decimals:

  kineto.py top FILE       name, calls, total, min, max of the GPU ops
  kineto.py busy FILE      per GPU: ops, sum, busy (union), wall, percent, first, last
  kineto.py api FILE       name, calls, total of the runtime and driver calls
  kineto.py markers FILE   per CPU range text: calls, total, min, max,
                           GPU time and number of the ops launched inside
  kineto.py steps FILE     the ProfilerStep#N ranges: number, start, duration,
                           GPU busy inside
  kineto.py graphs FILE    per graph launch call name: replays (calls that
                           launched ops) and the ops they launched
  kineto.py cut COL...     rpdtop's CSV on stdin: those columns, header left out
  kineto.py export IN OUT [-w START:END] [-e PATTERN]...
                           OUT is IN's export with that window (absolute ns)
                           and filter: it holds exactly the events the
                           manual's EXPORT names, in IN's order, each as in
                           IN (keys in order, numbers as written), and IN's
                           top-level keys; prints what it holds, or the
                           first difference (status 1)

Fields are separated by tabs. The definitions are rpdtop's (see its manual,
INPUTS): GPU ops are the "X" events of kernel, gpu_memcpy and gpu_memset on
args.device and args.stream; a copy is named by its direction as rpd names
it, a memset FillBuffer; ts and dur are microseconds, ns = Decimal * 1000
truncated; baseTimeNanoseconds is added; an op's call is the first
cuda_runtime/cuda_driver event with its args.correlation."""

import bisect
import csv
import decimal
import gzip
import json
import re
import sys

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
CALL_CATS = ("cuda_runtime", "cuda_driver")
RANGE_CATS = ("cpu_op", "user_annotation", "python_function")
DIRS = {
    "HtoD": "CopyHostToDevice", "HtoA": "CopyHostToDevice",
    "DtoH": "CopyDeviceToHost", "AtoH": "CopyDeviceToHost",
    "DtoD": "CopyDeviceToDevice", "DtoA": "CopyDeviceToDevice",
    "AtoD": "CopyDeviceToDevice", "AtoA": "CopyDeviceToDevice",
    "HtoH": "CopyHostToHost", "PtoP": "CopyPeerToPeer",
}


def load(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        return json.load(f, parse_float=decimal.Decimal)


def ns(v):
    return int(decimal.Decimal(v) * 1000)


def op_name(e):
    name = e.get("name", "")
    if e["cat"] == "kernel":
        return name
    if e["cat"] == "gpu_memset":
        return "FillBuffer"
    if name.startswith("Memcpy ") and (len(name) == 11 or name[11:12] == " "):
        return DIRS.get(name[7:11], name)
    return name


class Trace:
    def __init__(self, path):
        d = load(path)
        base = int(d.get("baseTimeNanoseconds", 0))
        self.ops, self.calls, self.ranges = [], [], []
        for e in d["traceEvents"]:
            if not isinstance(e, dict) or e.get("ph") != "X":
                continue
            cat = e.get("cat")
            if cat not in GPU_CATS + CALL_CATS + RANGE_CATS:
                continue
            start = ns(e["ts"]) + base
            end = start + ns(e["dur"])
            args = e.get("args", {})
            row = {"name": e.get("name", ""), "start": start, "end": end,
                   "corr": args.get("correlation")}
            if cat in GPU_CATS:
                row["name"] = op_name(e)
                row["gpu"] = args.get("device", e.get("pid"))
                if cat == "gpu_memcpy" and args.get("bytes") is not None:
                    row["bytes"] = int(args["bytes"])
                self.ops.append(row)
            else:
                row["thread"] = (e["pid"], e["tid"])
                (self.calls if cat in CALL_CATS else self.ranges).append(row)
        first_call = {}
        for i, c in enumerate(self.calls):
            if c["corr"] is not None:
                first_call.setdefault(c["corr"], i)
        self.ops_of_call = {}
        for o in self.ops:
            if o["corr"] is not None and o["corr"] in first_call:
                self.ops_of_call.setdefault(first_call[o["corr"]], []).append(o)


def shown(name):
    """A name as rpdtop writes it: control characters (C0, DEL, C1) as \\xNN."""
    out = []
    for ch in name:
        o = ord(ch)
        if o < 0x20 or o == 0x7F:
            out.append("\\x%02x" % o)
        elif 0x80 <= o < 0xA0:
            out.append("\\xc2\\x%02x" % o)
        else:
            out.append(ch)
    return "".join(out)


def key(name):
    return name.encode("utf-8", "surrogatepass")


def by_name(rows):
    groups = {}
    for r in rows:
        groups.setdefault(r["name"], []).append(r["end"] - r["start"])
    out = [(n, len(d), sum(d), min(d), max(d)) for n, d in groups.items()]
    out.sort(key=lambda x: (-x[2], key(x[0])))
    return [(shown(x[0]),) + x[1:] for x in out]


def union(intervals):
    total, reach = 0, None
    for s, e in sorted(intervals):
        if reach is None or s >= reach:
            total += e - s
            reach = e
        elif e > reach:
            total += e - reach
            reach = e
    return total


def top(t):
    for r in by_name(t.ops):
        print("\t".join(str(x) for x in r))


def busy(t):
    first = min(o["start"] for o in t.ops)
    last = max(o["end"] for o in t.ops)
    wall = last - first
    for g in sorted({o["gpu"] for o in t.ops}):
        mine = [o for o in t.ops if o["gpu"] == g]
        b = union((o["start"], o["end"]) for o in mine)
        pct = decimal.Decimal(b * 100) / decimal.Decimal(wall) if wall else decimal.Decimal(0)
        print("\t".join(str(x) for x in (
            g, len(mine), sum(o["end"] - o["start"] for o in mine), b, wall,
            "%.6f" % pct, min(o["start"] for o in mine), max(o["end"] for o in mine))))


def api(t):
    for n, calls, total, _, _ in by_name(t.calls):
        print("%s\t%d\t%d" % (n, calls, total))


def markers(t):
    calls = {}
    for i, c in enumerate(t.calls):
        calls.setdefault(c["thread"], []).append((c["start"], c["end"], i))
    for v in calls.values():
        v.sort()
    starts = {k: [c[0] for c in v] for k, v in calls.items()}
    groups = {}
    for r in t.ranges:
        g = groups.setdefault(r["name"], {"d": [], "gpu": 0, "ops": 0})
        g["d"].append(r["end"] - r["start"])
        v = calls.get(r["thread"], [])
        lo = bisect.bisect_left(starts.get(r["thread"], []), r["start"])
        for s, e, i in v[lo:]:
            if s > r["end"]:
                break
            if e <= r["end"]:
                for o in t.ops_of_call.get(i, []):
                    g["gpu"] += o["end"] - o["start"]
                    g["ops"] += 1
    out = [(n, len(g["d"]), sum(g["d"]), min(g["d"]), max(g["d"]), g["gpu"], g["ops"])
           for n, g in groups.items()]
    out.sort(key=lambda x: (-x[2], key(x[0])))
    for r in out:
        print("\t".join(str(x) for x in (shown(r[0]),) + r[1:]))


def steps(t):
    rows = [r for r in t.ranges
            if r["name"].startswith("ProfilerStep#") and r["name"][13:].isdigit() and r["name"][13:].isascii()]
    rows.sort(key=lambda r: (r["start"], r["end"]))
    for n, r in enumerate(rows, 1):
        inside = [(max(o["start"], r["start"]), min(o["end"], r["end"])) for o in t.ops
                  if o["end"] > r["start"] and o["start"] < r["end"]]
        print("%d\t%d\t%d\t%d" % (n, r["start"], r["end"] - r["start"], union(inside)))


GRAPH_LAUNCH = re.compile(r"(hip|cuda|cu)GraphLaunch(_.*)?$", re.S)


def graphs(t):
    out = {}
    for i, c in enumerate(t.calls):
        ops = t.ops_of_call.get(i, [])
        if GRAPH_LAUNCH.match(c["name"]) and ops:
            g = out.setdefault(c["name"], [0, 0])
            g[0] += 1
            g[1] += len(ops)
    for n in sorted(out):
        print("%s\t%d\t%d" % (shown(n), out[n][0], out[n][1]))


def cut(cols):
    rows = csv.reader(sys.stdin)
    next(rows, None)
    for r in rows:
        print("\t".join(r[int(c) - 1] for c in cols))


class Num(str):
    """A JSON number as its text."""


class Obj(list):
    """A JSON object as its (key, value) pairs, in order."""

    def get(self, key, default=None):
        for k, v in reversed(self):
            if k == key:
                return v
        return default


def load_raw(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        return json.load(f, parse_float=Num, parse_int=Num, object_pairs_hook=Obj)


def whole_ns(v, scale):
    """v (a number's text, or a string holding one) times scale, truncated
    as rpdtop reads it; None when it is none or past 64 bits."""
    if not isinstance(v, str):
        return None
    try:
        d = decimal.Decimal(v) * scale
    except decimal.InvalidOperation:
        return None
    if not d.is_finite():
        return None
    n = int(d)
    return n if -(1 << 63) <= n < (1 << 63) else None


class Filter:
    """rpdtop's filter: every rule passes; !rule excludes; caseless unless
    the pattern has an upper-case letter."""

    def __init__(self, rules):
        self.rules = []
        for r in rules:
            exclude = r.startswith("!")
            pat = r[1:] if exclude else r
            flags = 0 if any(c.isupper() for c in pat) else re.IGNORECASE
            self.rules.append((exclude, re.compile(pat, flags)))

    def passes(self, name):
        return all(bool(rx.search(name)) != exclude for exclude, rx in self.rules)


def in_window(window, start, end):
    if window is None:
        return True
    ws, we = window
    if end <= start:
        return ws <= start < we
    return start < we and end > ws


def expected_events(d, window, flt):
    """The input's events an export keeps, by the rule of the manual."""
    base = int(d.get("baseTimeNanoseconds", Num("0")))
    events = d.get("traceEvents")
    filtered = window is not None or bool(flt.rules)
    ops, apis = [], []
    for i, e in enumerate(events):
        if not isinstance(e, Obj) or e.get("ph") != "X":
            continue
        cat = e.get("cat")
        if cat not in GPU_CATS + CALL_CATS + RANGE_CATS:
            continue
        start = whole_ns(e.get("ts"), 1000) + base
        end = start + whole_ns(e.get("dur"), 1000)
        args = e.get("args") or Obj()
        corr = whole_ns(args.get("correlation"), 1)
        if cat in GPU_CATS:
            name = op_name({"cat": cat, "name": e.get("name", "")})
            ops.append({"at": i, "name": name, "start": start, "end": end, "corr": corr})
        else:
            apis.append({"at": i, "name": e.get("name", ""), "start": start, "end": end,
                         "corr": corr if cat in CALL_CATS else None, "call": cat in CALL_CATS,
                         "thread": (whole_ns(e.get("pid"), 1), whole_ns(e.get("tid"), 1))})
    for o in ops:
        o["kept"] = not filtered or (flt.passes(o["name"]) and in_window(window, o["start"], o["end"]))
    first_call = {}
    for a in apis:
        if a["corr"] is not None:
            first_call.setdefault(a["corr"], a)
    kept_corr = {o["corr"] for o in ops if o["kept"] and o["corr"] is not None}
    for a in apis:
        a["sel"] = not filtered or (flt.passes(a["name"]) and in_window(window, a["start"], a["end"]))
    for c in kept_corr:
        if c in first_call:
            first_call[c]["sel"] = True
    if filtered:
        # A call or range that encloses a selected one on its thread (starts
        # no later, ends no earlier) is selected too.
        by_thread = {}
        for a in apis:
            by_thread.setdefault(a["thread"], []).append(a)
        for rows in by_thread.values():
            sel = sorted((a["start"], a["end"]) for a in rows if a["sel"])
            starts = [s for s, _ in sel]
            least = [0] * len(sel)
            for k in range(len(sel) - 1, -1, -1):
                least[k] = min(sel[k][1], least[k + 1]) if k + 1 < len(sel) else sel[k][1]
            for a in rows:
                k = bisect.bisect_left(starts, a["start"])
                if k < len(sel) and least[k] <= a["end"]:
                    a["enclosing"] = True
            for a in rows:
                a["sel"] = a["sel"] or a.get("enclosing", False)
    keep = {}
    for o in ops:
        keep[o["at"]] = ("op", o["kept"])
    for a in apis:
        if a["call"]:
            keep[a["at"]] = ("call", a["sel"] or (a["corr"] is not None and a["corr"] in kept_corr))
        else:
            keep[a["at"]] = ("range", a["sel"] or in_window(window, a["start"], a["end"]))
    out, kinds = [], {}
    for i, e in enumerate(events):
        if not isinstance(e, Obj):
            continue
        if i in keep:
            kind, kept = keep[i]
        elif e.get("ph") == "M":
            kind, kept = "metadata", True
        elif e.get("ph") in ("s", "f", "t") and e.get("cat") == "ac2g":
            kind, kept = "flow", whole_ns(e.get("id"), 1) in kept_corr
        else:
            kind = "other"
            start = whole_ns(e.get("ts"), 1000)
            dur = whole_ns(e.get("dur"), 1000)
            if start is None:
                kept = window is None
            else:
                start += base
                kept = in_window(window, start, start + (dur if dur and dur > 0 else 0))
        if kept:
            out.append(e)
            kinds[kind] = kinds.get(kind, 0) + 1
    return out, kinds


def export(args):
    src, dst = args[0], args[1]
    window, rules = None, []
    rest = args[2:]
    while rest:
        if rest[0] == "-w":
            s, e = rest[1].split(":")
            window = (int(s), int(e))
        elif rest[0] == "-e":
            rules.append(rest[1])
        rest = rest[2:]
    d = load_raw(src)
    got = load_raw(dst)
    want, kinds = expected_events(d, window, Filter(rules))
    bad = []
    top_in = [(k, v) for k, v in d if k not in ("traceEvents", "rpdtop")]
    top_out = [(k, v) for k, v in got if k not in ("traceEvents", "rpdtop")]
    if top_in != top_out:
        bad.append("top-level keys differ: %s" % [k for k, _ in top_out])
    if [k for k, _ in got].count("rpdtop") != 1 or got[-1][0] != "rpdtop":
        bad.append("no rpdtop record last")
    else:
        rec = got.get("rpdtop")
        w = "%d:%d" % window if window else ""
        if rec.get("exported_from") != src or rec.get("window") != w:
            bad.append("rpdtop record %s" % rec)
        if rec.get("exported_ops") != Num(kinds.get("op", 0)):
            bad.append("rpdtop record: %s ops" % rec.get("exported_ops"))
    events = got.get("traceEvents")
    if events != want:
        for k, (a, b) in enumerate(zip(want, events)):
            if a != b:
                bad.append("event %d: want %s, got %s" % (k, json.dumps(a)[:300], json.dumps(b)[:300]))
                break
        bad.append("%d events wanted, %d written" % (len(want), len(events)))
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print(" ".join("%s %d" % (k, kinds.get(k, 0))
                   for k in ("op", "call", "range", "flow", "metadata", "other")))


def main():
    if sys.argv[1] == "cut":
        cut(sys.argv[2:])
        return
    if sys.argv[1] == "export":
        export(sys.argv[2:])
        return
    {"top": top, "busy": busy, "api": api, "markers": markers, "steps": steps,
     "graphs": graphs}[sys.argv[1]](Trace(sys.argv[2]))


if __name__ == "__main__":
    main()
