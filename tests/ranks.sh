# An SQL oracle of the ranks report over rpd files (rocpd_op, rocpd_string),
# apart from rpdtop. Sourced by the tests after lib.sh.

# ranks_db OUT FILE...: a database OUT with the table ops(rank, file, id,
# gpu, start, end, name, kernel) of every FILE's ops (rank: its number in
# the order given).
ranks_db() {
	out=$1
	shift
	"$SQLITE3" "$out" "CREATE TABLE ops (rank, file, id, gpu, start, end, name, kernel)" || return 1
	k=0
	for f; do
		"$SQLITE3" "$out" "ATTACH '$f' AS r; INSERT INTO ops SELECT $k, '$(basename "$f")', o.id, o.gpuId, o.start, o.end,
			CASE WHEN d.string = '' THEN t.string ELSE d.string END,
			NOT (t.string GLOB 'Copy*' OR t.string GLOB 'Barrier*' OR d.string = '')
			FROM r.rocpd_op o JOIN r.rocpd_string d ON d.id = o.description_id JOIN r.rocpd_string t ON t.id = o.opType_id" || return 1
		k=$((k + 1))
	done
}

# ranks_sql COMM NRANKS: the report's rows (input,node,gpus,ops,gpu_ns,
# busy_ns,span_ns,first_ns,last_ns,comm_ns,comm_wait_ns,rank) by rank, as the
# manual defines them; COMM an SQL condition on name (the communication
# kernels).
ranks_sql() {
	cat <<EOF
WITH u AS (SELECT rank, gpu, start, end,
    max(end) OVER (PARTITION BY rank, gpu ORDER BY start, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach FROM ops),
b AS (SELECT rank, sum(max(0, end - max(start, coalesce(reach, start)))) AS busy FROM u GROUP BY rank),
c AS (SELECT rank, name, id, start, end, row_number() OVER (PARTITION BY rank, name ORDER BY start, id) AS i,
    count(*) OVER (PARTITION BY rank, name) AS cnt FROM ops WHERE kernel AND ($1)),
m AS (SELECT name FROM c GROUP BY name HAVING count(DISTINCT rank) = $2 AND min(cnt) = max(cnt) AND $2 > 1),
l AS (SELECT name, i, max(start) AS latest FROM c WHERE name IN (SELECT name FROM m) GROUP BY name, i),
w AS (SELECT rank, sum(max(0, min(latest - start, end - start))) AS wait FROM c JOIN l USING (name, i) GROUP BY rank)
SELECT o.file, NULL, count(DISTINCT o.gpu), count(*), sum(o.end - o.start), b.busy, max(o.end) - min(o.start), min(o.start), max(o.end),
  coalesce(sum(CASE WHEN o.kernel AND ($1) THEN o.end - o.start END), 0), coalesce(w.wait, 0),
  NULL -- rank: rpd files do not name theirs
FROM ops o JOIN b USING (rank) LEFT JOIN w USING (rank) GROUP BY o.rank ORDER BY o.rank
EOF
}

# ranks_waited_sql COMM NRANKS: per rank, the waits of the others for its
# instances (the rank whose instance started latest; at equal starts the
# first rank), largest first.
ranks_waited_sql() {
	cat <<EOF
WITH c AS (SELECT rank, file, name, id, start, end, row_number() OVER (PARTITION BY rank, name ORDER BY start, id) AS i,
    count(*) OVER (PARTITION BY rank, name) AS cnt FROM ops WHERE kernel AND ($1)),
m AS (SELECT name FROM c GROUP BY name HAVING count(DISTINCT rank) = $2 AND min(cnt) = max(cnt) AND $2 > 1),
l AS (SELECT name, i, max(start) AS latest, (SELECT c2.file FROM c c2 WHERE c2.name = c.name AND c2.i = c.i ORDER BY c2.start DESC, c2.rank LIMIT 1) AS late
  FROM c WHERE name IN (SELECT name FROM m) GROUP BY name, i)
SELECT late, sum(max(0, min(latest - start, end - start))) AS waited FROM c JOIN l USING (name, i) GROUP BY late ORDER BY waited DESC LIMIT 1
EOF
}
