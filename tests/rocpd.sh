# SQL oracles over rocpd files (rpdgen --format=rocpd or rocprofv3's):
# a file's processes each have their own suffixed tables. Sourced by the
# tests after lib.sh.

# The tables' suffixes of a file's processes, in the file's order.
suffixes() {
	sql "$1" "SELECT substr(name, 22) FROM sqlite_master WHERE type = 'table' AND name LIKE 'rocpd\_kernel\_dispatch\_%' ESCAPE '\\' ORDER BY rowid"
}
# union SELECT FILE: SELECT, with S standing for a suffix, over every
# process of FILE (UNION ALL).
union() {
	for s in $(suffixes "$2"); do
		echo "$1" | sed "s/\\\$S/$s/g"
		echo "UNION ALL"
	done | sed '$d'
}
# A kernel's name (its symbol Y): the symbol without ".kd", or the
# display name when the symbol is empty.
kname="CASE WHEN Y.kernel_name = '' THEN Y.display_name WHEN substr(Y.kernel_name, -3) = '.kd'
	THEN substr(Y.kernel_name, 1, length(Y.kernel_name) - 3) ELSE Y.kernel_name END"
# The GPU ops of a file: "gpu|start|end|name|kernel". A kernel is named
# as above, a copy by its direction; a copy between host agents is none.
# A GPU is the agent's index among the node's GPUs.
gpu_ops() {
	echo "SELECT coalesce(A.type_index, A.logical_index) AS gpu, K.start, K.end, $kname AS name, 1 AS kernel
	FROM rocpd_kernel_dispatch\$S K JOIN rocpd_info_kernel_symbol\$S Y ON Y.id = K.kernel_id
	JOIN rocpd_info_agent\$S A ON A.id = K.agent_id
	UNION ALL
	SELECT coalesce(CASE WHEN D.type = 'GPU' THEN coalesce(D.type_index, D.logical_index) END, coalesce(F.type_index, F.logical_index)),
	  M.start, M.end, CASE N.string WHEN 'MEMORY_COPY_HOST_TO_DEVICE' THEN 'CopyHostToDevice'
	    WHEN 'MEMORY_COPY_DEVICE_TO_HOST' THEN 'CopyDeviceToHost' ELSE 'CopyDeviceToDevice' END, 0
	FROM rocpd_memory_copy\$S M JOIN rocpd_string\$S N ON N.id = M.name_id
	JOIN rocpd_info_agent\$S D ON D.id = M.dst_agent_id JOIN rocpd_info_agent\$S F ON F.id = M.src_agent_id
	WHERE D.type = 'GPU' OR F.type = 'GPU'"
}
# top_sql FILE [kernels]: the flat profile (or with kernels, ktop) of
# FILE, as CSV rows: name, calls, total, average, min, max, percent.
top_sql() {
	w=1
	[ "${2:-}" = kernels ] && w=kernel
	echo "WITH ops AS ($(union "$(gpu_ops)" "$1")), k AS (SELECT * FROM ops WHERE $w)
	SELECT name, count(*), sum(end - start), sum(end - start) / count(*), min(end - start), max(end - start),
	  printf('%.6f', 100.0 * sum(end - start) / (SELECT sum(end - start) FROM k))
	FROM k GROUP BY name ORDER BY 3 DESC, name"
}
# want_top FILE...: the top report's rows over all FILEs (the same names
# summed), from SQL over each.
want_top() {
	for f; do
		sql -separator '|' "$f" "WITH ops AS ($(union "$(gpu_ops)" "$f")) SELECT name, end - start FROM ops"
	done | awk -F'|' '
	{ if (!($1 in n)) { n[$1] = 0; lo[$1] = $2; hi[$1] = $2 }
		n[$1]++; sum[$1] += $2; all += $2; if ($2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2 }
	END { for (k in n) { q = k; if (q ~ /[",]/) { gsub(/"/, "\"\"", q); q = "\"" q "\"" }
		printf "%.0f\t%s\t%s,%d,%.0f,%d,%d,%d,%.6f\n", sum[k], k, q, n[k], sum[k], int(sum[k] / n[k]), lo[k], hi[k], 100 * sum[k] / all } }' |
		sort -t "$(printf '\t')" -k1,1nr -k2,2 | cut -f3
}
# want_busy_of FILE...: the busy report's rows: per GPU its ops, their
# summed time, the union of their intervals, the wall time (the span of
# all GPU ops) and the busy share, from SQL over each FILE.
want_busy_of() {
	for f; do
		sql -separator ' ' "$f" "WITH ops AS ($(union "$(gpu_ops)" "$f")) SELECT gpu, start, end FROM ops"
	done | sort -k1,1n -k2,2n | awk '
	function flush() { if (n) { busy += e - s; row[++rows] = gpu "," n "," sum "," busy } }
	NR == 1 || $1 != gpu { flush(); gpu = $1; n = sum = busy = 0; s = $2; e = $3 }
	NR == 1 || $2 < first { first = $2 } NR == 1 || $3 > last { last = $3 }
	{ n++; sum += $3 - $2; if ($2 > e) { busy += e - s; s = $2; e = $3 } else if ($3 > e) e = $3 }
	END { flush(); for (i = 1; i <= rows; i++) { split(row[i], f, ",")
		printf "%s,%d,%d,%d,%d,%.6f\n", f[1], f[2], f[3], f[4], last - first, 100 * f[4] / (last - first) } }'
}
