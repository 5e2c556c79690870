# An oracle of the variability columns of top and ktop (std_ns, p50_ns,
# p90_ns, p99_ns, var_ns, outliers) over rocpd_op, computed apart from
# rpdtop: SQL lists each name's durations, awk sums them up. Sourced by
# the tests after lib.sh.

# The ops' names and durations, by total descending, name, duration (the
# report's row order). SCOPE: an SQL condition on t (opType) and d
# (description); KEEP: one on the name.
variability_durations_sql() {
	cat <<EOF2
WITH o AS (SELECT CASE WHEN d.string = '' THEN t.string ELSE d.string END AS name, op.end - op.start AS dur
  FROM rocpd_op op JOIN rocpd_string d ON d.id = op.description_id JOIN rocpd_string t ON t.id = op.opType_id
  WHERE ${SCOPE:-1}),
k AS (SELECT * FROM o WHERE ${KEEP:-1}),
g AS (SELECT name, sum(dur) AS total FROM k GROUP BY name)
SELECT g.total, k.dur, hex(k.name) FROM k JOIN g USING (name) ORDER BY g.total DESC, k.name, k.dur
EOF2
}

# variability_oracle Z: from "total dur name" lines in row order, each
# name's calls,total_ns,avg_ns,min_ns,max_ns,std_ns,p50_ns,p90_ns,p99_ns,
# var_ns and, with Z > 0, outliers: population std dev, nearest-rank
# percentiles, var = sum(dur - min), over the instances whose |z| (over
# all of the name's) is at most Z; calls and total over all of them.
variability_oracle() {
	awk -v z="$1" '
	function rank(p, n) { r = int((p * n + 99) / 100); return r < 1 ? 1 : r }
	function flush() {
		if (!n) return
		s = 0; for (i = 1; i <= n; i++) s += d[i]
		m = s / n; ss = 0; for (i = 1; i <= n; i++) ss += (d[i] - m) ^ 2
		sd = sqrt(ss / n)
		k = 0; ks = 0
		for (i = 1; i <= n; i++) {
			dev = d[i] - m; if (dev < 0) dev = -dev
			if (z > 0 && sd > 0 && dev > z * sd) continue
			e[++k] = d[i]; ks += d[i]
		}
		km = ks / k; kss = 0; v = 0
		for (i = 1; i <= k; i++) { kss += (e[i] - km) ^ 2; v += e[i] - e[1] }
		line = n "," s "," int(ks / k) "," e[1] "," e[k] "," int(sqrt(kss / k) + 0.5) "," \
			e[rank(50, k)] "," e[rank(90, k)] "," e[rank(99, k)] "," v
		if (z > 0) line = line "," (n - k)
		print line
		n = 0
	}
	$3 != name { flush(); name = $3 }
	{ d[++n] = $2 }
	END { flush() }'
}

# variability_got Z: the same columns cut from rpdtop's CSV on stdin
# (counted from the end: names may hold commas).
variability_got() {
	awk -F, -v z="$1" 'NR > 1 {
		o = z > 0 ? 1 : 0; b = NF - 12 - o
		line = $(b + 1) "," $(b + 2) "," $(b + 3) "," $(b + 4) "," $(b + 5)
		for (i = b + 7; i <= b + 11; i++) line = line "," $i
		if (o) line = line "," $(b + 12)
		print line
	}'
}
