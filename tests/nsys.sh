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

# What an export (-o) of an export keeps, in SQL over the input's tables,
# under the window [LO, HI) and a name filter PASSES (a function printing
# the SQL condition on the name expression it is given). The ops kept:
# those whose name passes and that overlap the window. The calls kept, by
# the selection's rule (session/select.h): runtime calls and NVTX ranges
# and marks (named by text, else textId's string; an instant when a mark
# or without an end) whose shown name passes and that overlap the window,
# the launch of each kept op (the runtime call of its correlationId that
# starts first), and every call enclosing one of those on its thread.
# CUPTI_ACTIVITY_KIND_RUNTIME keeps those calls and every call of a kept
# op's correlationId; NVTX_EVENTS those ranges and marks and every row
# that is neither.

# nsys_op_name ALIAS TABLE: the SQL of an op's name.
nsys_op_name() {
	case $2 in
	CUPTI_ACTIVITY_KIND_KERNEL)
		echo "(CASE WHEN $1.demangledName IS NOT NULL THEN (SELECT value FROM StringIds WHERE id = $1.demangledName)
			ELSE (SELECT value FROM StringIds WHERE id = $1.shortName) END)" ;;
	CUPTI_ACTIVITY_KIND_MEMCPY)
		echo "(CASE WHEN $1.copyKind IN (1, 3, 11) THEN 'CopyHostToDevice' WHEN $1.copyKind IN (2, 4, 12) THEN 'CopyDeviceToHost'
			WHEN $1.copyKind IN (5, 6, 7, 8, 13) THEN 'CopyDeviceToDevice' WHEN $1.copyKind = 9 THEN 'CopyHostToHost'
			WHEN $1.copyKind = 10 THEN 'CopyPeerToPeer' ELSE 'CopyUnknown' END)" ;;
	*) echo "'FillBuffer'" ;;
	esac
}

# nsys_op_kept PASSES LO HI TABLE: the SQL condition on a row o of TABLE.
nsys_op_kept() {
	echo "($("$1" "$(nsys_op_name o "$4")") AND $(overlap_sql o "$2" "$3"))"
}

nsys_op_tables="CUPTI_ACTIVITY_KIND_KERNEL CUPTI_ACTIVITY_KIND_MEMCPY CUPTI_ACTIVITY_KIND_MEMSET"

# nsys_kept_with FILE PASSES LO HI: the common table expressions kops
# (the kept ops' correlationIds) and kept (tab 'R' or 'N', rid: the calls
# of the rule).
nsys_kept_with() {
	kept_ops=
	for kept_t in $nsys_op_tables; do
		[ -n "$(sql "$1" "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '$kept_t'")" ] &&
			kept_ops="$kept_ops${kept_ops:+ UNION ALL }SELECT o.correlationId FROM $kept_t o WHERE $(nsys_op_kept "$2" "$3" "$4" "$kept_t")"
	done
	cat <<EOS
WITH kops(corr) AS (${kept_ops:-SELECT NULL WHERE 0}),
calls(tab, rid, th, start, "end", name) AS (
	SELECT 'R', rowid, globalTid & 281474976710655, start, "end",
		(SELECT value FROM StringIds WHERE id = nameId) FROM CUPTI_ACTIVITY_KIND_RUNTIME
	UNION ALL
	SELECT 'N', rowid, globalTid & 281474976710655, start, CASE WHEN eventType = 34 OR "end" IS NULL THEN start ELSE "end" END,
		coalesce(text, (SELECT value FROM StringIds WHERE id = textId), 'UserMarker') FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)),
first AS (SELECT rowid AS rid, correlationId AS corr, row_number() OVER (PARTITION BY correlationId ORDER BY start, rowid) AS k
	FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IS NOT NULL AND correlationId <> 0),
base AS MATERIALIZED (SELECT * FROM calls c WHERE ($("$2" c.name) AND $(overlap_sql c "$3" "$4"))
	OR (c.tab = 'R' AND c.rid IN (SELECT rid FROM first WHERE k = 1 AND corr IN kops))),
kept AS MATERIALIZED (SELECT tab, rid FROM calls e WHERE EXISTS (SELECT 1 FROM base b
	WHERE b.th = e.th AND b.start >= e.start AND b."end" <= e."end"))
EOS
}

# nsys_kept_where PASSES LO HI TABLE: the condition on TABLE's rows o.
nsys_kept_where() {
	case $4 in
	CUPTI_ACTIVITY_KIND_RUNTIME)
		echo "(o.rowid IN (SELECT rid FROM kept WHERE tab = 'R')
			OR (o.correlationId IS NOT NULL AND o.correlationId <> 0 AND o.correlationId IN kops))" ;;
	NVTX_EVENTS)
		echo "(o.eventType NOT IN (34, 59, 60) OR o.rowid IN (SELECT rid FROM kept WHERE tab = 'N'))" ;;
	*)
		nsys_op_kept "$@" ;;
	esac
}

# nsys_kept_rows FILE PASSES LO HI TABLE: the rows of TABLE kept, in the
# order of their rowids.
nsys_kept_rows() {
	sql "$1" "$(nsys_kept_with "$@") SELECT * FROM $5 o WHERE $(nsys_kept_where "$2" "$3" "$4" "$5") ORDER BY o.rowid"
}

# nsys_kept_calls FILE PASSES LO HI: how many calls are kept (runtime
# calls, NVTX ranges and marks).
nsys_kept_calls() {
	sql "$1" "$(nsys_kept_with "$@") SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME o
		WHERE $(nsys_kept_where "$2" "$3" "$4" CUPTI_ACTIVITY_KIND_RUNTIME))
		+ (SELECT count(*) FROM NVTX_EVENTS o WHERE o.eventType IN (34, 59, 60)
		AND $(nsys_kept_where "$2" "$3" "$4" NVTX_EVENTS))"
}
