# SQL oracles shared by the tests of inputs whose GPU ops and calls are
# read from another tool's tables (tests/nsys.sh, tests/rocprof.sh):
# each takes the common table expressions that define the ops from the
# file's own tables, never rpdtop's output. Sourced after lib.sh.

# ops_top CTES FILE: name, calls, total, min, max of the ops (name, gpu,
# start, end e), by total then name.
ops_top() {
	sql -separator '	' "$2" "WITH $1
		SELECT name, count(*), sum(e - start), min(e - start), max(e - start) FROM ops
		GROUP BY name ORDER BY sum(e - start) DESC, name"
}

# ops_busy CTES FILE: per GPU: ops, sum, busy (the union of the ops'
# intervals), wall (the span of all ops), busy percent of the wall, first
# start, last end.
ops_busy() {
	sql -separator '	' "$2" "WITH $1,
		reach AS (SELECT gpu, start, e, max(e) OVER (PARTITION BY gpu ORDER BY start, e
			ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS r FROM ops),
		wall AS (SELECT max(e) - min(start) AS w FROM ops),
		g AS (SELECT gpu, count(*) AS n, sum(e - start) AS s,
			sum(CASE WHEN r IS NULL OR start >= r THEN e - start WHEN e > r THEN e - r ELSE 0 END) AS b,
			min(start) AS f, max(e) AS l FROM reach GROUP BY gpu)
		SELECT gpu, n, s, b, w, printf('%.6f', 100.0 * b / w), f, l FROM g, wall ORDER BY gpu"
}

# ops_markers CTES FILE: per range text: calls, total, min, max, and the
# GPU time and number of the ops launched inside them, given launched
# (start, e of an op; cs, ce, th of its call's times and thread) and r
# (name, start, e, th of a range): ops whose call ran on the range's
# thread within it.
ops_markers() {
	sql -separator '	' "$2" "WITH $1,
		per AS (SELECT r.name, r.e - r.start AS d,
			(SELECT coalesce(sum(l.e - l.start), 0) FROM launched l WHERE l.th = r.th AND l.cs >= r.start AND l.ce <= r.e) AS g,
			(SELECT count(*) FROM launched l WHERE l.th = r.th AND l.cs >= r.start AND l.ce <= r.e) AS k FROM r)
		SELECT name, count(*), sum(d), min(d), max(d), sum(g), sum(k) FROM per
		GROUP BY name ORDER BY sum(d) DESC, name"
}

# csv_cut COL...: rpdtop's CSV on standard input, those columns separated
# by tabs, the header left out.
csv_cut() {
	python3 "$srcdir/tests/kineto.py" cut "$@"
}

# oracle_same PREFIX WHAT REPORT COLUMNS FILE: rpdtop's CSV report, those
# columns, equals the oracle PREFIX_REPORT on FILE.
oracle_same() {
	prefix=$1 what=$2 report=$3 cols=$4 file=$5
	"${prefix}_$report" "$file" >"$tmp/want" || fail "$what: oracle"
	# shellcheck disable=SC2086
	"$RPDTOP" --raw-names -r "$report" -f csv "$file" | csv_cut $cols >"$tmp/got"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
		pass "$what ($(wc -l <"$tmp/want" | tr -d ' ') rows)"
	else
		fail "$what"
		diff "$tmp/want" "$tmp/got" | head -10 >&2
	fi
}
