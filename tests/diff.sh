# SQL oracle for --diff over the base tables of two rpd files (rocpd_op,
# rocpd_string), the new one ATTACHed. Sourced by the tests after lib.sh.
#
# diff_oracle BASE NEW: the CSV rows (no header) of rpdtop --diff BASE NEW
# as the manual defines them, computed independently. Variables: TOL (the
# tolerance, percent; default 2), BWS BWE and NWS NWE (each run's window,
# empty for none), KEEP (an SQL condition on the op's shown name).

# The shown name of each mangled string of the files, demangled by
# c++filt (binutils), not by rpdtop's demangler.
diff_demangled_sql() {
	for f in "$@"; do
		sql "$f" "SELECT DISTINCT string FROM rocpd_string WHERE string GLOB '_Z*'"
	done | sort -u | while IFS= read -r raw; do
		shown=$(printf '%s\n' "$raw" | c++filt)
		printf "INSERT INTO dm VALUES ('%s', '%s');\n" \
			"$(printf '%s' "$raw" | sed "s/'/''/g")" "$(printf '%s' "$shown" | sed "s/'/''/g")"
	done
}

# diff_side_sql SCHEMA TABLE WS WE: the ops of one run in view, with their
# shown name, whole duration and the part inside the window.
diff_side_sql() {
	ws=${3:-"-9223372036854775807"} we=${4:-"9223372036854775807"}
	name="CASE WHEN d.string = '' THEN t.string ELSE coalesce(dm.name, d.string) END"
	cat <<EOF
CREATE TEMP TABLE $2 AS SELECT $name AS name, o.end - o.start AS dur,
    CASE WHEN $ws = -9223372036854775807 AND $we = 9223372036854775807 THEN o.end - o.start
      ELSE max(0, min(o.end, $we) - max(o.start, $ws)) END AS inside
  FROM $1.rocpd_op o JOIN $1.rocpd_string d ON d.id = o.description_id
    JOIN $1.rocpd_string t ON t.id = o.opType_id LEFT JOIN dm ON dm.raw = d.string
  WHERE CASE WHEN o.end <= o.start THEN o.start >= $ws AND o.start < $we
    ELSE o.start < $we AND o.end > $ws END;
DELETE FROM $2 WHERE NOT (${KEEP:-1});
CREATE TEMP TABLE ${2}_by AS SELECT name, count(*) AS calls, sum(inside) AS total,
    (SELECT dur FROM (SELECT dur, row_number() OVER (ORDER BY dur) AS rn, count(*) OVER () AS n
      FROM $2 x WHERE x.name = g.name) WHERE rn = (n + 1) / 2) AS p50
  FROM $2 g GROUP BY name;
CREATE TEMP TABLE ${2}_all AS SELECT count(*) AS calls, coalesce(sum(inside), 0) AS total,
    (SELECT dur FROM (SELECT dur, row_number() OVER (ORDER BY dur) AS rn, count(*) OVER () AS n
      FROM $2) WHERE rn = (n + 1) / 2) AS p50 FROM $2;
EOF
}

# diff_row_sql: the CSV line of a row of r (name, bc, nc, bt, nt, bp, np).
diff_row_sql() {
	tol=${TOL:-2}
	cat <<EOF
SELECT $(csvq name) || ',' || bc || ',' || nc || ',' || bt || ',' || nt || ',' || (nt - bt) || ',' ||
  CASE WHEN bt = 0 THEN '' ELSE printf('%.6f', 100.0 * (nt - bt) / bt) END || ',' ||
  CASE WHEN bc = 0 THEN '' ELSE bp END || ',' || CASE WHEN nc = 0 THEN '' ELSE np END || ',' ||
  CASE WHEN bc = 0 THEN 'added' WHEN nc = 0 THEN 'removed'
    WHEN abs(nt - bt) <= $tol / 100.0 * abs(bt) THEN 'same'
    WHEN nt > bt THEN 'slower' ELSE 'faster' END
EOF
}

diff_oracle() {
	{
		echo "CREATE TEMP TABLE dm (raw TEXT PRIMARY KEY, name TEXT);"
		diff_demangled_sql "$1" "$2"
		echo "ATTACH '$2' AS nw;"
		diff_side_sql main b "${BWS:-}" "${BWE:-}"
		diff_side_sql nw n "${NWS:-}" "${NWE:-}"
		cat <<EOF
CREATE TEMP TABLE r AS
  SELECT '*total*' AS name, b.calls AS bc, n.calls AS nc, b.total AS bt, n.total AS nt,
    b.p50 AS bp, n.p50 AS np, 0 AS k FROM b_all b, n_all n;
INSERT INTO r SELECT u.name, coalesce(b.calls, 0), coalesce(n.calls, 0), coalesce(b.total, 0),
    coalesce(n.total, 0), b.p50, n.p50, 1
  FROM (SELECT name FROM b_by UNION SELECT name FROM n_by) u
    LEFT JOIN b_by b ON b.name = u.name LEFT JOIN n_by n ON n.name = u.name;
$(diff_row_sql) FROM r ORDER BY k, abs(nt - bt) DESC, name;
EOF
	} | "$SQLITE3" -readonly -batch -noheader "$1"
}

# diff_gpu_oracle BASE NEW: per GPU (in order of gpuId, as the generated
# files label them) base and new busy time (the union of the op intervals)
# and idle time (the wall, the span of all ops, less busy), "B N BI NI".
diff_gpu_oracle() {
	for f in "$1" "$2"; do
		sql -separator ' ' "$f" "SELECT gpuId, start, \"end\", (SELECT max(\"end\") - min(start) FROM rocpd_op)
			FROM rocpd_op WHERE \"end\" > start ORDER BY gpuId, start" |
			awk 'function flush() { if (n) print gpu, busy + e - s, wall - (busy + e - s) }
			NR == 1 || $1 != gpu { flush(); gpu = $1; n = busy = 0; s = $2; e = $3 }
			{ wall = $4; n++; if ($2 > e) { busy += e - s; s = $2; e = $3 } else if ($3 > e) e = $3 }
			END { flush() }' >"$tmp/gpus.$(basename "$f")"
	done
	join "$tmp/gpus.$(basename "$1")" "$tmp/gpus.$(basename "$2")" | awk '{ print $1, $2, $4, $3, $5 }'
}

# The rows the pane shows for the oracle's CSV (standard input), 100
# columns wide: calls, times in human units, the change in percent with
# one decimal, the status, the name's first 16 characters.
pane_rows() {
	"$SQLITE3" -separator '|' :memory: ".import --csv /dev/stdin t" "SELECT base_calls, new_calls, base_total_ns,
		new_total_ns, delta_ns, delta_percent, status, substr(name, 1, 16) FROM t" |
		awk -F'|' "$awk_units"' {
			pct = $6 == "" ? "-" : sprintf("%+.1f%%", $6)
			printf "%7d %7d %9s %9s %10s %8s  %-7s %s\n", $1, $2, human($3), human($4), ($5 > 0 ? "+" : "") human($5), pct, $7, $8 }'
}
# The rows of a saved diff screen after its header (the total's first),
# the name cut to 16 characters, up to the status line.
screen_rows() {
	sed '$d' "$1" | awk 'on; / STATUS  NAME/ { on = 1 }' | sed 's/ *$//' | grep -v '^$' | cut -c1-81
}
# csv_sorted ORDER: the oracle's CSV in $tmp/want.csv (with its header),
# *total* first, then the names in ORDER (SQL over its columns).
csv_sorted() {
	"$SQLITE3" -csv -header :memory: ".import --csv $tmp/want.csv t" "SELECT * FROM t WHERE name = '*total*'
		UNION ALL SELECT * FROM (SELECT * FROM t WHERE name <> '*total*' ORDER BY $1)"
}
