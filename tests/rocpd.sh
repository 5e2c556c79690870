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
# The ops of the profile: the GPU ops and the copies between host agents,
# which are no GPU's work (no busy time, no lane) but top lists them as
# CopyHostToHost, whatever their operation's name.
profile_ops() {
	gpu_ops
	echo "UNION ALL
	SELECT NULL, M.start, M.end, 'CopyHostToHost', 0
	FROM rocpd_memory_copy\$S M LEFT JOIN rocpd_info_agent\$S D ON D.id = M.dst_agent_id
	LEFT JOIN rocpd_info_agent\$S F ON F.id = M.src_agent_id
	WHERE coalesce(D.type, '') <> 'GPU' AND coalesce(F.type, '') <> 'GPU'"
}
# top_sql FILE [kernels]: the flat profile (or with kernels, ktop) of
# FILE, as CSV rows: name, calls, total, average, min, max, percent.
top_sql() {
	w=1
	[ "${2:-}" = kernels ] && w=kernel
	echo "WITH ops AS ($(union "$(profile_ops)" "$1")), k AS (SELECT * FROM ops WHERE $w)
	SELECT name, count(*), sum(end - start), sum(end - start) / count(*), min(end - start), max(end - start),
	  printf('%.6f', 100.0 * sum(end - start) / (SELECT sum(end - start) FROM k))
	FROM k GROUP BY name ORDER BY 3 DESC, name"
}
# want_top FILE...: the top report's rows over all FILEs (the same names
# summed), from SQL over each.
want_top() {
	for f; do
		sql -separator '|' "$f" "WITH ops AS ($(union "$(profile_ops)" "$f")) SELECT name, end - start FROM ops"
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
# add_host_copies FILE N: into each process of FILE, N host-to-host copies
# as rocprofiler-sdk's writer records one: a hipMemcpy region and its
# copy, whose events share a stack id (the copy's category MEMORY_COPY),
# named MEMORY_COPY_HOST_TO_HOST, between host agents, on a stream; the
# last ends after every GPU op.
add_host_copies() {
	for s in $(suffixes "$1"); do
		"$SQLITE3" "$1" "
INSERT INTO rocpd_string$s(string) SELECT x FROM (SELECT 'MEMORY_COPY_HOST_TO_HOST' AS x UNION ALL SELECT 'hipMemcpy'
  UNION ALL SELECT 'MEMORY_COPY') WHERE x NOT IN (SELECT string FROM rocpd_string$s);
CREATE TEMP TABLE hc AS WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < $2)
  SELECT i, CASE WHEN i = $2 THEN (SELECT max(e) FROM (SELECT \"end\" AS e FROM rocpd_kernel_dispatch$s
      UNION ALL SELECT \"end\" FROM rocpd_memory_copy$s)) + 5000
    ELSE (SELECT min(start) FROM rocpd_kernel_dispatch$s) + i * 100000 END AS start,
    20000 + i * 7001 AS dur,
    (SELECT max(id) FROM rocpd_event$s) + 2 * i - 1 AS call_event,
    (SELECT max(id) FROM rocpd_event$s) + 2 * i AS copy_event,
    (SELECT max(stack_id) FROM rocpd_event$s) + i AS stack
  FROM k;
INSERT INTO rocpd_event$s(id, category_id, stack_id, parent_stack_id, correlation_id)
  SELECT call_event, (SELECT E.category_id FROM rocpd_region$s R JOIN rocpd_event$s E ON E.id = R.event_id
    JOIN rocpd_string$s N ON N.id = R.name_id WHERE N.string LIKE 'hipMemcpy%' LIMIT 1), stack, stack, 0 FROM hc;
INSERT INTO rocpd_event$s(id, category_id, stack_id, parent_stack_id, correlation_id)
  SELECT copy_event, (SELECT id FROM rocpd_string$s WHERE string = 'MEMORY_COPY'), stack, stack, 0 FROM hc;
INSERT INTO rocpd_region$s(nid, pid, tid, start, \"end\", name_id, event_id)
  SELECT C.nid, C.pid, C.tid, start - 3000, start + dur + 1000, (SELECT id FROM rocpd_string$s WHERE string = 'hipMemcpy'), call_event
  FROM hc, (SELECT nid, pid, tid FROM rocpd_memory_copy$s WHERE tid IS NOT NULL ORDER BY id LIMIT 1) C;
INSERT INTO rocpd_memory_copy$s(nid, pid, tid, start, \"end\", name_id, dst_agent_id, dst_address, src_agent_id, src_address,
    size, queue_id, stream_id, event_id)
  SELECT C.nid, C.pid, C.tid, start, start + dur, (SELECT id FROM rocpd_string$s WHERE string = 'MEMORY_COPY_HOST_TO_HOST'),
    A.id, 140000000000000 + i * 1048576, A.id, 150000000000000, 1048576 * i, NULL, C.stream_id, copy_event
  FROM hc, (SELECT nid, pid, tid, stream_id FROM rocpd_memory_copy$s WHERE tid IS NOT NULL ORDER BY id LIMIT 1) C,
    (SELECT min(id) AS id FROM rocpd_info_agent$s WHERE type = 'CPU') A;" || return 1
	done
}
