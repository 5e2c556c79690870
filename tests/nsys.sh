# SQL oracles over the tables of an NVIDIA Nsight Systems SQLite export,
# as the manual (INPUTS) defines what rpdtop reads of one; sourced by the
# nsys tests after lib.sh (it sources tests/ops_sql.sh). Each function
# prints the rows of a report (fields separated by tabs, no header),
# computed straight from the export's own tables: never from rpdtop's
# output.
. "$srcdir/tests/ops_sql.sh"

# The GPU ops (name, gpu, start, end e, correlation id corr): kernels named
# by demangledName (else shortName) in StringIds, copies by copyKind as rpd
# names them, memsets FillBuffer.
nsys_ops_cte() {
	cat <<'EOF'
ops(name, gpu, start, e, corr) AS (
  SELECT CASE WHEN k.demangledName IS NOT NULL THEN (SELECT value FROM StringIds WHERE id = k.demangledName)
    ELSE (SELECT value FROM StringIds WHERE id = k.shortName) END, k.deviceId, k.start, k."end", k.correlationId
  FROM CUPTI_ACTIVITY_KIND_KERNEL k
  UNION ALL
  SELECT CASE WHEN copyKind IN (1, 3, 11) THEN 'CopyHostToDevice' WHEN copyKind IN (2, 4, 12) THEN 'CopyDeviceToHost'
    WHEN copyKind IN (5, 6, 7, 8, 13) THEN 'CopyDeviceToDevice' WHEN copyKind = 9 THEN 'CopyHostToHost'
    WHEN copyKind = 10 THEN 'CopyPeerToPeer' ELSE 'CopyUnknown' END, deviceId, start, "end", correlationId
  FROM CUPTI_ACTIVITY_KIND_MEMCPY
  UNION ALL
  SELECT 'FillBuffer', deviceId, start, "end", correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET)
EOF
}

# nsys_top FILE, nsys_busy FILE: tests/ops_sql.sh's over these ops.
nsys_top() {
	ops_top "$(nsys_ops_cte)" "$1"
}

nsys_busy() {
	ops_busy "$(nsys_ops_cte)" "$1"
}

# nsys_api FILE: name (nameId in StringIds), calls, total of the CUDA
# runtime's calls, by total then name.
nsys_api() {
	sql -separator '	' "$1" "SELECT (SELECT value FROM StringIds WHERE id = nameId) AS n, count(*), sum(\"end\" - start)
		FROM CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY n ORDER BY sum(\"end\" - start) DESC, n"
}

# nsys_markers FILE: per NVTX text (text, else textId in StringIds) of the
# push/pop and start/end ranges and the marks (instants, as is a range
# without an end): calls, total, min, max, and the GPU time and number of
# the ops launched inside them: ops whose call (the runtime call with
# their correlation id that starts first) ran on the range's thread (pid
# and tid of globalTid) within it.
nsys_markers() {
	ops_markers "$(nsys_ops_cte),
		first AS (SELECT correlationId AS corr, start AS cs, \"end\" AS ce, globalTid & 281474976710655 AS th,
			row_number() OVER (PARTITION BY correlationId ORDER BY start, rowid) AS k
			FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IS NOT NULL AND correlationId <> 0),
		launched AS (SELECT o.start, o.e, f.cs, f.ce, f.th FROM ops o JOIN first f ON f.corr = o.corr AND f.k = 1),
		r AS (SELECT coalesce(n.text, (SELECT value FROM StringIds WHERE id = n.textId), 'UserMarker') AS name,
			n.start AS start, CASE WHEN n.eventType = 34 OR n.\"end\" IS NULL THEN n.start ELSE n.\"end\" END AS e,
			n.globalTid & 281474976710655 AS th FROM NVTX_EVENTS n WHERE n.eventType IN (34, 59, 60))" "$1"
}

# nsys_graphs FILE: per graph launch call name ((hip|cuda|cu)GraphLaunch,
# alone or with a suffix after _): the calls that launched ops (replays)
# and the ops they launched.
nsys_graphs() {
	sql -separator '	' "$1" "WITH $(nsys_ops_cte),
		first AS (SELECT rowid AS cid, correlationId AS corr,
			(SELECT value FROM StringIds WHERE id = nameId) AS name,
			row_number() OVER (PARTITION BY correlationId ORDER BY start, rowid) AS k
			FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IS NOT NULL AND correlationId <> 0),
		launched AS (SELECT f.cid, f.name FROM ops o JOIN first f ON f.corr = o.corr AND f.k = 1)
		SELECT name, count(DISTINCT cid), count(*) FROM launched
		WHERE name GLOB 'hipGraphLaunch' OR name GLOB 'cudaGraphLaunch' OR name GLOB 'cuGraphLaunch'
			OR name GLOB 'hipGraphLaunch_*' OR name GLOB 'cudaGraphLaunch_*' OR name GLOB 'cuGraphLaunch_*'
		GROUP BY name ORDER BY name"
}

# nsys_cut COL..., nsys_same WHAT REPORT COLUMNS FILE: tests/ops_sql.sh's
# csv_cut and oracle_same with these oracles.
nsys_cut() {
	csv_cut "$@"
}

nsys_same() {
	oracle_same nsys "$@"
}
