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
	"findings_$(echo "$f_rule" | tr - _)_sql" >"$tmp/oracle.sql"
	sql -list -separator , "$f_db" <"$tmp/oracle.sql" >"$tmp/want" 2>"$tmp/sql.err" || { fail "$f_what: SQL failed"; cat "$tmp/sql.err" >&2; }
	"$RPDTOP" --raw-names -r findings -f csv "$@" "$f_db" | tail -n +2 | awk -F, -v rule="$f_rule" '$2 == rule' |
		cut -d, -f2-10 >"$tmp/got"
	if cmp -s "$tmp/want" "$tmp/got"; then pass "$f_what: $f_rule equals SQL ($(wc -l <"$tmp/got") rows)"; else
		fail "$f_what: $f_rule differs from SQL"; diff "$tmp/want" "$tmp/got" | head -20 >&2; fi
}
