# SQL oracles for the reports of why the GPU waits (gaps, idle, launch,
# breakdown, categories) over the base tables of an rpd file: rocpd_op,
# rocpd_api, rocpd_api_ops, rocpd_string. Sourced by the tests after
# lib.sh. Each function prints the report's CSV rows (no header) as the
# definitions in the manual give them, computed independently.
#
# Variables: WS, WE (the window [WS, WE), or empty for none), THR (the gap
# threshold, ns), KEEP (an SQL condition on the op's name, the filter),
# LANE (an SQL expression on op naming its lane: the GPU, or per queue
# "GPU qN"),
# WAITS_ROCPD (a rocprofv3 file's table suffix: see waits_rocpd_tables).

# csvq EXPR: EXPR as a CSV field (the oracles print lists, so that the
# quoting is the format's and not sqlite3's own).
csvq() {
	echo "CASE WHEN ($1) GLOB '*[,\"]*' THEN '\"' || replace(($1), '\"', '\"\"') || '\"' ELSE ($1) END"
}

# The op rows in view: o (ops of some duration, clipped to the window:
# cs, ce) and oall (every op the window keeps, for per-op figures).
waits_ops_sql() {
	ws=${WS:-"-9223372036854775807"} we=${WE:-"9223372036854775807"}
	cat <<EOF
CREATE TEMP TABLE oall AS
  SELECT op.id AS id, ${LANE:-op.gpuId} AS gpu, op.start AS start, op.end AS end,
    max(op.start, $ws) AS cs, min(op.end, $we) AS ce,
    CASE WHEN d.string = '' THEN t.string ELSE d.string END AS name,
    CASE WHEN t.string GLOB 'Copy*' THEN 'copy' WHEN t.string GLOB 'Barrier*' THEN 'barrier'
      WHEN d.string = '' THEN 'other' ELSE 'kernel' END AS kind
  FROM rocpd_op op JOIN rocpd_string d ON d.id = op.description_id JOIN rocpd_string t ON t.id = op.opType_id
  WHERE CASE WHEN op.end <= op.start THEN op.start >= $ws AND op.start < $we
    ELSE op.start < $we AND op.end > $ws END;
DELETE FROM oall WHERE NOT (${KEEP:-1});
CREATE TEMP TABLE o AS SELECT * FROM oall WHERE end > start;
CREATE INDEX temp.o_gpu_ce ON o(gpu, ce, start, id);
CREATE INDEX temp.o_id ON o(id);
CREATE TEMP TABLE link AS SELECT op_id, api_id AS api FROM rocpd_api_ops
  WHERE id IN (SELECT max(id) FROM rocpd_api_ops WHERE api_id IN (SELECT id FROM rocpd_api) GROUP BY op_id);
CREATE INDEX temp.link_op ON link(op_id);
CREATE TEMP TABLE graph_call AS SELECT a.id AS id FROM rocpd_api a JOIN rocpd_string n ON n.id = a.apiName_id
  WHERE $waits_graph_name;
CREATE TEMP TABLE r AS SELECT *, max(ce) OVER (PARTITION BY gpu ORDER BY start, id
    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach FROM o;
CREATE TEMP TABLE g AS
  SELECT r.gpu AS gpu, r.reach AS gs, r.cs AS ge, r.id AS after_id,
    (SELECT b.id FROM o b WHERE b.gpu = r.gpu AND b.ce = r.reach ORDER BY b.start, b.id LIMIT 1) AS before_id
  FROM r WHERE r.reach IS NOT NULL AND r.cs > r.reach;
CREATE TEMP TABLE gc AS
  SELECT g.*, CASE WHEN lb.api = la.api AND la.api IN (SELECT id FROM graph_call) THEN 'graph'
      WHEN a.start > g.gs THEN 'host_wait'
      WHEN g.ge - g.gs < $THR THEN 'kernel_wait' ELSE 'other' END AS cause
  FROM g LEFT JOIN link la ON la.op_id = g.after_id LEFT JOIN rocpd_api a ON a.id = la.api
    LEFT JOIN link lb ON lb.op_id = g.before_id;
EOF
}

# A graph launch call's name (n.string): its nodes are a replay's, with
# no launch cost of their own; a gap between two of one replay is 'graph'.
waits_graph_name="(n.string IN ('hipGraphLaunch', 'cudaGraphLaunch', 'cuGraphLaunch')
  OR n.string GLOB 'hipGraphLaunch_*' OR n.string GLOB 'cudaGraphLaunch_*' OR n.string GLOB 'cuGraphLaunch_*')"

# waits_cpu_tables: gt, the gaps of gc with what the launching thread was
# doing at each one's midpoint (the column waits_cpu).
waits_cpu_tables() {
	cat <<EOF
CREATE TEMP TABLE calls AS
  SELECT c.id AS id, c.pid AS pid, c.tid AS tid, c.start AS start, c.end AS end,
    CASE WHEN n.string = 'UserMarker' THEN s.string ELSE n.string END AS name
  FROM rocpd_api c JOIN rocpd_string n ON n.id = c.apiName_id JOIN rocpd_string s ON s.id = c.args_id;
CREATE INDEX temp.calls_start ON calls(pid, tid, start);
CREATE INDEX temp.calls_end ON calls(pid, tid, end);
CREATE TEMP TABLE gt AS
  SELECT gc.*, gc.gs + (gc.ge - gc.gs) / 2 AS mid,
    (SELECT a.pid FROM rocpd_api a WHERE a.id = (SELECT api FROM link WHERE op_id = gc.after_id)) AS tpid,
    (SELECT a.tid FROM rocpd_api a WHERE a.id = (SELECT api FROM link WHERE op_id = gc.after_id)) AS ttid
  FROM gc;
EOF
}
# The innermost call of the thread running at the midpoint, else the one
# it finished last ("after NAME"), else "".
waits_cpu="coalesce(
    (SELECT c.name FROM calls c WHERE c.pid = gt.tpid AND c.tid = gt.ttid AND c.start <= gt.mid AND c.end > gt.mid
      ORDER BY c.start DESC, c.end, c.id LIMIT 1),
    (SELECT 'after ' || c.name FROM calls c WHERE c.pid = gt.tpid AND c.tid = gt.ttid AND c.end <= gt.mid
      ORDER BY c.end DESC, c.start, c.id LIMIT 1), '')"

waits_gaps_sql() {
	waits_ops_sql
	waits_cpu_tables
	cat <<EOF
SELECT gt.gpu, gt.gs, gt.ge, gt.ge - gt.gs, gt.cause,
  $(csvq "(SELECT name FROM o WHERE id = gt.before_id)"), $(csvq "(SELECT name FROM o WHERE id = gt.after_id)"),
  $(csvq "$waits_cpu")
FROM gt ORDER BY gt.ge - gt.gs DESC, gt.gs, gt.gpu;
EOF
}

waits_idle_sql() {
	waits_ops_sql
	if [ -n "${WS:-}" ]; then rs=$WS re=$WE; else
		rs="(SELECT min(start) FROM rocpd_op)" re="(SELECT max(end) FROM rocpd_op)"; fi
	cat <<EOF
SELECT s.gpu, s.span, s.busy, s.span - s.busy, s.first - $rs, $re - s.last,
  (SELECT count(*) FROM gc WHERE gc.gpu = s.gpu),
  (SELECT coalesce(sum(ge - gs), 0) FROM gc WHERE gc.gpu = s.gpu AND cause = 'host_wait'),
  (SELECT coalesce(sum(ge - gs), 0) FROM gc WHERE gc.gpu = s.gpu AND cause = 'kernel_wait'),
  (SELECT coalesce(sum(ge - gs), 0) FROM gc WHERE gc.gpu = s.gpu AND cause = 'other'),
  (SELECT coalesce(max(ge - gs), 0) FROM gc WHERE gc.gpu = s.gpu),
  (SELECT coalesce(sum(ge - gs), 0) FROM gc WHERE gc.gpu = s.gpu AND cause = 'graph')
FROM (SELECT gpu, min(cs) AS first, max(ce) AS last, max(ce) - min(cs) AS span,
    sum(max(0, ce - max(cs, coalesce(reach, cs)))) AS busy FROM r GROUP BY gpu) s
ORDER BY s.gpu;
EOF
}

waits_launch_sql() {
	waits_ops_sql
	cat <<EOF
CREATE TEMP TABLE lat AS
  SELECT o.name AS name, o.start - a.start AS la, o.start - a.end AS qu, a.end - a.start AS cd
  FROM oall o JOIN link ON link.op_id = o.id JOIN rocpd_api a ON a.id = link.api
  WHERE a.id NOT IN (SELECT id FROM graph_call);
CREATE TEMP TABLE lr AS SELECT *, count(*) OVER (PARTITION BY name) AS n,
  row_number() OVER (PARTITION BY name ORDER BY la) AS rl,
  row_number() OVER (PARTITION BY name ORDER BY qu) AS rq FROM lat;
SELECT $(csvq name), count(*),
  max(CASE WHEN rl = (50 * n + 99) / 100 THEN la END), max(CASE WHEN rl = (90 * n + 99) / 100 THEN la END), max(la),
  max(CASE WHEN rq = (50 * n + 99) / 100 THEN qu END), max(CASE WHEN rq = (90 * n + 99) / 100 THEN qu END), max(qu),
  sum(cd) / count(*)
FROM lr GROUP BY name ORDER BY count(*) DESC, name;
EOF
}

# union_len CONDITION: per GPU, the length of the union of the clipped
# intervals of the ops (of some duration) meeting CONDITION.
waits_union() {
	echo "(SELECT gpu, sum(max(0, ce - max(cs, coalesce(reach, cs)))) AS len FROM (SELECT gpu, cs, ce,
	  max(ce) OVER (PARTITION BY gpu ORDER BY start, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach
	  FROM oc WHERE $1) GROUP BY gpu)"
}

# The default communication pattern (caseless), as SQL on name.
waits_comm="(lower(name) LIKE '%nccl%' OR lower(name) LIKE '%rccl%' OR lower(name) LIKE '%allreduce%'
  OR lower(name) LIKE '%reducescatter%' OR lower(name) LIKE '%allgather%' OR lower(name) LIKE '%broadcast%'
  OR lower(name) LIKE '%sendrecv%' OR lower(name) LIKE '%cross_device_reduce%')"

waits_breakdown_sql() {
	waits_ops_sql
	comm=${COMM_SQL:-$waits_comm}
	cat <<EOF
CREATE TEMP TABLE oc AS SELECT *, CASE WHEN kind = 'copy' THEN 'copy'
    WHEN kind = 'kernel' AND $comm THEN 'comm' ELSE 'compute' END AS cls FROM o;
SELECT s.gpu, s.span, coalesce(a.len, 0), coalesce(b.len, 0), coalesce(c.len, 0), s.span - coalesce(abc.len, 0),
  coalesce(ab.len, 0) - coalesce(a.len, 0), coalesce(abc.len, 0) - coalesce(ab.len, 0),
  printf('%.6f', CASE WHEN coalesce(b.len, 0) > 0
    THEN 1.0 * (b.len - (coalesce(ab.len, 0) - coalesce(a.len, 0))) / b.len ELSE 0 END)
FROM (SELECT gpu, max(ce) - min(cs) AS span FROM oc GROUP BY gpu) s
  LEFT JOIN $(waits_union "cls = 'compute'") a ON a.gpu = s.gpu
  LEFT JOIN $(waits_union "cls = 'comm'") b ON b.gpu = s.gpu
  LEFT JOIN $(waits_union "cls = 'copy'") c ON c.gpu = s.gpu
  LEFT JOIN $(waits_union "cls IN ('compute', 'comm')") ab ON ab.gpu = s.gpu
  LEFT JOIN $(waits_union "1") abc ON abc.gpu = s.gpu
ORDER BY s.gpu;
EOF
}

# CATS: an SQL CASE over name giving the category's place and name, in
# order ("1|gemm"); other is the place after the last.
waits_categories_sql() {
	waits_ops_sql
	if [ -n "${WS:-}" ]; then d="max(0, min(end, $WE) - max(start, $WS))"; else d="end - start"; fi
	cat <<EOF
CREATE TEMP TABLE cat(k INTEGER, name TEXT);
INSERT INTO cat VALUES $CAT_ROWS;
CREATE TEMP TABLE kc AS SELECT $CATS AS k, $d AS d FROM oall WHERE kind = 'kernel';
SELECT $(csvq cat.name), count(kc.k), coalesce(sum(kc.d), 0),
  printf('%.6f', CASE WHEN (SELECT sum(d) FROM kc) > 0 THEN 100.0 * coalesce(sum(kc.d), 0) / (SELECT sum(d) FROM kc) ELSE 0 END)
FROM cat LEFT JOIN kc ON kc.k = cat.k GROUP BY cat.k ORDER BY coalesce(sum(kc.d), 0) DESC, cat.k;
EOF
}

# The built-in categories.
waits_default_cats="CASE WHEN $waits_comm THEN 0
  WHEN lower(name) LIKE '%cijk\\_%' ESCAPE '\\' OR lower(name) LIKE '%gemm%' OR lower(name) LIKE '%matmul%' THEN 1
  WHEN lower(name) LIKE '%attention%' OR lower(name) LIKE '%attn%' OR lower(name) LIKE '%flash%' OR lower(name) LIKE '%paged%' THEN 2
  WHEN lower(name) LIKE '%norm%' THEN 3 WHEN lower(name) LIKE '%elementwise%' THEN 4 ELSE 5 END"
waits_default_cat_rows="(0, 'communication'), (1, 'gemm'), (2, 'attention'), (3, 'norm'), (4, 'elementwise'), (5, 'other')"

# waits_compare WHAT REPORT DB [RPDTOP-ARGS...]: the report's CSV rows equal
# the oracle's (waits_REPORT_sql) over DB.
waits_compare() {
	w_what=$1 w_report=$2 w_db=$3
	shift 3
	{
		[ -z "${WAITS_ROCPD:-}" ] || waits_rocpd_tables "$WAITS_ROCPD"
		"waits_${w_report}_sql"
	} >"$tmp/oracle.sql"
	sql -list -separator , "$w_db" <"$tmp/oracle.sql" >"$tmp/want" 2>"$tmp/sql.err" || { fail "$w_what: SQL failed"; cat "$tmp/sql.err" >&2; }
	"$RPDTOP" --raw-names -r "$w_report" -f csv "$@" "$w_db" | tail -n +2 >"$tmp/got"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then pass "$w_what: $w_report equals SQL ($(wc -l <"$tmp/got") rows)"; else
		fail "$w_what: $w_report differs from SQL"; diff "$tmp/want" "$tmp/got" | head -20 >&2; fi
}

# waits_rocpd_tables SUFFIX: for a rocprofv3 file, temporary tables named
# as the rpd base tables (they hide the file's own names), made from its
# suffixed tables as the manual says rpdtop reads them: kernels named
# without .kd, copies by direction on the GPU they go to (from, for
# device-to-host), roctx ranges as UserMarker with their message, and ops
# linked to the call of the same stack id.
waits_rocpd_tables() {
	s=$1
	cat <<EOF
CREATE TEMP TABLE k0 AS
  SELECT K.id AS id, A.type_index AS gpu, K.start AS start, K.end AS end,
    CASE WHEN substr(Y.kernel_name, -3) = '.kd' THEN substr(Y.kernel_name, 1, length(Y.kernel_name) - 3)
      ELSE Y.kernel_name END AS descr, 'KernelExecution' AS type, E.stack_id AS stack
  FROM "rocpd_kernel_dispatch$s" K JOIN "rocpd_info_agent$s" A ON A.id = K.agent_id
    JOIN "rocpd_info_kernel_symbol$s" Y ON Y.id = K.kernel_id LEFT JOIN "rocpd_event$s" E ON E.id = K.event_id
  UNION ALL
  SELECT 281474976710656 + M.id, CASE WHEN D.type = 'GPU' THEN D.type_index ELSE F.type_index END, M.start, M.end, '',
    CASE N.string WHEN 'MEMORY_COPY_HOST_TO_DEVICE' THEN 'CopyHostToDevice' WHEN 'MEMORY_COPY_DEVICE_TO_HOST'
      THEN 'CopyDeviceToHost' ELSE 'CopyDeviceToDevice' END, E.stack_id
  FROM "rocpd_memory_copy$s" M JOIN "rocpd_info_agent$s" F ON F.id = M.src_agent_id
    JOIN "rocpd_info_agent$s" D ON D.id = M.dst_agent_id JOIN "rocpd_string$s" N ON N.id = M.name_id
    LEFT JOIN "rocpd_event$s" E ON E.id = M.event_id
  WHERE F.type = 'GPU' OR D.type = 'GPU';
CREATE TEMP TABLE a0 AS
  SELECT R.id AS id, P.pid AS pid, T.tid AS tid, R.start AS start, R.end AS end, E.stack_id AS stack,
    CASE WHEN C.string LIKE 'MARKER%' OR N.string IN ('roctxThreadRangeA', 'roctxProcessRangeA', 'roctxMarkA')
      THEN 1 ELSE 0 END AS marker, N.string AS name,
    coalesce(json_extract(E.extdata, '\$.message'), N.string) AS message
  FROM "rocpd_region$s" R JOIN "rocpd_info_process$s" P ON P.id = R.pid JOIN "rocpd_info_thread$s" T ON T.id = R.tid
    LEFT JOIN "rocpd_event$s" E ON E.id = R.event_id LEFT JOIN "rocpd_string$s" C ON C.id = E.category_id
    LEFT JOIN "rocpd_string$s" N ON N.id = R.name_id;
CREATE TEMP TABLE rocpd_string(id INTEGER PRIMARY KEY, string TEXT UNIQUE);
INSERT OR IGNORE INTO rocpd_string(string) SELECT descr FROM k0 UNION SELECT type FROM k0 UNION SELECT 'UserMarker'
  UNION SELECT name FROM a0 UNION SELECT message FROM a0 UNION SELECT '';
CREATE TEMP TABLE rocpd_op AS
  SELECT k0.id AS id, gpu AS gpuId, start, end, d.id AS description_id, t.id AS opType_id
  FROM k0 JOIN rocpd_string d ON d.string = k0.descr JOIN rocpd_string t ON t.string = k0.type;
CREATE TEMP TABLE rocpd_api AS
  SELECT a0.id AS id, pid, tid, start, end, n.id AS apiName_id, g.id AS args_id
  FROM a0 JOIN rocpd_string n ON n.string = CASE WHEN marker THEN 'UserMarker' ELSE a0.name END
    JOIN rocpd_string g ON g.string = CASE WHEN marker THEN message ELSE '' END;
CREATE TEMP TABLE rocpd_api_ops AS
  SELECT k0.id AS id, (SELECT max(a0.id) FROM a0 WHERE a0.stack = k0.stack AND NOT a0.marker) AS api_id, k0.id AS op_id
  FROM k0 WHERE k0.stack <> 0 AND EXISTS (SELECT 1 FROM a0 WHERE a0.stack = k0.stack AND NOT a0.marker);
EOF
}

# waits_graphs_sql: the graphs report's rows. A replay is one graph launch
# call's ops (an op's launch: its last link, as in link above); the graph is the call's graphExec argument, else its name.
# Launch: the call's start to the replay's first op; duration: first op
# start to last op end; GPU time: the union of its ops (each op adds what
# lies beyond the furthest end of those that started before it). Medians
# are nearest-rank: the value at rank ceil(n / 2).
waits_graphs_sql() {
	cat <<EOF
WITH n AS (
  SELECT a.id AS call, a.start AS cs, nm.string AS cname, ar.string AS args, o.start AS s, o.end AS e, o.id AS op
  FROM rocpd_api a JOIN rocpd_string nm ON nm.id = a.apiName_id
  JOIN rocpd_string ar ON ar.id = a.args_id
  JOIN rocpd_api_ops ao ON ao.api_id = a.id JOIN rocpd_op o ON o.id = ao.op_id
  WHERE ao.id IN (SELECT max(id) FROM rocpd_api_ops GROUP BY op_id) AND $(echo "$waits_graph_name" | sed 's/n\.string/nm.string/g')),
r AS (SELECT *,
  max(e) OVER (PARTITION BY call ORDER BY s, op ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach
  FROM n),
p AS (SELECT call,
  CASE WHEN instr(min(args), 'graphExec = ') > 0 THEN
    substr(min(args), instr(min(args), 'graphExec = ') + 12,
      instr(substr(min(args), instr(min(args), 'graphExec = ') + 12) || ' ', ' ') - 1)
    ELSE min(cname) END AS graph,
  count(*) AS ops, min(s) - min(cs) AS launch, max(e) - min(s) AS dur,
  sum(max(0, e - max(s, coalesce(reach, s)))) AS gpu
  FROM r GROUP BY call),
l AS (SELECT graph, launch, row_number() OVER (PARTITION BY graph ORDER BY launch) AS k FROM p),
d AS (SELECT graph, dur, row_number() OVER (PARTITION BY graph ORDER BY dur) AS k FROM p),
c AS (SELECT graph, count(*) AS m FROM p GROUP BY graph)
SELECT p.graph, count(*), max(ops), sum(ops),
  (SELECT launch FROM l WHERE l.graph = p.graph AND k = (c.m + 1) / 2),
  (SELECT dur FROM d WHERE d.graph = p.graph AND k = (c.m + 1) / 2),
  max(dur), sum(gpu), printf('%.6f', 100.0 * sum(gpu) / sum(dur)), sum(dur) - sum(gpu)
FROM p JOIN c ON c.graph = p.graph GROUP BY p.graph ORDER BY sum(gpu) DESC, p.graph;
EOF
}
