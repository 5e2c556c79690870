# SQL oracles for the findings (-r findings) over the base tables of an rpd
# file, as the manual's FINDINGS states each rule; sourced after lib.sh and
# waits.sh (whose tables gc, the gaps with their causes, and r, the ops of
# each GPU, they read). Each prints the finding rows of one rule as CSV,
# without rank and evidence:
# id,time_ns,share_percent,count,gpu,input,name,start_ns,end_ns
#
# Variables: those of waits.sh; HOST_WAIT_PCT (default 5).

# host-wait: per GPU, its host-wait gaps over its span.
findings_host_wait_sql() {
	waits_ops_sql
	cat <<EOF
CREATE TEMP TABLE span AS SELECT gpu, max(ce) - min(cs) AS span FROM r GROUP BY gpu;
CREATE TEMP TABLE hw AS SELECT gpu, sum(ge - gs) AS t, count(*) AS n FROM gc WHERE cause = 'host_wait' GROUP BY gpu;
SELECT 'host-wait', hw.t, printf('%.6f', 100.0 * hw.t / s.span), hw.n, hw.gpu, '', '',
  (SELECT gs FROM gc WHERE gc.gpu = hw.gpu AND cause = 'host_wait' ORDER BY ge - gs DESC, gs LIMIT 1),
  (SELECT ge FROM gc WHERE gc.gpu = hw.gpu AND cause = 'host_wait' ORDER BY ge - gs DESC, gs LIMIT 1)
FROM hw JOIN span s ON s.gpu = hw.gpu
WHERE 100.0 * hw.t / s.span >= ${HOST_WAIT_PCT:-5}
ORDER BY hw.t DESC, hw.gpu;
EOF
}

# findings_compare WHAT RULE DB [OPTION...]: the rule's rows of -r findings
# (CSV, without rank and evidence) equal its oracle's.
findings_compare() {
	f_what=$1 f_rule=$2 f_db=$3
	shift 3
	f_fn=findings_$(echo "$f_rule" | tr - _)
	if command -v "${f_fn}_rows" >/dev/null 2>&1; then
		"${f_fn}_rows" "$f_db" >"$tmp/want"
	else
		"${f_fn}_sql" >"$tmp/oracle.sql"
		sql -list -separator , "$f_db" <"$tmp/oracle.sql" >"$tmp/want" 2>"$tmp/sql.err" || { fail "$f_what: SQL failed"; cat "$tmp/sql.err" >&2; }
	fi
	"$RPDTOP" --raw-names -r findings -f csv "$@" "$f_db" | python3 -c '
import csv, sys
w = csv.writer(sys.stdout, lineterminator="\n")
for row in list(csv.reader(sys.stdin))[1:]:
    if row[1] == sys.argv[1]:
        w.writerow(row[1:10])' "$f_rule" >"$tmp/got"
	if cmp -s "$tmp/want" "$tmp/got"; then pass "$f_what: $f_rule equals SQL ($(wc -l <"$tmp/got") rows)"; else
		fail "$f_what: $f_rule differs from SQL"; diff "$tmp/want" "$tmp/got" | head -20 >&2; fi
}

# outlier: per GPU and kernel name, whole durations; outliers have a
# z-score above Z (population standard deviation) and a duration above
# RATIO times the median (nearest rank); their excess over the median,
# over the GPU's time in view (clipped durations).
findings_outlier_sql() {
	waits_ops_sql
	cat <<EOF
CREATE TEMP TABLE k AS SELECT gpu, name, id, end - start AS d FROM oall WHERE kind = 'kernel';
CREATE TEMP TABLE ks AS SELECT gpu, name, count(*) AS n, avg(d) AS mean FROM k GROUP BY gpu, name;
CREATE TEMP TABLE kr AS SELECT gpu, name, d, row_number() OVER (PARTITION BY gpu, name ORDER BY d) AS rn FROM k;
CREATE TEMP TABLE kv AS SELECT ks.gpu, ks.name, ks.n, ks.mean,
    (SELECT sum((k.d - ks.mean) * (k.d - ks.mean)) FROM k WHERE k.gpu = ks.gpu AND k.name = ks.name) / ks.n AS var,
    (SELECT d FROM kr WHERE kr.gpu = ks.gpu AND kr.name = ks.name AND kr.rn = (ks.n + 1) / 2) AS med
  FROM ks;
CREATE TEMP TABLE gt AS SELECT gpu, sum(max(ce - cs, 0)) AS t FROM oall GROUP BY gpu;
CREATE TEMP TABLE ol AS SELECT k.*, kv.med AS med, kv.n AS n FROM k JOIN kv ON kv.gpu = k.gpu AND kv.name = k.name
  WHERE kv.var > 0 AND k.d > kv.mean AND (k.d - kv.mean) * (k.d - kv.mean) > ${OUTLIER_Z:-3} * ${OUTLIER_Z:-3} * kv.var
    AND k.d > ${OUTLIER_RATIO:-2} * kv.med;
CREATE TEMP TABLE og AS SELECT gpu, name, sum(d - med) AS x, count(*) AS c FROM ol GROUP BY gpu, name;
SELECT 'outlier', og.x, printf('%.6f', 100.0 * og.x / gt.t), og.c, og.gpu, '', $(csvq og.name),
  (SELECT o.start FROM oall o JOIN k ON k.id = o.id WHERE k.gpu = og.gpu AND k.name = og.name ORDER BY k.d DESC, k.id DESC LIMIT 1),
  (SELECT o.end FROM oall o JOIN k ON k.id = o.id WHERE k.gpu = og.gpu AND k.name = og.name ORDER BY k.d DESC, k.id DESC LIMIT 1)
FROM og JOIN gt ON gt.gpu = og.gpu
WHERE 100.0 * og.x / gt.t >= ${OUTLIER_PCT:-0.5}
ORDER BY og.x DESC, og.gpu;
EOF
}

# imbalance (one input, no window): each GPU's busy (the union of its ops
# in view) over the wall (every op's span, the filter or not); when the
# highest share and the lowest are POINTS apart or more, the busiest's
# busy minus each's, summed, over the walls summed.
findings_imbalance_sql() {
	waits_ops_sql
	cat <<EOF
CREATE TEMP TABLE wall AS SELECT max(end) - min(start) AS w FROM rocpd_op;
CREATE TEMP TABLE bz AS SELECT gpu, sum(max(0, ce - max(cs, coalesce(reach, cs)))) AS busy FROM r GROUP BY gpu;
CREATE TEMP TABLE hl AS SELECT max(busy) AS hi, min(busy) AS lo, count(*) AS n FROM bz;
SELECT 'imbalance', (SELECT sum(hl.hi - busy) FROM bz),
  printf('%.6f', 100.0 * (SELECT sum(hl.hi - busy) FROM bz) / (hl.n * wall.w)), hl.n, '', '', '',
  (SELECT min(start) FROM rocpd_op), (SELECT max(end) FROM rocpd_op)
FROM hl, wall WHERE hl.n > 1 AND 100.0 * (hl.hi - hl.lo) / wall.w >= ${IMBALANCE_POINTS:-10};
EOF
}

# exposed-comm, from the breakdown's oracle (waits.sh): per GPU, exposed
# communication over its span, its communication kernels counted, its
# worst instance the GPU's span.
findings_exposed_comm_rows() {
	db=$1
	waits_breakdown_sql >"$tmp/bd.sql"
	sql -list -separator , "$db" <"$tmp/bd.sql" >"$tmp/bd"
	comm=${COMM_SQL:-$waits_comm}
	{
		waits_ops_sql
		echo "SELECT gpu, (SELECT count(*) FROM oall x WHERE x.gpu = o.gpu AND x.kind = 'kernel' AND $comm), min(cs), max(ce) FROM o GROUP BY gpu ORDER BY gpu;"
	} >"$tmp/cc.sql"
	sql -list -separator , "$db" <"$tmp/cc.sql" >"$tmp/cc"
	join -t, "$tmp/bd" "$tmp/cc" | awk -F, -v pct="${EXPOSED_COMM_PCT:-5}" '
		$4 > 0 && 100.0 * $7 / $2 >= pct { printf "exposed-comm,%s,%.6f,%s,%s,,,%s,%s\n", $7, 100.0 * $7 / $2, $10, $1, $11, $12 }' |
		sort -t, -k2,2nr -k5,5n
}

# straggler, over ranks_db's table ops (tests/ranks.sh) of NRANKS inputs
# in directory DIR: the rank the others waited for most, when their waits
# are STRAGGLER_PCT (5) percent or more of the other ranks' communication;
# share of the run's span, count the instances matched per rank.
findings_straggler_rows_of() {
	db=$1 comm=$2 nranks=$3 dir=$4
	late=$(sql "$db" "$(ranks_waited_sql "$comm" "$nranks")")
	[ -n "$late" ] || return 0
	file=${late%%|*} waited=${late#*|}
	sql -list -separator , "$db" "WITH c AS (SELECT rank, name, count(*) AS cnt FROM ops WHERE kernel AND ($comm) GROUP BY rank, name),
	  m AS (SELECT name, min(cnt) AS cnt FROM c GROUP BY name HAVING count(*) = $nranks AND min(cnt) = max(cnt))
	SELECT 'straggler', $waited, printf('%.6f', 100.0 * $waited / (SELECT max(end) - min(start) FROM ops)),
	  (SELECT coalesce(sum(cnt), 0) FROM m), '', '$dir/$file', '',
	  (SELECT min(start) FROM ops WHERE file = '$file'), (SELECT max(end) FROM ops WHERE file = '$file')
	WHERE 100.0 * $waited >= ${STRAGGLER_PCT:-5} *
	  (SELECT sum(end - start) FROM ops WHERE kernel AND ($comm) AND file <> '$file')"
}

# slow-step and warmup (with tests/cpu.sh sourced): the steps (STEP: an SQL
# condition on a marker's text) in view, numbered in time order over all;
# the median of their durations but the first step's (nearest rank);
# slow-step every other step longer than SLOW_STEP_RATIO (1.2) times it,
# warmup the first when longer than WARMUP_RATIO (1.5) times it; shares of
# the run's span (every op's, or the window).
findings_steps_sql() {
	cpu_calls_sql
	if [ -n "${WS:-}" ]; then rs=$WS re=$WE; else
		rs="(SELECT min(start) FROM rocpd_op)" re="(SELECT max(end) FROM rocpd_op)"; fi
	cat <<EOF
CREATE TEMP TABLE st AS SELECT * FROM (SELECT id, name, start, end, end - start AS d,
    row_number() OVER (ORDER BY start, end DESC, id) AS n FROM c WHERE marker AND ($STEP))
  WHERE id IN (SELECT id FROM kept);
CREATE TEMP TABLE sm AS SELECT d, row_number() OVER (ORDER BY d) AS rn FROM st WHERE n <> 1;
CREATE TEMP TABLE med AS SELECT d AS m FROM sm WHERE rn = ((SELECT count(*) FROM sm) + 1) / 2;
EOF
}

findings_slow_step_sql() {
	findings_steps_sql
	cat <<EOF
SELECT 'slow-step', d - m, printf('%.6f', 100.0 * (d - m) / ($re - $rs)), 1, '', '', $(csvq name), start, end
FROM st, med WHERE n <> 1 AND m > 0 AND d > ${SLOW_STEP_RATIO:-1.2} * m ORDER BY d - m DESC, start;
EOF
}

findings_warmup_sql() {
	findings_steps_sql
	cat <<EOF
SELECT 'warmup', d - m, printf('%.6f', 100.0 * (d - m) / ($re - $rs)), 1, '', '', $(csvq name), start, end
FROM st, med WHERE n = 1 AND m > 0 AND d > ${WARMUP_RATIO:-1.5} * m;
EOF
}

# low-util: each GPU's span in 100 chunks (chunk k from first + span * k /
# 100); a chunk's idle time is what the GPU's gaps cover of it; runs of
# chunks under LOW_UTIL_BUSY_PCT (50) percent busy whose length is
# LOW_UTIL_PCT (2) percent of the span or more.
findings_low_util_sql() {
	waits_ops_sql
	cat <<EOF
CREATE TEMP TABLE sp AS SELECT gpu, min(cs) AS f, max(ce) - min(cs) AS span FROM r GROUP BY gpu HAVING max(ce) - min(cs) >= 100;
CREATE TEMP TABLE ch AS WITH RECURSIVE k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < 99)
  SELECT sp.gpu AS gpu, k.k AS k, sp.f + sp.span * k.k / 100 AS a, sp.f + sp.span * (k.k + 1) / 100 AS b FROM sp, k;
CREATE TEMP TABLE ci AS SELECT ch.*, coalesce((SELECT sum(max(0, min(gc.ge, ch.b) - max(gc.gs, ch.a))) FROM gc
    WHERE gc.gpu = ch.gpu AND gc.gs < ch.b AND gc.ge > ch.a), 0) AS idle FROM ch;
CREATE TEMP TABLE lowc AS SELECT *, k - row_number() OVER (PARTITION BY gpu ORDER BY k) AS isl FROM ci
  WHERE 100.0 * (b - a - idle) / (b - a) < ${LOW_UTIL_BUSY_PCT:-50};
CREATE TEMP TABLE st AS SELECT gpu, min(a) AS a, max(b) AS b, sum(idle) AS idle, count(*) AS n FROM lowc GROUP BY gpu, isl;
SELECT 'low-util', st.idle, printf('%.6f', 100.0 * st.idle / sp.span), st.n, st.gpu, '', '', st.a, st.b
FROM st JOIN sp ON sp.gpu = st.gpu WHERE 100.0 * (st.b - st.a) / sp.span >= ${LOW_UTIL_PCT:-2}
ORDER BY st.idle DESC, st.gpu, st.a;
EOF
}

# launch-bound: per GPU and kernel name, the kernels in view launched by a
# call that is no graph launch and lasted longer than the kernel ran; the
# lesser of the GPU's gap before each and its call, summed; at least
# LAUNCH_BOUND_MIN (100) of them and LAUNCH_BOUND_PCT (0.5) percent of the
# GPU's span.
findings_launch_bound_sql() {
	waits_ops_sql
	cat <<EOF
CREATE TEMP TABLE span AS SELECT gpu, max(ce) - min(cs) AS span FROM r GROUP BY gpu;
CREATE TEMP TABLE lb AS SELECT o.gpu AS gpu, o.name AS name, o.id AS id, o.start AS start, o.end AS end,
    min(coalesce((SELECT ge - gs FROM gc WHERE gc.after_id = o.id), 0), a.end - a.start) AS lost
  FROM oall o JOIN link ON link.op_id = o.id JOIN rocpd_api a ON a.id = link.api
  WHERE o.kind = 'kernel' AND a.id NOT IN (SELECT id FROM graph_call) AND a.end - a.start > o.end - o.start;
CREATE TEMP TABLE lg AS SELECT gpu, name, sum(lost) AS t, count(*) AS n FROM lb GROUP BY gpu, name;
SELECT 'launch-bound', lg.t, printf('%.6f', 100.0 * lg.t / s.span), lg.n, lg.gpu, '', $(csvq lg.name),
  (SELECT start FROM lb WHERE lb.gpu = lg.gpu AND lb.name = lg.name ORDER BY lost DESC, id LIMIT 1),
  (SELECT end FROM lb WHERE lb.gpu = lg.gpu AND lb.name = lg.name ORDER BY lost DESC, id LIMIT 1)
FROM lg JOIN span s ON s.gpu = lg.gpu
WHERE lg.n >= ${LAUNCH_BOUND_MIN:-100} AND 100.0 * lg.t / s.span >= ${LAUNCH_BOUND_PCT:-0.5}
ORDER BY lg.t DESC, lg.gpu;
EOF
}

# sync-call: of each GPU's host-wait gaps, those that began while the
# launching thread was in a blocking call (its last call to start at or
# before the gap's start, not ended by then), per call name; at least
# SYNC_CALL_PCT (1) percent of the GPU's span.
findings_sync_call_sql() {
	waits_ops_sql
	cat <<EOF
CREATE TEMP TABLE span AS SELECT gpu, max(ce) - min(cs) AS span FROM r GROUP BY gpu;
CREATE TEMP TABLE cl AS SELECT a.id AS id, a.pid AS pid, a.tid AS tid, a.start AS start, a.end AS end, n.string AS name
  FROM rocpd_api a JOIN rocpd_string n ON n.id = a.apiName_id;
CREATE INDEX temp.cl_thread ON cl(pid, tid, start);
CREATE TEMP TABLE hw AS SELECT gc.gpu AS gpu, gc.gs AS gs, gc.ge AS ge,
    (SELECT c.id FROM cl c WHERE c.pid = a.pid AND c.tid = a.tid AND c.start <= gc.gs
     ORDER BY c.start DESC, c.end, c.id DESC LIMIT 1) AS call
  FROM gc JOIN link ON link.op_id = gc.after_id JOIN rocpd_api a ON a.id = link.api WHERE gc.cause = 'host_wait';
CREATE TEMP TABLE sc AS SELECT hw.gpu AS gpu, hw.gs AS gs, hw.ge AS ge, c.name AS name FROM hw JOIN cl c ON c.id = hw.call
  WHERE c.end > hw.gs AND (c.name IN ('hipMemcpy', 'hipMemcpyWithStream', 'hipMemcpyHtoD', 'hipMemcpyDtoH',
    'hipMemcpyDtoD', 'hipMemcpy2D', 'hipMemset', 'hipMemsetD8', 'hipMemsetD16', 'hipMemsetD32', 'hipStreamWaitEvent')
    OR c.name GLOB 'hip*Synchronize');
CREATE TEMP TABLE sg AS SELECT gpu, name, sum(ge - gs) AS t, count(*) AS n FROM sc GROUP BY gpu, name;
SELECT 'sync-call', sg.t, printf('%.6f', 100.0 * sg.t / s.span), sg.n, sg.gpu, '', $(csvq sg.name),
  (SELECT gs FROM sc WHERE sc.gpu = sg.gpu AND sc.name = sg.name ORDER BY ge - gs DESC, gs LIMIT 1),
  (SELECT ge FROM sc WHERE sc.gpu = sg.gpu AND sc.name = sg.name ORDER BY ge - gs DESC, gs LIMIT 1)
FROM sg JOIN span s ON s.gpu = sg.gpu WHERE 100.0 * sg.t / s.span >= ${SYNC_CALL_PCT:-1}
ORDER BY sg.t DESC, sg.gpu;
EOF
}

# graph-gap: per GPU and graph (the launching call's graphExec argument,
# else its name), the gaps whose cause is graph; at least GRAPH_GAP_PCT (2)
# percent of the GPU's span.
findings_graph_gap_sql() {
	waits_ops_sql
	cat <<EOF
CREATE TEMP TABLE span AS SELECT gpu, max(ce) - min(cs) AS span FROM r GROUP BY gpu;
CREATE TEMP TABLE gg AS SELECT gc.gpu AS gpu, gc.gs AS gs, gc.ge AS ge,
    CASE WHEN instr(ar.string, 'graphExec = ') > 0 THEN
      substr(ar.string, instr(ar.string, 'graphExec = ') + 12,
        instr(substr(ar.string, instr(ar.string, 'graphExec = ') + 12) || ' ', ' ') - 1)
      ELSE nm.string END AS graph
  FROM gc JOIN link ON link.op_id = gc.after_id JOIN rocpd_api a ON a.id = link.api
  JOIN rocpd_string nm ON nm.id = a.apiName_id JOIN rocpd_string ar ON ar.id = a.args_id
  WHERE gc.cause = 'graph';
CREATE TEMP TABLE gs AS SELECT gpu, graph, sum(ge - gs) AS t, count(*) AS n FROM gg GROUP BY gpu, graph;
SELECT 'graph-gap', gs.t, printf('%.6f', 100.0 * gs.t / s.span), gs.n, gs.gpu, '', $(csvq gs.graph),
  (SELECT gg.gs FROM gg WHERE gg.gpu = gs.gpu AND gg.graph = gs.graph ORDER BY gg.ge - gg.gs DESC, gg.gs LIMIT 1),
  (SELECT gg.ge FROM gg WHERE gg.gpu = gs.gpu AND gg.graph = gs.graph ORDER BY gg.ge - gg.gs DESC, gg.gs LIMIT 1)
FROM gs JOIN span s ON s.gpu = gs.gpu WHERE 100.0 * gs.t / s.span >= ${GRAPH_GAP_PCT:-2}
ORDER BY gs.t DESC, gs.gpu;
EOF
}
