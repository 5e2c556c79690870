# Helpers for the shell tests. Sourced; the harness sets RPDTOP, RPDGEN,
# RPDTOP_TEST_DATA and SQLITE3.
set -u

fails=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rpdtop-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

pass() {
	echo "ok: $*"
}

# check_eq WHAT EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1: expected [$2], got [$3]"
	fi
}

# The real traces live outside the repository; without them the test is
# skipped (status 77), loudly, never passed.
need_data() {
	for f in "$@"; do
		if [ ! -r "$RPDTOP_TEST_DATA/$f" ]; then
			echo "SKIP: real trace $RPDTOP_TEST_DATA/$f not found" >&2
			exit 77
		fi
	done
}

sql() {
	"$SQLITE3" -readonly -batch -noheader "$@"
}

# The reports of rpdtop's registry (src/present/report_list.h), in its
# order; and in words, as rpdtop lists them ("top, ktop, ... or steps"),
# with the language's OR ("or" unless given).
reports() {
	sed -n 's/^REPORT(\([a-z_]*\))$/\1/p' "$srcdir/src/present/report_list.h"
}

reports_in_words() {
	reports | awk -v or="${1:-or}" '{ w[NR] = $0 }
		END { for (i = 1; i <= NR; i++) printf "%s%s", w[i], i == NR ? "" : i == NR - 1 ? " " or " " : ", " }'
}

# expect_error STATUS MESSAGE COMMAND...: the command fails with exactly
# STATUS, prints exactly MESSAGE on stderr and nothing on stdout.
expect_error() {
	want_status=$1 want_msg=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	check_eq "status of $*" "$want_status" "$status"
	check_eq "message of $*" "$want_msg" "$(cat "$tmp/err")"
	check_eq "no output from $*" "" "$(cat "$tmp/out")"
}

finish() {
	if [ "$fails" -ne 0 ]; then
		echo "$fails check(s) failed" >&2
		exit 1
	fi
	exit 0
}

# Checks that root would pass (permissions) run as the unprivileged user
# nobody. nobody_begin opens $tmp for nobody to pass through and makes
# $tmp/nobody, readable by all, for what that user needs; when nobody cannot
# reach rpdtop where it was built (a checkout under /root), the program is
# copied there, with the wrapper that runs it (tests/valgrind-run) if any.
# $nobody_rpdtop is then the program to run with as_nobody. It fails, and
# says why unless it is for not running as root, when the user cannot be
# switched or cannot run rpdtop even so. nobody_end closes $tmp again.
as_nobody() {
	RPDTOP_REAL=$nobody_real setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# nobody_reaches FILE...: nobody may read and run each FILE.
nobody_reaches() {
	as_nobody sh -c 'for f; do [ -r "$f" ] && [ -x "$f" ] || exit 1; done' sh "$@" 2>/dev/null
}

nobody_begin() {
	[ "$(id -u)" = 0 ] || return 1
	if ! command -v setpriv >/dev/null; then
		echo "SKIP (part): setpriv not installed, nothing run as the user nobody" >&2
		return 1
	fi
	chmod 711 "$tmp" && mkdir -p "$tmp/nobody" && chmod 755 "$tmp/nobody" || return 1
	nobody_rpdtop=$RPDTOP nobody_real=$RPDTOP_REAL
	if ! nobody_reaches "$RPDTOP" "$RPDTOP_REAL"; then
		cp "$RPDTOP_REAL" "$tmp/nobody/rpdtop" || return 1
		nobody_rpdtop=$tmp/nobody/rpdtop nobody_real=$tmp/nobody/rpdtop
		if [ "$RPDTOP" != "$RPDTOP_REAL" ]; then
			cp "$RPDTOP" "$tmp/nobody/rpdtop-run" || return 1
			nobody_rpdtop=$tmp/nobody/rpdtop-run
		fi
		chmod 755 "$tmp/nobody/rpdtop"*
	fi
	if ! nobody_reaches "$nobody_rpdtop" "$nobody_real" || ! as_nobody "$nobody_rpdtop" --version >/dev/null 2>&1; then
		echo "SKIP (part): the user nobody cannot run rpdtop, not even a copy in $tmp/nobody" >&2
		nobody_end
		return 1
	fi
}

nobody_end() {
	chmod 700 "$tmp"
}

# tui INPUT...: run the viewer headless on the inputs with the key script
# read from standard input (see tests/tui-*.test for the commands).
tui() {
	cat >"$tmp/keys"
	RPDTOP_SCRIPT="$tmp/keys" "$RPDTOP" "$@"
}

# expect_screen WHAT FILE: the screen saved in FILE equals standard input
# (a few lines; whole screens go in files, see expect_screen_file).
expect_screen() {
	cat >"$tmp/expected"
	if diff -u "$tmp/expected" "$2" >"$tmp/screen.diff"; then
		pass "$1"
	else
		fail "$1"
		cat "$tmp/screen.diff" >&2
	fi
}

# screen_has WHAT FILE TEXT: the saved screen contains TEXT.
screen_has() {
	if grep -qF -- "$3" "$2"; then pass "$1"; else
		fail "$1: [$3] not on screen"; cat "$2" >&2; fi
}

# tmux: a real terminal for what only a terminal shows. Every test has its
# own server, and a bash in the session so the shell can be checked after
# rpdtop exits.
need_tmux() {
	if ! command -v tmux >/dev/null; then
		echo "SKIP: tmux not installed" >&2
		exit 77
	fi
	tmux_socket=rpdtop-test-$$
	trap 'tmux_stop; rm -rf "$tmp"' EXIT
	# A session that keeps the server up while test sessions come and go.
	tmux -L "$tmux_socket" -f /dev/null new-session -d -s keep -x 80 -y 24 "sleep 100000"
}

tm() {
	tmux -L "$tmux_socket" -f /dev/null "$@"
}

# tmux_stop: end the server and wait (up to 5 s) for the shells of its
# sessions to exit: their HOME is $tmp, and one still exiting when $tmp is
# removed could write there again. (Exited is gone or a zombie, which init
# may be slow to reap.)
tmux_stop() {
	pids=$(tm list-panes -a -F '#{pane_pid}' 2>/dev/null)
	tm kill-server 2>/dev/null
	for _ in $(seq 50); do
		alive=
		for p in $pids; do
			state=$(sed -n 's/^State:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
			case $state in
			"" | Z*) ;;
			*) alive=$p ;;
			esac
		done
		[ -z "$alive" ] && return 0
		sleep 0.1
	done
}

# tmux_start COLS ROWS: a fresh session with a plain bash prompt "$ " and
# no history file (bash would write one into $tmp when it exits); the
# cache of loaded traces as the test has it (off, unless it says).
# Sessions get new names; the server lives until the test ends.
tmux_session=0
tmux_start() {
	[ "$tmux_session" -gt 0 ] && tm kill-session -t "s$tmux_session" 2>/dev/null
	tmux_session=$((tmux_session + 1))
	tm new-session -d -s "s$tmux_session" -x "$1" -y "$2" \
		"env -i PATH='$PATH' HOME='$tmp' HISTFILE= TERM=screen LANG=C.UTF-8 PS1='$ ' \
		RPDTOP_CACHE_DIR='${RPDTOP_CACHE_DIR-}' bash --norc --noprofile"
	tmux_wait_for '$'
}

# tmux_run COMMAND: type a command line into the session's shell.
tmux_run() {
	tm send-keys -t "s$tmux_session" -l "$1"
	tm send-keys -t "s$tmux_session" Enter
}

tmux_screen() {
	tm capture-pane -p -t "s$tmux_session" "$@"
}

# tmux_keys KEY...: send keys by tmux name (q, C-c, Enter).
tmux_keys() {
	tm send-keys -t "s$tmux_session" "$@"
}

# tmux_wait_shell [SECONDS]: poll until the pane runs its shell again (the
# program in front has exited), so that what is typed next goes to the
# shell; fail on timeout.
tmux_wait_shell() {
	i=0 limit=$((${1:-10} * 10))
	while [ $i -lt $limit ]; do
		case $(tm display-message -p -t "s$tmux_session" '#{pane_current_command}') in
		bash | sh | dash) return 0 ;;
		esac
		sleep 0.1
		i=$((i + 1))
	done
	fail "timed out waiting for the shell"
	return 1
}

# tmux_wait_for TEXT [SECONDS]: poll until TEXT is on screen; fail on timeout.
tmux_wait_for() {
	i=0 limit=$((${2:-10} * 10))
	while [ $i -lt $limit ]; do
		if tmux_screen | grep -qF -- "$1"; then
			return 0
		fi
		sleep 0.1
		i=$((i + 1))
	done
	fail "timed out waiting for [$1]"
	tmux_screen >&2
	return 1
}

# tmux_settle: wait until two captures 0.2 s apart are the same.
tmux_settle() {
	prev=
	for _ in $(seq 50); do
		cur=$(tmux_screen)
		[ "$cur" = "$prev" ] && return 0
		prev=$cur
		sleep 0.2
	done
}

# expect_screen_file WHAT FILE NAME: the screen saved in FILE equals the
# expected screen in tests/screens/NAME. Under RPDTOP_APPROVE=1 (make
# check-approve) FILE is copied over the expected screen instead, for a
# person to review the change with git diff before committing it.
expect_screen_file() {
	want=${srcdir:-.}/tests/screens/$3
	if [ "${RPDTOP_APPROVE:-}" = 1 ]; then
		if cmp -s "$2" "$want"; then
			pass "$1 (tests/screens/$3 unchanged)"
		elif cp "$2" "$want"; then
			echo "approved: tests/screens/$3 ($1)"
			pass "$1 (tests/screens/$3 approved)"
		else
			fail "$1: cannot write $want"
		fi
		return
	fi
	if [ ! -f "$want" ]; then
		fail "$1: no expected screen tests/screens/$3 (make check-approve writes it)"
	elif diff -u "$want" "$2" >"$tmp/screen.diff"; then
		pass "$1"
	else
		fail "$1: the screen differs from tests/screens/$3 (make check-approve takes it after review)"
		cat "$tmp/screen.diff" >&2
	fi
}

# Durations as the program writes them, for awk programs: human(NS) is
# "157.18 ms", "4.80 us" or "500 ns"; rel(NS) is signed ("+1.23 ms",
# "-68.86 us", "+0 ns"), as the timeline writes a time from the first op.
awk_units='
function human(d, m) {
	m = d < 0 ? -d : d
	if (m >= 1e9) return sprintf("%.2f s", d / 1e9)
	if (m >= 1e6) return sprintf("%.2f ms", d / 1e6)
	if (m >= 1e3) return sprintf("%.2f us", d / 1e3)
	return sprintf("%d ns", d)
}
function rel(d) { return (d < 0 ? "-" human(-d) : "+" human(d)) }
# exact(NS, STEP): as human, with the decimals a time exact to STEP ns
# needs (down to the power of ten at or below STEP; two at least, none
# below the ns); rel_exact(NS, STEP) signed, as the timeline writes times.
function exact(d, step, m, drop, p, e, u, dec) {
	m = d < 0 ? -d : d
	for (drop = 0; step > 0 && 10^(drop + 1) <= step && drop < 9; drop++) ;
	if (m >= 1e9) { e = 9; u = "s" } else if (m >= 1e6) { e = 6; u = "ms" } else if (m >= 1e3) { e = 3; u = "us" }
	else return sprintf("%d ns", d)
	dec = e - drop; if (dec < 2) dec = 2
	return sprintf("%." dec "f %s", d / 10^e, u)
}
function rel_exact(d, step) { return (d < 0 ? "-" exact(-d, step) : "+" exact(d, step)) }
'

# human NS, rel NS: the same from the shell.
human() {
	awk -v d="$1" "$awk_units"' BEGIN { print human(d) }'
}
rel() {
	awk -v d="$1" "$awk_units"' BEGIN { print rel(d) }'
}
exact() {
	awk -v d="$1" -v s="$2" "$awk_units"' BEGIN { print exact(d, s) }'
}
rel_exact() {
	awk -v d="$1" -v s="$2" "$awk_units"' BEGIN { print rel_exact(d, s) }'
}

# gbps BYTES NS: bytes per ns (GB/s) with four significant digits at
# least, never in exponent form, as the detail line writes a bandwidth.
gbps() {
	awk -v b="$1" -v ns="$2" 'BEGIN { v = b / ns; d = 3
		for (x = v; x >= 10 && d > 0; x /= 10) d--
		for (x = v; x > 0 && x < 1 && d < 12; x *= 10) d++
		printf "%.*f\n", d, v }'
}
# rpd_copy_facts DB OP: what the detail line says of rpd copy op OP after
# its lane: its bytes (rocpd_copyapi of its launching call) and bandwidth
# over its duration, and the addresses when both are known (not 0x0).
rpd_copy_facts() {
	sql "$1" "SELECT C.size, O.\"end\" - O.start, C.src, C.dst FROM rocpd_op O JOIN rocpd_api_ops L ON L.op_id = O.id
		JOIN rocpd_copyapi C ON C.api_ptr_id = L.api_id WHERE O.id = $2" | while IFS='|' read -r size dur src dst; do
		where=""
		[ "$src" != 0x0 ] && [ "$dst" != 0x0 ] && where="  from $src to $dst"
		printf '  %s bytes  %s GB/s%s\n' "$size" "$(gbps "$size" "$dur")" "$where"
	done
}

# rpd_op_fields DB OP LANE ORIGIN [DT]: all the facts the timeline's
# detail line gives of rpd op OP after its name, most important first, as
# it orders them: start (from ORIGIN) and duration, the launch latency
# and queue delay (of its call in rocpd_api_ops), LANE, a kernel's grid
# and workgroup (rocpd_kernelapi), a copy's bytes (rpd_copy_facts), the
# call that launched it and when; times exact to DT ns (to two decimals
# without).
rpd_op_fields() {
	sql -separator '|' "$1" "SELECT O.start - $4, O.\"end\" - O.start, A.start - $4, O.start - A.start,
		O.start - A.\"end\", S.string, K.gridX || 'x' || K.gridY || 'x' || K.gridZ,
		K.workgroupX || 'x' || K.workgroupY || 'x' || K.workgroupZ
		FROM rocpd_op O LEFT JOIN rocpd_api_ops L ON L.op_id = O.id LEFT JOIN rocpd_api A ON A.id = L.api_id
		LEFT JOIN rocpd_string S ON S.id = A.apiName_id LEFT JOIN rocpd_kernelapi K ON K.api_ptr_id = L.api_id
		WHERE O.id = $2" |
		awk -F'|' -v lane="$3" -v dt="${5:-1000000000000}" -v copy="$(rpd_copy_facts "$1" "$2")" "$awk_units"'{
			printf "  start %s  duration %s", rel_exact($1, dt), exact($2, dt)
			if ($6 != "") printf "  latency %s  queue delay %s", exact($4, dt), exact($5, dt)
			printf "  %s", lane
			if ($7 != "") printf "  grid %s  workgroup %s", $7, $8
			printf "%s", copy
			if ($6 != "") printf "  launched by %s at %s", $6, rel_exact($3, dt)
			print "" }'
}

# check_fields WHAT WANT GOT: GOT, facts of a detail line, are WANT (all
# of them, two spaces before each field) or WANT with fields left out at
# its end, as a line too narrow for them all gives them: whole, none cut.
check_fields() {
	case $2 in
	"$3" | "$3  "*) pass "$1" ;;
	*) fail "$1: expected [$2] or whole fields from its start, got [$3]" ;;
	esac
}

# A common table expression over a generated rpd trace (rpdgen): ops, one
# row per GPU op with the name the viewer shows (the description, or the
# op type when that is empty; the generator's two mangled names as c++filt
# writes them, since the viewer demangles by default) and whether it is a
# kernel (not a copy or barrier, and described). Use as
# sql FILE "$gen_ops SELECT ... FROM ops ...".
gen_ops='WITH ops AS (SELECT o.id, o.gpuId AS gpu, o.queueId AS queue, o.start, o."end",
	o."end" - o.start AS dur, t.string AS type,
	CASE d.string WHEN '"''"' THEN t.string
	WHEN '"'_Z13softmax_fwd_kPfPKfii'"' THEN '"'softmax_fwd_k(float*, float const*, int, int)'"'
	WHEN '"'_ZN4demo12fused_adam_kEPfS0_S0_PKfffi'"'
	THEN '"'demo::fused_adam_k(float*, float*, float*, float const*, float, float, int)'"'
	ELSE d.string END AS name,
	(t.string NOT GLOB '"'Copy*'"' AND t.string NOT GLOB '"'Barrier*'"' AND d.string <> '"''"') AS kernel
	FROM rocpd_op o JOIN rocpd_string d ON d.id = o.description_id JOIN rocpd_string t ON t.id = o.opType_id)'

# Oracles for the viewer's tables, from SQL over a generated rpd trace
# (or any rpd trace whose names need no demangling).
# want_rows FILE WHERE [wide] [ORDER] [INSIDE]: the rows a profile pane
# shows of the ops of FILE that WHERE (a condition on the columns of
# $gen_ops) keeps: calls, total, average, (with wide the minimum,) maximum,
# percent of the time of those ops, name; by total, then name, or in the
# SQL ORDER given. With a window, INSIDE is each op's time inside it (an
# SQL expression; the total and percent sum it, the average, minimum and
# maximum take whole durations).
want_rows() {
	inside=${5:-dur}
	sql -separator '|' "$1" "$gen_ops SELECT count(*), sum($inside), min(dur), max(dur),
		(SELECT sum($inside) FROM ops WHERE $2), name, sum(dur) FROM ops WHERE $2
		GROUP BY name ORDER BY ${4:-sum($inside) DESC, name}" |
		awk -F'|' -v wide="${3:-}" "$awk_units"' {
			min = wide == "" ? "" : sprintf(" %10s", human($3))
			printf "%8d %10s %10s%s %10s %7.2f  %s\n", $1, human($2), human(int($7 / $1)), min, human($4), 100 * $2 / $5, $6 }'
}

# overlap_sql ALIAS LO HI: the row ALIAS of an rpd table overlaps the window
# [LO, HI) (a row without a duration: its time is inside).
overlap_sql() {
	echo "(CASE WHEN $1.\"end\" <= $1.start THEN $1.start >= $2 AND $1.start < $3 ELSE $1.start < $3 AND $1.\"end\" > $2 END)"
}

# rule_apis_sql PASSES LO HI OPS: an rpd query for the ids of the API calls
# the rule keeps: those whose shown name (a marker's text) passes (PASSES is
# an SQL condition on the word NAME, which is replaced) and that overlap
# [LO, HI), those that launched the ops of the query OPS, and every call
# enclosing one of them on its thread.
rule_apis_sql() {
	shown="(CASE WHEN rn.string = 'UserMarker' THEN rg.string ELSE rn.string END)"
	cond=$(echo "$1" | sed "s/NAME/$shown/g")
	enclosing_sql "SELECT a.id FROM rocpd_api a JOIN rocpd_string rn ON rn.id = a.apiName_id
		JOIN rocpd_string rg ON rg.id = a.args_id WHERE ($cond AND $(overlap_sql a "$2" "$3"))
		OR a.id IN (SELECT api_id FROM rocpd_api_ops WHERE op_id IN ($4))"
}

# enclosing_sql KEPT: an rpd query for the ids of the API calls the rule
# keeps, given KEPT, a query for the ids kept by name, window and launch:
# those and every call enclosing one of them on its thread (starting no
# later, ending no earlier).
enclosing_sql() {
	echo "WITH kept AS MATERIALIZED (SELECT id, pid, tid, start, \"end\" FROM rocpd_api WHERE id IN ($1))
		SELECT e.id FROM rocpd_api e WHERE e.id IN (SELECT id FROM kept) OR EXISTS (SELECT 1 FROM kept k
		WHERE k.pid = e.pid AND k.tid = e.tid AND k.start >= e.start AND k.\"end\" <= e.\"end\")"
}

# same_rows WHAT SCREEN WANT: the table of a saved profile screen (from its
# fourth line to the status line) has exactly the rows in the file WANT,
# then blank lines; a name cut short with an ellipsis is the start of the
# whole name, and what follows an ellipsis in its middle comes later in it.
same_rows() {
	sed -n '4,$p' "$2" | sed '$d' | sed 's/ *$//' >"$tmp/rows"
	if awk 'NR == FNR { want[FNR] = $0; n = FNR; next }
		FNR > n { if ($0 != "") { print "more rows than wanted: " substr($0, 1, 100); bad = 1 }; next }
		{ w = want[FNR]; ok = $0 == w; i = index($0, "…")
		  if (!ok && i > 0) {
			head = substr($0, 1, i - 1); rest = substr($0, i + length("…")); sub(/…$/, "", rest)
			ok = substr(w, 1, length(head)) == head && index(substr(w, length(head) + 1), rest) > 0 }
		  if (!ok) { print "row " FNR ": [" substr($0, 1, 100) "], want [" substr(want[FNR], 1, 100) "]"; bad = 1 } }
		END { if (FNR < n) { print "fewer rows than wanted"; bad = 1 }; exit bad }' "$3" "$tmp/rows" >"$tmp/rows.diff" &&
		[ -s "$3" ]; then
		pass "$1 ($(wc -l <"$3" | tr -d ' ') rows)"
	else
		fail "$1"
		cat "$tmp/rows.diff" >&2
	fi
}

# want_busy FILE WHERE: per GPU, the ops of FILE that WHERE keeps, their
# summed time, their busy time (the union of their intervals) and its share
# of the wall time (the span of all GPU ops), as the busy pane's columns.
want_busy() {
	sql -separator ' ' "$1" "$gen_ops SELECT gpu, start, \"end\", (SELECT max(\"end\") - min(start) FROM rocpd_op)
		FROM ops WHERE $2 ORDER BY gpu, start" |
		awk "$awk_units"'
		function flush() { if (n) printf "%s %d %s %s %.2f\n", gpu, n, human(sum), human(busy + e - s), 100 * (busy + e - s) / wall }
		NR == 1 || $1 != gpu { flush(); gpu = $1; n = sum = busy = 0; s = $2; e = $3 }
		{ wall = $4; n++; sum += $3 - $2; if ($2 > e) { busy += e - s; s = $2; e = $3 } else if ($3 > e) e = $3 }
		END { flush() }'
}

# busy_rows SCREEN: the rows of a saved busy screen, as want_busy writes them.
busy_rows() {
	awk 'NR > 3 && $2 ~ /^[0-9]+$/ { print $1, $2, $3 " " $4, $5 " " $6, $7 }' "$1"
}

# tensile_short: the short form of each Tensile kernel name read (one a
# line), in the order read, as the manual states the rule: the operation
# and macro tile (the '_'-separated fields up to the first MT<digit>...),
# then the fields of the name that another name of that operation and tile
# lacks; an all-digit field belongs to the field before it (WG32_4_1).
tensile_short() {
	awk '
	function fields(s, f,    w, n, k, i) {
		n = split(s, w, "_"); k = 0
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^[0-9]+$/ && k > 0) f[k] = f[k] "_" w[i]; else f[++k] = w[i]
		return k
	}
	{ name[NR] = $0 }
	END {
		for (r = 1; r <= NR; r++) {
			nf[r] = fields(name[r], F); tile[r] = 0; head[r] = F[1]
			for (i = 1; i <= nf[r]; i++) {
				fld[r, i] = F[i]
				if (i > 1 && !tile[r]) { head[r] = head[r] "_" F[i]; if (F[i] ~ /^MT[0-9]/) tile[r] = i }
				else if (tile[r]) has[r, F[i]] = 1
			}
		}
		for (r = 1; r <= NR; r++) {
			out = head[r]
			for (i = tile[r] + 1; i <= nf[r]; i++) {
				keep = 0
				for (q = 1; q <= NR; q++)
					if (name[q] != name[r] && head[q] == head[r] && !((q, fld[r, i]) in has)) keep = 1
				if (keep) out = out "_" fld[r, i]
			}
			print out
		}
	}'
}

# parting_words: for each name read (one a line; plain ASCII), the word in
# which it parts from the name most like it among those read: from the
# first character it does not share with that name back to the character
# after the last of _:<>(), and space (at most 24 back), to the next of
# those. A name cut short keeps that word in view.
parting_words() {
	awk '
	{ name[NR] = $0 }
	END {
		for (r = 1; r <= NR; r++) {
			most = 0
			for (q = 1; q <= NR; q++) {
				if (q == r) continue
				a = name[r]; b = name[q]; i = 0
				while (i < length(a) && substr(a, i + 1, 1) == substr(b, i + 1, 1)) i++
				if (i > most) most = i
			}
			from = most
			while (from > 0 && most - from < 24 && index("_:<>(), ", substr(name[r], from, 1)) == 0) from--
			w = substr(name[r], from + 1)
			if (match(w, /^[^_:<>(), ]+/)) w = substr(w, 1, RLENGTH)
			print w
		}
	}'
}

# top_seven: top and ktop CSV (stdin) cut to their first seven columns,
# the variability columns and share_percent left off (counted from the
# end: names may hold commas).
top_seven() {
	sed -E 's/(,[^,]*){6}$//'
}

# no_share: a report's CSV (stdin) without the columns that another
# file of the same ops may change: top's share_percent (the share of all
# GPU time, which an export of part of the trace changes) and busy's
# input (the file's name).
no_share() {
	awk 'NR == 1 { s = $0 ~ /,share_percent$/; b = $0 ~ /^gpu,ops,sum_ns,busy_ns,wall_ns,busy_percent,input,/ }
		{ if (s) sub(/,[^,]*$/, ""); if (b) { n = split($0, f, ","); $0 = f[1]; for (i = 2; i <= n; i++) if (i != 7) $0 = $0 "," f[i] }; print }'
}

# busy_six: busy CSV (stdin) cut to its first six columns, the input and
# span columns left off.
busy_six() {
	sed -E 's/(,[^,]*){5}$//'
}
