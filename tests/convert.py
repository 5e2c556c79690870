#!/usr/bin/env python3
"""An oracle for conversions (rpdtop --export-format): the figures of a
trace computed from its base facts, whatever format they were read from.

  convert.py figures DIR SECTION...   the figures of the facts in DIR
  convert.py kineto FILE DIR [TAG [APART]]  a Kineto trace's facts added
                                      to DIR, keys prefixed by TAG (and
                                      GPUs, with APART 1)

The facts are files of tab-separated rows, read from the inputs' own
tables by SQL (tests/convert.sh) or, for Kineto JSON, by tests/kineto.py:

  ops.tsv      key, gpu, start, end, name           the GPU ops (a GPU of
               one of several machines prefixed by its input: "f2:0")
  calls.tsv    key, thread, start, end, name, marker  a marker's name is
               its text
  links.tsv    call key, op key, order              an op's call: of its
               links, the first (by order); a link to a row that is not
               there is none
  execs.tsv    call key, graph                      the graph a launch ran
               (or an rpd call's args, which name it: graphExec = GRAPH)
  copies.tsv   op, op key, bytes or call, call key, bytes   a copy's size:
               with its call (rpd) it is the call's first op's
  hosts.tsv    start, end                           host-to-host copies

Sections (each printed after a line "== SECTION"):

  top      per op name: ops, total, min, max (by total, then name)
  busy     per GPU: ops, sum, busy (the union), wall, percent, first, last
  busyrow  the same without the GPU's number, sorted (GPUs numbered anew)
  api      per name of the calls that are no markers: calls, total
  markers  per marker text: calls, total, min, max, and the GPU time and
           number of the ops launched inside (by calls on its thread that
           start no earlier and end no later)
  graphs   per graph launch call name: calls that launched ops, their ops
  replays  per graph: its calls that launched ops and their ops, sorted
           (without the graph's name: rpd and rocpd name graphs apart)
  links    the number of ops with a call
  copies   per copy name: copies with a size, their bytes
  hosts    host-to-host copies: number, total"""

import bisect
import decimal
import importlib.util
import os
import re
import sys

GRAPH_LAUNCH = re.compile(r"(hip|cuda|cu)GraphLaunch(_.*)?$", re.S)
GRAPH_EXEC = re.compile(r"graphExec *= *([^ \t\n|,;)]+)")


def rows(d, name):
    path = os.path.join(d, name)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", errors="surrogateescape", newline="\n") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip("\n")]


def key(name):
    return name.encode("utf-8", "surrogateescape")


class Facts:
    def __init__(self, d):
        self.ops = {r[0]: {"gpu": r[1], "start": int(r[2]), "end": int(r[3]), "name": r[4]}
                    for r in rows(d, "ops.tsv")}
        self.calls = {r[0]: {"thread": r[1], "start": int(r[2]), "end": int(r[3]), "name": r[4],
                             "marker": r[5] == "1"} for r in rows(d, "calls.tsv")}
        first = {}
        for r in rows(d, "links.tsv"):
            call, op, order = r[0], r[1], int(r[2])
            if call in self.calls and op in self.ops and (op not in first or order < first[op][1]):
                first[op] = (call, order)
        self.call_of = {op: c for op, (c, _) in first.items()}
        self.ops_of = {}
        for op, c in self.call_of.items():
            self.ops_of.setdefault(c, []).append(op)
        self.execs = {}
        for r in rows(d, "execs.tsv"):
            m = GRAPH_EXEC.search(r[1])
            if r[0] in self.calls and (m or "graphExec" not in r[1]) and r[1] != "":
                self.execs[r[0]] = m.group(1) if m else r[1]
        self.copies = {}
        for r in rows(d, "copies.tsv"):
            if r[0] == "op" and r[1] in self.ops:
                self.copies[r[1]] = int(r[2])
            elif r[0] == "call" and r[1] in self.calls and r[1] in self.ops_of:
                op = min(self.ops_of[r[1]], key=lambda o: (first[o][1], o))
                self.copies.setdefault(op, int(r[2]))
        self.hosts = [(int(r[0]), int(r[1])) for r in rows(d, "hosts.tsv")]


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


def by_name(items):
    groups = {}
    for name, d in items:
        groups.setdefault(name, []).append(d)
    out = [(n, len(v), sum(v), min(v), max(v)) for n, v in groups.items()]
    out.sort(key=lambda x: (-x[2], key(x[0])))
    return out


def top(f):
    for r in by_name((o["name"], o["end"] - o["start"]) for o in f.ops.values()):
        print("\t".join(str(x) for x in r))


def busy_rows(f):
    ops = list(f.ops.values())
    if not ops:
        return []
    first = min(o["start"] for o in ops)
    wall = max(o["end"] for o in ops) - first
    out = []
    for g in sorted({o["gpu"] for o in ops}, key=gpu_order):
        mine = [o for o in ops if o["gpu"] == g]
        b = union((o["start"], o["end"]) for o in mine)
        pct = decimal.Decimal(b * 100) / decimal.Decimal(wall) if wall else decimal.Decimal(0)
        out.append((g, len(mine), sum(o["end"] - o["start"] for o in mine), b, wall, "%.6f" % pct,
                    min(o["start"] for o in mine), max(o["end"] for o in mine)))
    return out


def gpu_order(g):
    """GPUs by number; those of several inputs ("f2:1") by input, then number."""
    place, _, n = g.rpartition(":")
    try:
        return (place, int(n), "")
    except ValueError:
        return (place, 0, n)


def busy(f):
    for r in busy_rows(f):
        print("\t".join(str(x) for x in r))


def busyrow(f):
    for r in sorted("\t".join(str(x) for x in r[1:]) for r in busy_rows(f)):
        print(r)


def api(f):
    for n, calls, total, _, _ in by_name((c["name"], c["end"] - c["start"])
                                         for c in f.calls.values() if not c["marker"]):
        print("%s\t%d\t%d" % (n, calls, total))


def markers(f):
    by_thread = {}
    for k, c in f.calls.items():
        by_thread.setdefault(c["thread"], []).append((c["start"], c["end"], k))
    for v in by_thread.values():
        v.sort()
    starts = {t: [c[0] for c in v] for t, v in by_thread.items()}
    groups = {}
    for c in f.calls.values():
        if not c["marker"]:
            continue
        g = groups.setdefault(c["name"], {"d": [], "gpu": 0, "ops": 0})
        g["d"].append(c["end"] - c["start"])
        v = by_thread.get(c["thread"], [])
        lo = bisect.bisect_left(starts.get(c["thread"], []), c["start"])
        for s, e, k in v[lo:]:
            if s > c["end"]:
                break
            if e <= c["end"]:
                for op in f.ops_of.get(k, []):
                    o = f.ops[op]
                    g["gpu"] += o["end"] - o["start"]
                    g["ops"] += 1
    out = [(n, len(g["d"]), sum(g["d"]), min(g["d"]), max(g["d"]), g["gpu"], g["ops"])
           for n, g in groups.items()]
    out.sort(key=lambda x: (-x[2], key(x[0])))
    for r in out:
        print("\t".join(str(x) for x in r))


def graphs(f):
    out = {}
    for k, c in f.calls.items():
        ops = f.ops_of.get(k, [])
        if GRAPH_LAUNCH.match(c["name"]) and ops:
            g = out.setdefault(c["name"], [0, 0])
            g[0] += 1
            g[1] += len(ops)
    for n in sorted(out, key=key):
        print("%s\t%d\t%d" % (n, out[n][0], out[n][1]))


def replays(f):
    out = {}
    for k, g in f.execs.items():
        ops = f.ops_of.get(k, [])
        if ops:
            r = out.setdefault(g, [0, 0])
            r[0] += 1
            r[1] += len(ops)
    for r in sorted(out.values()):
        print("%d\t%d" % tuple(r))


def links(f):
    print(len(f.call_of))


def copies(f):
    out = {}
    for op, b in f.copies.items():
        r = out.setdefault(f.ops[op]["name"], [0, 0])
        r[0] += 1
        r[1] += b
    for n in sorted(out, key=key):
        print("%s\t%d\t%d" % (n, out[n][0], out[n][1]))


def hosts(f):
    print("%d\t%d" % (len(f.hosts), sum(e - s for s, e in f.hosts)))


def kineto(path, d, tag="", apart=False):
    spec = importlib.util.spec_from_file_location(
        "kineto", os.path.join(os.path.dirname(os.path.abspath(__file__)), "kineto.py"))
    k = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(k)
    t = k.Trace(path)
    os.makedirs(d, exist_ok=True)

    def write(name, items):
        with open(os.path.join(d, name), "a", encoding="utf-8", errors="surrogateescape") as f:
            for r in items:
                f.write("\t".join(str(x) for x in r) + "\n")
    gpu = tag if apart else ""
    op_key = {id(o): "%so%d" % (tag, i) for i, o in enumerate(t.ops)}
    write("ops.tsv", ((op_key[id(o)], "%s%s" % (gpu, o["gpu"]), o["start"], o["end"], o["name"]) for o in t.ops))
    calls = [("%sc%d" % (tag, i), "%s%s/%s" % ((tag,) + tuple(c["thread"])), c["start"], c["end"], c["name"], 0)
             for i, c in enumerate(t.calls)]
    calls += [("%sr%d" % (tag, i), "%s%s/%s" % ((tag,) + tuple(r["thread"])), r["start"], r["end"], r["name"], 1)
              for i, r in enumerate(t.ranges)]
    write("calls.tsv", calls)
    write("links.tsv", (("%sc%d" % (tag, i), op_key[id(o)], 0) for i, ops in t.ops_of_call.items() for o in ops))
    write("copies.tsv", (("op", op_key[id(o)], o["bytes"]) for o in t.ops if "bytes" in o))


def main():
    if sys.argv[1] == "kineto":
        kineto(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "",
               len(sys.argv) > 5 and sys.argv[5] == "1")
        return
    f = Facts(sys.argv[2])
    sections = {"top": top, "busy": busy, "busyrow": busyrow, "api": api, "markers": markers,
                "graphs": graphs, "replays": replays, "links": links, "copies": copies, "hosts": hosts}
    for s in sys.argv[3:]:
        print("== " + s)
        sections[s](f)


if __name__ == "__main__":
    main()
