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
