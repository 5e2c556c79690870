# SQL oracles for the reports of the CPU side (api, markers, ranges, steps)
# over the base tables of an rpd file (or the rpd-like temporary tables
# waits_rocpd_tables makes of a rocprofv3 file). Sourced by the tests after
# lib.sh and waits.sh. Each function prints the report's CSV rows (no
# header) as the manual's definitions give them, computed independently.
#
# Variables: WS, WE (the window, or empty), KEEP (an SQL condition on an
# op's name), PASS (an SQL condition on the word NAME, a call's shown name:
# the filter on API rows), STEP (an SQL condition on a range's text: the
# steps).

# clip_sql S E: the part of [S, E) inside the window (without one, E - S).
clip_sql() {
	if [ -n "${WS:-}" ]; then echo "max(0, min($2, $WE) - max($1, $WS))"; else echo "($2 - $1)"; fi
}

# The calls (c: every API row, its shown name, whether it is a roctx
# range) and those these reports list (kept): of the calls in view as
# select.h's rule has them, those whose own shown name passes (the launches
# and enclosing calls the rule keeps as context are not listed).
cpu_calls_sql() {
	THR=${THR:-5000} waits_ops_sql
	ws=${WS:-"-9223372036854775807"} we=${WE:-"9223372036854775807"}
	cat <<EOF
CREATE TEMP TABLE c AS
  SELECT a.id AS id, a.pid AS pid, a.tid AS tid, a.start AS start, a.end AS end,
    n.string = 'UserMarker' AS marker,
    CASE WHEN n.string = 'UserMarker' AND g.string <> '' THEN g.string ELSE n.string END AS name
  FROM rocpd_api a JOIN rocpd_string n ON n.id = a.apiName_id JOIN rocpd_string g ON g.id = a.args_id;
CREATE INDEX temp.c_thread ON c(pid, tid, start);
CREATE TEMP TABLE kept AS SELECT id FROM c WHERE id IN ($(rule_apis_sql "${PASS:-1}" "$ws" "$we" "SELECT id FROM oall"))
  AND ($(echo "${PASS:-1}" | sed 's/NAME/c.name/g'));
CREATE INDEX temp.kept_id ON kept(id);
EOF
}

# nearest_sql TABLE NAME PCT: the nearest-rank percentile of TABLE's d
# (rows rn 1..n per name) for the name NAME.
nearest_sql() {
	echo "(SELECT d FROM $1 x WHERE x.name = $2 AND x.rn = max(1, ($3 * x.n + 99) / 100))"
}

cpu_api_sql() {
	cpu_calls_sql
	cat <<EOF
CREATE TEMP TABLE kc AS SELECT *, $(clip_sql start end) AS cd, end - start AS d FROM c
  WHERE NOT marker AND id IN (SELECT id FROM kept);
CREATE TEMP TABLE nc AS SELECT id, pid, tid, start, end FROM c WHERE NOT marker;
CREATE INDEX temp.nc_back ON nc(pid, tid, start, end DESC);
CREATE TEMP TABLE par AS SELECT x.id AS id, $(clip_sql x.start x.end) AS cd,
    (SELECT p.id FROM nc p WHERE p.pid = x.pid AND p.tid = x.tid AND p.start <= x.start
      AND p.end >= x.end AND p.id <> x.id ORDER BY p.start DESC, p.end LIMIT 1) AS parent
  FROM nc x;
CREATE TEMP TABLE pr AS SELECT name, d, row_number() OVER (PARTITION BY name ORDER BY d) AS rn,
  count(*) OVER (PARTITION BY name) AS n FROM kc;
CREATE INDEX temp.pr_name ON pr(name, rn);
SELECT $(csvq name), count(*), sum(cd),
  sum(cd) - coalesce((SELECT sum(p.cd) FROM par p JOIN kc k ON k.id = p.parent WHERE k.name = g.name), 0),
  sum(d) / count(*), min(d), max(d), $(nearest_sql pr g.name 50), $(nearest_sql pr g.name 99),
  printf('%.6f', CASE WHEN (SELECT sum(cd) FROM kc) > 0 THEN 100.0 * sum(cd) / (SELECT sum(cd) FROM kc) ELSE 0 END)
FROM kc g GROUP BY name ORDER BY sum(cd) DESC, name;
EOF
}

# The roctx ranges in view (km), their depth and the ops in view launched
# by calls inside them on their thread (mo).
cpu_ranges_base_sql() {
	cpu_calls_sql
	cat <<EOF
CREATE TEMP TABLE km AS SELECT *, $(clip_sql start end) AS cd, end - start AS d
  FROM c m WHERE marker AND id IN (SELECT id FROM kept);
CREATE TEMP TABLE mo AS SELECT m.id AS id, sum(o.ce - o.cs) AS gpu, count(*) AS ops, min(o.cs) AS fs, max(o.ce) AS le
  FROM km m JOIN c a ON a.pid = m.pid AND a.tid = m.tid AND NOT a.marker AND a.start >= m.start
    AND a.start <= m.end AND a.end <= m.end
    JOIN link l ON l.api = a.id JOIN oall o ON o.id = l.op_id
  GROUP BY m.id;
EOF
}

cpu_markers_sql() {
	cpu_ranges_base_sql
	cat <<EOF
CREATE TEMP TABLE pr AS SELECT name, d, row_number() OVER (PARTITION BY name ORDER BY d) AS rn,
  count(*) OVER (PARTITION BY name) AS n FROM km;
CREATE INDEX temp.pr_name ON pr(name, rn);
SELECT $(csvq g.name), count(*), sum(g.cd), sum(g.d) / count(*), min(g.d), max(g.d), $(nearest_sql pr g.name 50),
  coalesce(sum(mo.gpu), 0), coalesce(sum(mo.ops), 0)
FROM km g LEFT JOIN mo ON mo.id = g.id GROUP BY g.name ORDER BY sum(g.cd) DESC, g.name;
EOF
}

# A range's depth: the ranges of its thread enclosing it. Ranges nest, so
# those are its parent (the latest to start before it, the shorter at equal
# starts, of those enclosing it: an index scan backwards), its parent's
# parent, and so on.
cpu_ranges_sql() {
	cpu_ranges_base_sql
	cat <<EOF
CREATE TEMP TABLE mk AS SELECT id, pid, tid, start, end FROM c WHERE marker;
CREATE INDEX temp.mk_back ON mk(pid, tid, start, end DESC);
CREATE TEMP TABLE mp AS SELECT m.id AS id, (SELECT e.id FROM mk e WHERE e.pid = m.pid AND e.tid = m.tid
    AND e.start <= m.start AND e.end >= m.end AND e.id <> m.id ORDER BY e.start DESC, e.end LIMIT 1) AS parent FROM mk m;
CREATE INDEX temp.mp_parent ON mp(parent);
CREATE TEMP TABLE md AS WITH RECURSIVE d(id, depth) AS (SELECT id, 0 FROM mp WHERE parent IS NULL
    UNION ALL SELECT mp.id, d.depth + 1 FROM mp JOIN d ON mp.parent = d.id) SELECT * FROM d;
CREATE INDEX temp.md_id ON md(id);
SELECT $(csvq m.name), m.start, m.d, (SELECT depth FROM md WHERE md.id = m.id), m.pid, m.tid, coalesce(mo.gpu, 0), coalesce(mo.ops, 0),
  coalesce(mo.le - mo.fs, 0)
FROM km m LEFT JOIN mo ON mo.id = m.id ORDER BY m.start, m.end DESC, m.id;
EOF
}

# Steps: the ranges whose text meets STEP, numbered over the whole trace.
cpu_steps_sql() {
	cpu_calls_sql
	cat <<EOF
CREATE TEMP TABLE st AS SELECT * FROM (SELECT id, start, end, end - start AS d,
    row_number() OVER (ORDER BY start, end DESC, id) AS n FROM c WHERE marker AND ($STEP))
  WHERE id IN (SELECT id FROM kept);
CREATE TEMP TABLE so AS SELECT s.n AS n, max(o.cs, s.start) AS a, min(o.ce, s.end) AS b, o.name AS name, o.kind AS kind, o.id AS oid
  FROM st s JOIN oall o ON o.cs < s.end AND o.ce > s.start AND o.ce > o.cs;
CREATE TEMP TABLE busy AS SELECT n, sum(max(0, b - max(a, coalesce(reach, a)))) AS len FROM (SELECT n, a, b,
    max(b) OVER (PARTITION BY n ORDER BY a, b, oid ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach FROM so)
  GROUP BY n;
SELECT s.n, s.start, s.d, coalesce(b.len, 0),
  printf('%.6f', CASE WHEN s.d > 0 THEN 100.0 * coalesce(b.len, 0) / s.d ELSE 0 END),
  $(csvq "coalesce((SELECT name FROM so WHERE so.n = s.n AND kind = 'kernel' GROUP BY name
    ORDER BY sum(b - a) DESC, name LIMIT 1), '')")
FROM st s LEFT JOIN busy b ON b.n = s.n ORDER BY s.n;
EOF
}

# cpu_compare WHAT REPORT DB [RPDTOP-ARGS...]: the report's CSV rows equal
# the oracle's (cpu_REPORT_sql) over DB.
cpu_compare() {
	c_what=$1 c_report=$2 c_db=$3
	shift 3
	{
		[ -z "${WAITS_ROCPD:-}" ] || waits_rocpd_tables "$WAITS_ROCPD"
		"cpu_${c_report}_sql"
	} >"$tmp/oracle.sql"
	sql -list -separator , "$c_db" <"$tmp/oracle.sql" >"$tmp/want" 2>"$tmp/sql.err" || { fail "$c_what: SQL failed"; cat "$tmp/sql.err" >&2; }
	"$RPDTOP" -r "$c_report" -f csv "$@" "$c_db" | tail -n +2 >"$tmp/got"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then pass "$c_what: $c_report equals SQL ($(wc -l <"$tmp/got") rows)"; else
		fail "$c_what: $c_report differs from SQL"; diff "$tmp/want" "$tmp/got" | head -20 >&2; fi
}
