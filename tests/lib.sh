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

# expect_screen WHAT FILE: the screen saved in FILE equals standard input.
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
# no history file (bash would write one into $tmp when it exits).
# Sessions get new names; the server lives until the test ends.
tmux_session=0
tmux_start() {
	[ "$tmux_session" -gt 0 ] && tm kill-session -t "s$tmux_session" 2>/dev/null
	tmux_session=$((tmux_session + 1))
	tm new-session -d -s "s$tmux_session" -x "$1" -y "$2" \
		"env -i PATH='$PATH' HOME='$tmp' HISTFILE= TERM=screen LANG=C.UTF-8 PS1='$ ' bash --norc --noprofile"
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
