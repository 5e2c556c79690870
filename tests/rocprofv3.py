#!/usr/bin/env python3
"""An oracle for rocprofv3's JSON (rocprofv3 --output-format json),
computed straight from the file with Python's json module:

  rocprofv3.py top FILE       name, calls, total, min, max of the GPU ops
                              (and of copies between host agents)
  rocprofv3.py busy FILE      per GPU: ops, sum, busy (union), wall, percent,
                              first, last
  rocprofv3.py api FILE       name, calls, total of the calls
  rocprofv3.py markers FILE   per roctx text: calls, total, min, max, GPU
                              time and number of the ops launched inside
  rocprofv3.py count FILE     dispatches, copies, calls and markers
  rocprofv3.py cut COL...     rpdtop's CSV on stdin: those columns, header
                              left out

Fields are separated by tabs. The definitions are rpdtop's (see its manual,
INPUTS): the file is {"rocprofiler-sdk-tool": [process, ...]}; GPU ops are
the kernel_dispatch records (on the GPU numbered by their agent's
logical_node_type_id, named by their kernel symbol's kernel_name without
".kd", else its formatted_kernel_name) and the memory_copy records that a
GPU agent took part in (named by their operation, else by their agents);
calls are the hip_api, hsa_api, rccl_api, rocdecode_api and rocjpeg_api
records, named strings.buffer_records[kind].operations[operation], on the
thread (metadata.pid, thread_id); marker_api records are roctx ranges and
marks, whose text is their message in strings.marker_api; an op's call is
the call of its process with its correlation_id.internal."""

import bisect
import csv
import decimal
import gzip
import json
import sys

CALL_LISTS = ("hip_api", "hsa_api", "rccl_api", "rocdecode_api", "rocjpeg_api")
COPY_NAMES = {
    "MEMORY_COPY_HOST_TO_DEVICE": "CopyHostToDevice",
    "MEMORY_COPY_DEVICE_TO_HOST": "CopyDeviceToHost",
    "MEMORY_COPY_DEVICE_TO_DEVICE": "CopyDeviceToDevice",
    "MEMORY_COPY_PEER_TO_PEER": "CopyPeerToPeer",
}


def load(path):
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        return json.load(f)


def op_names(proc):
    """(kind, operation) -> name."""
    out = {}
    for kind, entry in enumerate(proc.get("strings", {}).get("buffer_records", [])):
        if isinstance(entry, dict):
            for op, name in enumerate(entry.get("operations", [])):
                if isinstance(name, str):
                    out[(kind, op)] = name
    return out


def kernel_name(sym):
    name = sym.get("kernel_name") or sym.get("formatted_kernel_name") or ""
    if len(name) > 3 and name.endswith(".kd"):
        name = name[:-3]
    return name or "KernelExecution"


class Trace:
    def __init__(self, path):
        d = load(path)
        self.ops, self.host_copies, self.calls, self.ranges = [], [], [], []
        self.ops_of_call = {}
        self.counts = {"kernel_dispatch": 0, "memory_copy": 0, "calls": 0, "marker_api": 0}
        for proc in d["rocprofiler-sdk-tool"]:
            self.process(proc)

    def process(self, proc):
        names = op_names(proc)
        # Table entries without their key are left out.
        symbols = {s["kernel_id"]: s for s in proc.get("kernel_symbols", [])
                   if isinstance(s, dict) and isinstance(s.get("kernel_id"), int)}
        agents = {a["id"]["handle"]: a for a in proc.get("agents", [])
                  if isinstance(a, dict) and isinstance(a.get("id"), dict) and "handle" in a["id"]}
        messages = {m["key"]: m["value"] for m in proc.get("strings", {}).get("marker_api", [])
                    if isinstance(m, dict) and isinstance(m.get("key"), int) and isinstance(m.get("value"), str)}
        pid = proc.get("metadata", {}).get("pid")
        records = proc.get("buffer_records", {})

        def gpu_of(handle):
            a = agents[handle]
            if a.get("type") != 2:
                return None
            return a.get("logical_node_type_id", a.get("logical_node_id"))

        ops = []
        for r in records.get("kernel_dispatch", []):
            info = r["dispatch_info"]
            gpu = gpu_of(info["agent_id"]["handle"])
            assert gpu is not None
            ops.append({"name": kernel_name(symbols[info["kernel_id"]]), "gpu": gpu,
                        "start": r["start_timestamp"], "end": r["end_timestamp"],
                        "corr": r.get("correlation_id", {}).get("internal", 0)})
            self.counts["kernel_dispatch"] += 1
        for r in records.get("memory_copy", []):
            src, dst = gpu_of(r["src_agent_id"]["handle"]), gpu_of(r["dst_agent_id"]["handle"])
            row = {"start": r["start_timestamp"], "end": r["end_timestamp"],
                   "corr": r.get("correlation_id", {}).get("internal", 0)}
            self.counts["memory_copy"] += 1
            if src is None and dst is None:
                row["name"] = "CopyHostToHost"
                self.host_copies.append(row)
                continue
            op = names.get((r.get("kind"), r.get("operation")), "")
            if op in COPY_NAMES:
                row["name"] = COPY_NAMES[op]
            elif src is not None and dst is not None:
                row["name"] = "CopyDeviceToDevice"
            else:
                row["name"] = "CopyHostToDevice" if dst is not None else "CopyDeviceToHost"
            row["gpu"] = dst if dst is not None else src
            ops.append(row)
        first_call = {}
        for lst in CALL_LISTS:
            for r in records.get(lst, []):
                row = {"name": names[(r["kind"], r["operation"])], "thread": (pid, r["thread_id"]),
                       "start": r["start_timestamp"], "end": r["end_timestamp"]}
                corr = r.get("correlation_id", {}).get("internal", 0)
                if corr:
                    first_call.setdefault(corr, len(self.calls))
                self.calls.append(row)
                self.counts["calls"] += 1
        for r in records.get("marker_api", []):
            corr = r.get("correlation_id", {}).get("internal", 0)
            text = messages[corr] if corr and corr in messages else names[(r["kind"], r["operation"])]
            self.ranges.append({"name": text, "thread": (pid, r["thread_id"]),
                                "start": r["start_timestamp"], "end": r["end_timestamp"]})
            self.counts["marker_api"] += 1
        for o in ops:
            if o["corr"] and o["corr"] in first_call:
                self.ops_of_call.setdefault(first_call[o["corr"]], []).append(o)
        self.ops.extend(ops)


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
    for r in by_name(t.ops + t.host_copies):
        print("\t".join(str(x) for x in r))


def busy(t):
    first = min(o["start"] for o in t.ops)
    last = max(o["end"] for o in t.ops)
    wall = last - first
    for g in sorted({o["gpu"] for o in t.ops}):
        mine = [o for o in t.ops if o["gpu"] == g]
        b = union((o["start"], o["end"]) for o in mine)
        print("\t".join(str(x) for x in (
            g, len(mine), sum(o["end"] - o["start"] for o in mine), b, wall,
            "%.6f" % (decimal.Decimal(b * 100) / decimal.Decimal(wall) if wall else decimal.Decimal(0)),
            min(o["start"] for o in mine),
            max(o["end"] for o in mine))))


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


def count(t):
    print("\t".join(str(t.counts[k]) for k in ("kernel_dispatch", "memory_copy", "calls", "marker_api")))


def cut(cols):
    rows = csv.reader(sys.stdin)
    next(rows, None)
    for r in rows:
        print("\t".join(r[int(c) - 1] for c in cols))


def main():
    if sys.argv[1] == "cut":
        cut(sys.argv[2:])
        return
    {"top": top, "busy": busy, "api": api, "markers": markers,
     "count": count}[sys.argv[1]](Trace(sys.argv[2]))


main()
