#!/bin/sh
# The viewer under fuzzing: damaged databases (a seed file with a few bytes
# changed at random, or whatever the loader's fuzzer kept in its corpus)
# opened headless with a random keystroke script, by a build with address
# and undefined-behaviour sanitizers. An input may be refused (one rpdtop:
# line, exit 1 or 2); a sanitizer report, a signal or a hang is a finding:
# the input and the keys are kept in CRASHES and the run fails.
#
# Usage: fuzz_viewer.sh RPDTOP CORPUS_DIR SECONDS CRASHES [SEED]
set -u
rpdtop=$1 corpus=$2 seconds=$3 crashes=$4 seed=${5:-1}
seed0=$seed
work=$(mktemp -d "${TMPDIR:-/tmp}/rpdtop-fuzz-viewer.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM HUP
mkdir -p "$crashes"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=86
export UBSAN_OPTIONS=halt_on_error=1:exitcode=86:print_stacktrace=1
export XDG_CONFIG_HOME="$work/cfg" XDG_CACHE_HOME="$work/cache" LANG=C.UTF-8 LC_ALL=C.UTF-8

# Keys a person presses in every pane: tabs, moving, sorting, details,
# finding and filtering, windows, zoom, gaps, marks, help; then q.
keys='1 2 3 4 5 j k J K g G Home End PageDown PageUp Enter Tab v s S d t T I } { + - < > m ? Escape Left Right n N * c r R F3 F4'
# A prompt's text: typed after / \ W x |.
texts='a Cijk !Copy 10%:60% 5us . ( 0 zz'

# rand N: R becomes a number below N from the running seed (a linear
# congruence, so that a run is repeated by its seed; no subshell, which
# would lose the seed's step).
rand() {
	seed=$(((seed * 1103515245 + 12345) % 2147483648))
	R=$((seed / 65536 % $1))
}

# pick WORDS: P becomes one of them.
pick() {
	set -- $1
	rand $#
	shift "$R"
	P=$1
}

script() {
	rand 160
	w=$((40 + R))
	rand 50
	echo ":resize ${w}x$((10 + R))"
	rand 40
	n=$((5 + R)) line=
	while [ "$n" -gt 0 ]; do
		n=$((n - 1))
		rand 8
		case $R in
		0)
			pick '/ \ W x |'
			line="$line $P"
			pick "$texts"
			line="$line $(printf '%s' "$P" | sed 's/./& /g') Enter"
			;;
		1)
			# :wait is a command of its own line.
			echo "$line"
			echo ":wait"
			line=
			;;
		*)
			pick "$keys"
			line="$line $P"
			;;
		esac
	done
	echo "$line"
	echo q
}

# mutate SEED-FILE OUT: a copy with 1 to 16 bytes set at random places.
mutate() {
	cp "$1" "$2"
	size=$(wc -c <"$2")
	[ "$size" -gt 0 ] || return 0
	rand 16
	n=$((1 + R))
	while [ "$n" -gt 0 ]; do
		n=$((n - 1))
		rand 256
		byte=$(printf %o "$R")
		rand "$size"
		printf "\\$byte" | dd of="$2" bs=1 seek="$R" conv=notrunc status=none
	done
}

set -- "$corpus"/*
# Keys such as * are words, not patterns.
set -f
nseeds=$#
[ "$nseeds" -gt 0 ] && [ -e "$1" ] || { echo "fuzz_viewer: no inputs in $corpus" >&2; exit 1; }
end=$(($(date +%s) + seconds))
runs=0 refused=0 found=0
while [ "$(date +%s)" -lt "$end" ]; do
	rand "$nseeds"
	eval "input=\${$((R + 1))}"
	rand 2
	if [ "$R" -eq 0 ]; then mutate "$input" "$work/in.db"; else cp "$input" "$work/in.db"; fi
	script >"$work/keys"
	RPDTOP_SCRIPT="$work/keys" timeout 30 "$rpdtop" "$work/in.db" >/dev/null 2>"$work/err"
	status=$?
	runs=$((runs + 1))
	case $status in
	0) ;;
	1 | 2) refused=$((refused + 1)) ;;
	*)
		found=$((found + 1))
		cp "$work/in.db" "$crashes/viewer-$runs.db"
		cp "$work/keys" "$crashes/viewer-$runs.keys"
		cp "$work/err" "$crashes/viewer-$runs.err"
		echo "fuzz_viewer: exit status $status on $crashes/viewer-$runs.db with $crashes/viewer-$runs.keys" >&2
		head -20 "$work/err" >&2
		;;
	esac
	rm -f "$work/in.db-journal" "$work/in.db-wal" "$work/in.db-shm"
done
echo "fuzz_viewer: $runs runs ($refused inputs refused), $found findings, seed $seed0"
[ "$found" -eq 0 ]
