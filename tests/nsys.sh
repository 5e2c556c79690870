# SQL oracles over the tables of an NVIDIA Nsight Systems SQLite export,
# as the manual (INPUTS) defines what rpdtop reads of one; sourced by the
# nsys tests after lib.sh. Each function prints the rows of a report
# (fields separated by tabs, no header), computed straight from the
# export's own tables: never from rpdtop's output.

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

# nsys_top FILE: name, calls, total, min, max of the GPU ops, by total
# then name.
nsys_top() {
	sql -separator '	' "$1" "WITH $(nsys_ops_cte)
		SELECT name, count(*), sum(e - start), min(e - start), max(e - start) FROM ops
		GROUP BY name ORDER BY sum(e - start) DESC, name"
}

# nsys_busy FILE: per GPU: ops, sum, busy (the union of the ops'
# intervals), wall (the span of all ops), busy percent of the wall, first
# start, last end.
nsys_busy() {
	sql -separator '	' "$1" "WITH $(nsys_ops_cte),
		reach AS (SELECT gpu, start, e, max(e) OVER (PARTITION BY gpu ORDER BY start, e
			ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS r FROM ops),
		wall AS (SELECT max(e) - min(start) AS w FROM ops),
		g AS (SELECT gpu, count(*) AS n, sum(e - start) AS s,
			sum(CASE WHEN r IS NULL OR start >= r THEN e - start WHEN e > r THEN e - r ELSE 0 END) AS b,
			min(start) AS f, max(e) AS l FROM reach GROUP BY gpu)
		SELECT gpu, n, s, b, w, printf('%.6f', 100.0 * b / w), f, l FROM g, wall ORDER BY gpu"
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
	sql -separator '	' "$1" "WITH $(nsys_ops_cte),
		first AS (SELECT correlationId AS corr, start AS cs, \"end\" AS ce, globalTid & 281474976710655 AS th,
			row_number() OVER (PARTITION BY correlationId ORDER BY start, rowid) AS k
			FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IS NOT NULL AND correlationId <> 0),
		launched AS (SELECT o.start, o.e, f.cs, f.ce, f.th FROM ops o JOIN first f ON f.corr = o.corr AND f.k = 1),
		r AS (SELECT coalesce(n.text, (SELECT value FROM StringIds WHERE id = n.textId), 'UserMarker') AS name,
			n.start AS start, CASE WHEN n.eventType = 34 OR n.\"end\" IS NULL THEN n.start ELSE n.\"end\" END AS e,
			n.globalTid & 281474976710655 AS th FROM NVTX_EVENTS n WHERE n.eventType IN (34, 59, 60)),
		per AS (SELECT r.name, r.e - r.start AS d,
			(SELECT coalesce(sum(l.e - l.start), 0) FROM launched l WHERE l.th = r.th AND l.cs >= r.start AND l.ce <= r.e) AS g,
			(SELECT count(*) FROM launched l WHERE l.th = r.th AND l.cs >= r.start AND l.ce <= r.e) AS k FROM r)
		SELECT name, count(*), sum(d), min(d), max(d), sum(g), sum(k) FROM per
		GROUP BY name ORDER BY sum(d) DESC, name"
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

# nsys_cut COL...: rpdtop's CSV on standard input, those columns separated
# by tabs, the header left out.
nsys_cut() {
	python3 "$srcdir/tests/kineto.py" cut "$@"
}

# nsys_same WHAT REPORT COLUMNS FILE: rpdtop's CSV report, those columns,
# equals the oracle nsys_REPORT on FILE.
nsys_same() {
	what=$1 report=$2 cols=$3 file=$4
	"nsys_$report" "$file" >"$tmp/want" || fail "$what: oracle"
	# shellcheck disable=SC2086
	"$RPDTOP" --raw-names -r "$report" -f csv "$file" | nsys_cut $cols >"$tmp/got"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
		pass "$what ($(wc -l <"$tmp/want" | tr -d ' ') rows)"
	else
		fail "$what"
		diff "$tmp/want" "$tmp/got" | head -10 >&2
	fi
}
