# SQL oracles over the tables of a rocprof results.db, as the manual
# (INPUTS) defines what rpdtop reads of one; sourced by the rocprof tests
# after lib.sh (it sources tests/ops_sql.sh). Each function prints the
# rows of a report (fields separated by tabs, no header), computed straight
# from the file's own tables: never from rpdtop's output.
. "$srcdir/tests/ops_sql.sh"

# The GPU ops (name, gpu, start, end e, correlation id corr, process
# proc): OPS rows named by Name (rocprof's barrier packets Barrier), COPY
# rows by Name; the process is pid where the tables have __section (ROCm
# 5.1 on), else none.
rocprof_ops_cte() {
	cat <<'EOF2'
ops(name, gpu, start, e, corr, proc) AS (
  SELECT CASE WHEN Name IS NULL THEN '[unknown kernel]' WHEN Name IN ('"<barrier packet>"', '<barrier packet>') THEN 'Barrier'
    ELSE Name END, "dev-id", BeginNs, EndNs, "Index", pid FROM main.OPS
  UNION ALL
  SELECT coalesce(Name, 'CopyUnknown'), "dev-id", BeginNs, EndNs, "Index", pid FROM main.COPY)
EOF2
}

# rocprof_top FILE, rocprof_busy FILE: tests/ops_sql.sh's over these ops.
rocprof_top() {
	ops_top "$(rocprof_ops_cte)" "$1"
}

rocprof_busy() {
	ops_busy "$(rocprof_ops_cte)" "$1"
}

# The call tables the file has, as SQL selecting Name, BeginNs, EndNs, pid
# and tid of their rows.
rocprof_calls() {
	for t in HIP HSA KFD; do
		if [ "$(sql "$1" "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '$t'")" = 1 ]; then
			printf '%sSELECT Name, BeginNs, EndNs, pid, tid FROM %s' "${sep:-}" "$t"
			sep=' UNION ALL '
		fi
	done
	sep=
}

# rocprof_api FILE: name, calls, total of the calls of HIP, HSA and KFD,
# by total then name.
rocprof_api() {
	sql -separator '	' "$1" "SELECT Name, count(*), sum(EndNs - BeginNs) FROM ($(rocprof_calls "$1"))
		GROUP BY Name ORDER BY sum(EndNs - BeginNs) DESC, Name"
}

# rocprof_markers FILE: per text of the roctx ranges (rocTX): calls, total,
# min, max, and the GPU time and number of the ops launched inside them:
# ops whose call (the HIP call of their Index, within their process,
# that starts first) ran on the range's thread within it.
rocprof_markers() {
	ops_markers "$(rocprof_ops_cte),
		first AS (SELECT \"Index\" AS corr, pid AS proc, BeginNs AS cs, EndNs AS ce, pid || ':' || tid AS th,
			row_number() OVER (PARTITION BY pid, \"Index\" ORDER BY BeginNs, rowid) AS k
			FROM HIP WHERE \"Index\" IS NOT NULL),
		launched AS (SELECT o.start, o.e, f.cs, f.ce, f.th FROM ops o JOIN first f ON f.corr = o.corr AND f.proc = o.proc AND f.k = 1),
		r AS (SELECT coalesce(Name, 'UserMarker') AS name, BeginNs AS start, EndNs AS e, pid || ':' || tid AS th FROM rocTX)" "$1"
}

# rocprof_same WHAT REPORT COLUMNS FILE: tests/ops_sql.sh's oracle_same
# with these oracles.
rocprof_same() {
	oracle_same rocprof "$@"
}
