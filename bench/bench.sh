#!/bin/sh
# Benchmarks: batch reports of rpdtop against the database's own views run
# by sqlite3 (and the reports that have no view: gaps, idle, launch, graphs,
# breakdown, categories), on generated traces cached under the build tree. Prints one
# line per figure: wall seconds (best of RUNS) and peak RSS.
#
#   bench/bench.sh [OPS...]      default: 1000000 10000000
#
# Then the real trace BENCH_REAL (a vLLM run: sparse session ids, mangled
# names, nested roctx ranges, call-stack tables) tiled to the last OPS by
# bench/tile.sh, and 64 rpd inputs totalling the last OPS (a node group
# each: read with 1 and with 2 threads, -j groups at once, and whole); and
# 256 rocpd inputs on 32 nodes, read whole and one node group at a time
# (top, busy, idle, gaps, api, markers, ranks and findings: wall time and
# peak RSS of each), and as an MPI job.
#
# Environment: RPDTOP, RPDGEN, SQLITE3 (programs), BENCH_CACHE (where the
# generated traces are kept), RUNS (repetitions, default 3), BENCH_REAL
# (the real trace; its figures are skipped when it cannot be read),
# BENCH_ONLY=inputs (only the figures of many inputs, from the 64 on),
# BENCH_ONLY=formats (only those of other profilers' traces: Kineto JSON
# and Nsight Systems exports, sized by BENCH_KINETO_OPS and BENCH_NSYS_OPS).
#
# Every figure reads the inputs (rpdtop's cache of loaded traces is off),
# but those named _reopen: a second open, the cache written by a first.
set -eu
RPDTOP_CACHE_DIR=
export RPDTOP_CACHE_DIR
RPDTOP=${RPDTOP:-./src/rpdtop}
RPDGEN=${RPDGEN:-./src/rpdgen}
SQLITE3=${SQLITE3:-sqlite3}
BENCH_CACHE=${BENCH_CACHE:-./bench-cache}
RUNS=${RUNS:-3}
BENCH_REAL=${BENCH_REAL:-}
BENCH_ONLY=${BENCH_ONLY:-}
here=$(dirname "$0")
[ $# -gt 0 ] || set -- 1000000 10000000

if ! command -v /usr/bin/time >/dev/null 2>&1; then
	echo "bench: /usr/bin/time is needed (Debian package: time)" >&2
	exit 1
fi
mkdir -p "$BENCH_CACHE"

# rec FIGURE VALUE: a figure of the trace being measured ($label), for the
# table printed at the end.
summary=$BENCH_CACHE/summary.txt
: >"$summary"
rec() {
	printf '%s\t%s\t%s\n' "$label" "$1" "$2" >>"$summary"
}

# best_of NAME COMMAND...: run RUNS times, keep the fastest wall time and
# the largest peak RSS; sets $secs and $rss_mb.
best_of() {
	secs= rss_mb=0
	i=0
	while [ $i -lt "$RUNS" ]; do
		/usr/bin/time -f '%e %M' -o "$BENCH_CACHE/time.out" "$@" >/dev/null
		read -r s kb <"$BENCH_CACHE/time.out"
		if [ -z "$secs" ] || awk "BEGIN { exit !($s < $secs) }"; then secs=$s; fi
		mb=$((kb / 1024))
		[ $mb -gt "$rss_mb" ] && rss_mb=$mb
		i=$((i + 1))
	done
}

# The viewer in a real terminal (tmux): milliseconds from start to the flat
# profile on screen, to the API rows read in the background (status line
# "N API calls"), and to the timeline with its CPU lanes drawn after 4 is
# pressed once they are there; then its peak RSS.
# A fourth argument, a cache directory: the second open, from the cache.
tui_times() {
	db=$1
	command -v tmux >/dev/null 2>&1 || { echo "# tmux not found: viewer figures skipped" >&2; return 0; }
	sock=rpdtop-bench-$$
	tm() { tmux -L "$sock" "$@"; }
	tm kill-server 2>/dev/null || true
	start=$(date +%s%N)
	tm new-session -d -x 160 -y 40 "RPDTOP_CACHE_DIR='${4:-}' /usr/bin/time -f '%M' -o '$BENCH_CACHE/tui.rss' $RPDTOP '$db'"
	paint= apis= lanes=
	i=0
	while [ $i -lt 1200 ] && [ -z "$lanes" ]; do
		scr=$(tm capture-pane -p 2>/dev/null || true)
		now=$(( ($(date +%s%N) - start) / 1000000 ))
		if [ -z "$paint" ] && printf '%s\n' "$scr" | grep -q '▼TOTAL'; then paint=$now; fi
		if [ -n "$paint" ] && [ -z "$apis" ] && printf '%s\n' "$scr" | tail -1 | grep -q 'API calls'; then
			apis=$now
			tm send-keys 4
		fi
		if [ -n "$apis" ] && printf '%s\n' "$scr" | grep -q '^ *[0-9]*/[0-9]* *│'; then lanes=$now; fi
		sleep 0.02
		i=$((i + 1))
	done
	tm send-keys q
	sleep 1
	tm kill-server 2>/dev/null || true
	kb=$(cat "$BENCH_CACHE/tui.rss" 2>/dev/null || echo 0)
	printf 'ops=%s viewer%s first_paint_ms=%s api_rows_ms=%s timeline_with_cpu_lanes_ms=%s rss_mb=%s rss_pct_of_file=%s\n' \
		"$2" "${4:+_reopen}" "${paint:-?}" "${apis:-?}" "${lanes:-?}" $((kb / 1024)) $((100 * kb / 1024 / ($3 > 0 ? $3 : 1)))
	if [ -n "${4:-}" ]; then
		rec "reopen: viewer's flat profile on screen (tmux)" "$(ms_to_s "${paint:-?}")"
		rec "reopen: viewer with everything loaded (tmux)" "$(ms_to_s "${lanes:-?}")"
		return 0
	fi
	rec "viewer: flat profile on screen (tmux)" "$(ms_to_s "${paint:-?}")"
	rec "viewer: timeline with CPU lanes (everything loaded, tmux)" "$(ms_to_s "${lanes:-?}")"
	rec "viewer: peak RSS, everything loaded" "$(share $((kb / 1024)) "$3")"
}

ms_to_s() {
	case $1 in
	*[!0-9]*) echo "?" ;;
	*) awk -v ms="$1" 'BEGIN { printf "%.2f s", ms / 1000 }' ;;
	esac
}

# share MB FILE_MB: "MB MB (P % of the file)".
share() {
	echo "$1 MB ($((100 * $1 / ($2 > 0 ? $2 : 1))) %)"
}

# The viewer's keys in the timeline, each drawn as a frame (the headless
# mode draws after every line of its script, as a terminal would): 400
# keys (zoom in and out, pan right and left) between two clocks of the
# script, with the CPU lanes there; the mean per key and the worst of 20
# single keys.
key_times() {
	k=$BENCH_CACHE/keys.script c=$BENCH_CACHE/keys.clock
	rm -f "$c"
	{
		printf ':resize 160x40\n4\n:wait\n:clock %s\n' "$c"
		i=0
		while [ $i -lt 100 ]; do printf '+\n-\nL\nH\n'; i=$((i + 1)); done
		printf ':clock %s\n' "$c"
		i=0
		while [ $i -lt 20 ]; do printf '+\n:clock %s\n' "$c"; i=$((i + 1)); done
	} >"$k"
	RPDTOP_SCRIPT="$k" "$RPDTOP" "$1" >/dev/null
	awk -v ops="$2" 'NR == 1 { a = $1 } NR == 2 { mean = ($1 - a) / 400 / 1e6; last = $1 }
		NR > 2 { d = ($1 - last) / 1e6; if (d > worst) worst = d; last = $1 }
		END { printf "ops=%s viewer key_ms_mean=%.2f key_ms_worst=%.2f (400 keys: zoom, pan; 20 zooms; each drawn, 160x40)\n", ops, mean, worst }' "$c"
}

# reopen_times DB OPS FILE_MB: the same inputs opened again, the cache
# warm, in a cache directory of its own: -r top after a first -r top wrote
# its file, and the viewer after a first viewer (a script that shows the
# timeline, which waits for the API calls) wrote its file of every call.
reopen_times() {
	rc=$BENCH_CACHE/reopen-cache
	rm -rf "$rc"
	RPDTOP_CACHE_DIR=$rc "$RPDTOP" -r top "$1" >/dev/null
	best_of env RPDTOP_CACHE_DIR="$rc" "$RPDTOP" -r top "$1"
	printf 'ops=%s file_mb=%s report=top_reopen rpdtop_s=%s rpdtop_rss_mb=%s rss_pct_of_file=%s cache_mb=%s\n' \
		"$2" "$3" "$secs" "$rss_mb" "$((100 * rss_mb / ($3 > 0 ? $3 : 1)))" "$(($(du -sk "$rc" | cut -f1) / 1024))"
	rec "reopen: -r top (flat profile)" "$secs s, $rss_mb MB"
	printf '4\n:wait\n' >"$BENCH_CACHE/wait.script"
	RPDTOP_CACHE_DIR=$rc RPDTOP_SCRIPT="$BENCH_CACHE/wait.script" "$RPDTOP" "$1" >/dev/null
	# A trace read whole at once (JSON) has its file written while the
	# viewer runs on, which a script that ends at once does not: the
	# viewer in a terminal, until the file of every call is there.
	if ! ls "$rc"/*-3.rpdc >/dev/null 2>&1 && command -v tmux >/dev/null 2>&1; then
		tmux -L rpdtop-cache-$$ new-session -d -x 160 -y 40 "RPDTOP_CACHE_DIR='$rc' $RPDTOP '$1'"
		i=0
		while [ $i -lt 600 ] && ! ls "$rc"/*-3.rpdc >/dev/null 2>&1; do
			sleep 0.2
			i=$((i + 1))
		done
		tmux -L rpdtop-cache-$$ send-keys q
		sleep 1
		tmux -L rpdtop-cache-$$ kill-server 2>/dev/null || true
	fi
	tui_times "$1" "$2" "$3" "$rc"
	rm -rf "$rc"
}

# measure DB OPS PATTERN: every figure of one trace (PATTERN for the core's
# filter timing).
measure() {
	m_db=$1 m_ops=$2
	size_mb=$(($(stat -L -c %s "$m_db") / 1048576))
	echo "# $m_db: $size_mb MB"
	if [ -n "${BENCH_CORE:-}" ]; then
		"$BENCH_CORE" "$m_db" "$3"
	fi
	tui_times "$m_db" "$m_ops" "$size_mb"
	reopen_times "$m_db" "$m_ops" "$size_mb"
	key_times "$m_db" "$m_ops"
	rm -f "$BENCH_CACHE/export.rpd"
	/usr/bin/time -f '%e %M' -o "$BENCH_CACHE/time.out" "$RPDTOP" -o "$BENCH_CACHE/export.rpd" -w 0%:10% "$m_db" >/dev/null
	read -r s kb <"$BENCH_CACHE/time.out"
	printf 'ops=%s export=10%% seconds=%s rss_mb=%s output_mb=%s\n' "$m_ops" "$s" $((kb / 1024)) \
		$(($(stat -c %s "$BENCH_CACHE/export.rpd") / 1048576))
	rec "export of 10 % (-w 0%:10%)" "$s s, $((kb / 1024)) MB"
	# The viewer's first screen, headless: the flat profile drawn, then q.
	printf 'q\n' >"$BENCH_CACHE/quit.script"
	best_of env RPDTOP_SCRIPT="$BENCH_CACHE/quit.script" "$RPDTOP" "$m_db"
	rec "viewer: flat profile on screen, then q (script)" "$secs s"
	rm -f "$BENCH_CACHE/export.rpd"
	for report in top busy; do
		best_of "$RPDTOP" -r $report "$m_db"
		ours=$secs ours_rss=$rss_mb
		best_of "$SQLITE3" "$m_db" "SELECT * FROM $report"
		ratio=$(awk "BEGIN { printf \"%.1f\", $secs / ($ours > 0 ? $ours : 0.01) }")
		printf 'ops=%s file_mb=%s report=%s rpdtop_s=%s rpdtop_rss_mb=%s sqlite3_s=%s speedup=%sx rss_pct_of_file=%s\n' \
			"$m_ops" "$size_mb" "$report" "$ours" "$ours_rss" "$secs" "$ratio" \
			"$((100 * ours_rss / (size_mb > 0 ? size_mb : 1)))"
		rec "-r $report" "$ours s"
		[ "$report" = top ] && rec "batch peak RSS (-r top)" "$(share "$ours_rss" "$size_mb")"
	done
	# The reports with no view to compare with. gaps, idle and launch read
	# the launching calls too, markers and ranges every API row, api every
	# call but the markers' and no op, steps the markers' rows alone,
	# counters the ops and the counters; categories are the built-in ones
	# (no settings file). A trace has about one gap per two ops: gaps is
	# timed as people read it, the 1000 longest, and whole as CSV.
	for report in "gaps -n 1000" "gaps -f csv" idle launch graphs breakdown categories counters api markers \
		"ranges -n 1000" steps ranks findings; do
		# shellcheck disable=SC2086 # the options are words
		best_of env XDG_CONFIG_HOME="$BENCH_CACHE/no-config" "$RPDTOP" -r $report "$m_db"
		printf 'ops=%s file_mb=%s report=%s rpdtop_s=%s rpdtop_rss_mb=%s rss_pct_of_file=%s\n' \
			"$m_ops" "$size_mb" "$(echo "$report" | tr ' ' '_')" "$secs" "$rss_mb" \
			"$((100 * rss_mb / (size_mb > 0 ? size_mb : 1)))"
		rec "-r $report" "$secs s, $rss_mb MB"
	done
	# The diff of the trace's two halves (one trace, two windows).
	best_of "$RPDTOP" -f csv --diff="$m_db" -w :50% --against-window=50%:
	printf 'ops=%s file_mb=%s report=diff_of_halves rpdtop_s=%s rpdtop_rss_mb=%s rss_pct_of_file=%s\n' \
		"$m_ops" "$size_mb" "$secs" "$rss_mb" "$((100 * rss_mb / (size_mb > 0 ? size_mb : 1)))"
	rec "diff of the trace's two halves" "$secs s, $rss_mb MB"
	# Two whole traces of this size: the trace against a copy of itself
	# (each read on its own).
	best_of "$RPDTOP" -f csv --diff="$m_db" "$m_db"
	printf 'ops=%s file_mb=%s report=diff_of_two_traces rpdtop_s=%s rpdtop_rss_mb=%s\n' "$m_ops" "$size_mb" \
		"$secs" "$rss_mb"
	rec "diff of two traces of this size" "$secs s, $rss_mb MB"
}

echo "# rpdtop benchmarks on $(nproc) cores, best of $RUNS runs"
[ "$BENCH_ONLY" != inputs ] || set -- "$(eval echo "\${$#}")" # the last OPS alone
for ops in "$@"; do
	[ -z "$BENCH_ONLY" ] || break
	db=$BENCH_CACHE/gen-$ops.rpd
	if [ ! -s "$db" ]; then
		echo "# generating $db ($ops ops)" >&2
		"$RPDGEN" --ops="$ops" --seed=42 "$db"
	fi
	label="generated $ops ops"
	rec "file" "$(($(stat -L -c %s "$db") / 1048576)) MB"
	measure "$db" "$ops" 'gemm|cijk'
done

# The real trace, tiled to the last OPS.
ops=$(eval echo "\${$#}")
if [ -n "$BENCH_ONLY" ]; then
	: # skipped
elif [ -n "$BENCH_REAL" ] && [ -r "$BENCH_REAL" ]; then
	db=$BENCH_CACHE/real-$ops.rpd
	if [ ! -s "$db" ]; then
		echo "# tiling $BENCH_REAL to $ops ops in $db" >&2
		SQLITE3=$SQLITE3 sh "$here/tile.sh" "$BENCH_REAL" "$db" "$ops"
	fi
	label="tiled vLLM $ops ops"
	rec "file" "$(($(stat -L -c %s "$db") / 1048576)) MB"
	measure "$db" "$("$SQLITE3" "$db" 'SELECT count(*) FROM rocpd_op')" 'Cijk|gemm'
else
	echo "# real trace not found (BENCH_REAL=${BENCH_REAL:-unset}): its figures skipped"
fi

# Other profilers' traces, generated: a Kineto (PyTorch profiler) JSON of
# about 1 GB (BENCH_KINETO_OPS ops) against the parse every Python tool of
# the field pays first (json.load), and an Nsight Systems export of
# BENCH_NSYS_OPS ops against sqlite3 reading the kernel table's columns
# rpdtop reads.
formats() {
	kops=${BENCH_KINETO_OPS:-1200000}
	k=$BENCH_CACHE/kineto-$kops.json
	if [ ! -s "$k" ]; then
		echo "# generating $k ($kops ops)" >&2
		"$RPDGEN" --format=kineto --ops="$kops" --seed=42 "$k" >/dev/null
	fi
	label="Kineto JSON $kops ops"
	kmb=$(($(stat -L -c %s "$k") / 1048576))
	rec "file" "$kmb MB"
	best_of "$RPDTOP" -r top "$k"
	ours=$secs
	rec "-r top" "$secs s"
	rec "batch peak RSS (-r top)" "$(share "$rss_mb" "$kmb")"
	if command -v python3 >/dev/null 2>&1; then
		best_of python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$k"
		rec "python3 json.load of the file" "$secs s, $rss_mb MB"
		rec "-r top / json.load" "$(awk "BEGIN { printf \"%.3f\", $ours / ($secs > 0 ? $secs : 0.01) }")"
	fi
	printf 'q\n' >"$BENCH_CACHE/quit.script"
	best_of env RPDTOP_SCRIPT="$BENCH_CACHE/quit.script" "$RPDTOP" "$k"
	rec "viewer: flat profile on screen, then q (script)" "$secs s"
	rec "viewer: peak RSS, flat profile (script)" "$(share "$rss_mb" "$kmb")"
	tui_times "$k" "$kops" "$kmb"
	reopen_times "$k" "$kops" "$kmb"
	nops=${BENCH_NSYS_OPS:-10000000}
	n=$BENCH_CACHE/nsys-$nops.sqlite
	if [ ! -s "$n" ]; then
		echo "# generating $n ($nops ops)" >&2
		"$RPDGEN" --format=nsys --ops="$nops" --seed=42 "$n" >/dev/null
	fi
	label="nsys export $nops ops"
	rec "file" "$(($(stat -L -c %s "$n") / 1048576)) MB"
	best_of "$RPDTOP" -r top "$n"
	ours=$secs
	rec "-r top" "$secs s, $rss_mb MB"
	best_of "$SQLITE3" "$n" 'SELECT max(start), max("end"), max(deviceId), max(streamId), max(demangledName), max(shortName), max(correlationId) FROM CUPTI_ACTIVITY_KIND_KERNEL'
	rec "sqlite3 scan of the kernel table" "$secs s"
	rec "-r top / sqlite3 scan" "$(awk "BEGIN { printf \"%.2f\", $ours / ($secs > 0 ? $secs : 0.01) }")"
}
[ "$BENCH_ONLY" = inputs ] || formats

# Many inputs: one directory of 64 files, loaded with 1 thread and with 2.
if [ "$BENCH_ONLY" != formats ]; then
dir=$BENCH_CACHE/multi-$ops
if [ ! -s "$dir/rank64.rpd" ]; then
	echo "# generating $dir (64 inputs, $ops ops)" >&2
	mkdir -p "$dir"
	i=1
	while [ $i -le 64 ]; do
		f=$(printf '%s/rank%02d.rpd' "$dir" $i)
		[ -s "$f" ] || "$RPDGEN" --ops=$((ops / 64)) --seed=$i --gpus=1 --pid-base=$((i * 10)) "$f"
		i=$((i + 1))
	done
fi
# Each rpd file is a node group of its own: -j 2 reads two at once. The
# files are read once first, so that the first figure does not pay for
# the page cache the traces before took over.
cat "$dir"/* >/dev/null
for jobs in 1 2; do
	best_of "$RPDTOP" -j $jobs -r top "$dir"
	printf 'inputs=64 ops=%s report=top jobs=%s rpdtop_s=%s rpdtop_rss_mb=%s\n' "$ops" "$jobs" "$secs" "$rss_mb"
	best_of "$RPDTOP" --whole-load -j $jobs -r top "$dir"
	printf 'inputs=64 ops=%s report=top jobs=%s whole_load_s=%s whole_load_rss_mb=%s\n' "$ops" "$jobs" "$secs" \
		"$rss_mb"
done

# Many nodes: 256 rocpd inputs recorded on 32 nodes (8 per node) totalling
# the last OPS. Batch reports read them one node group at a time: the
# peak RSS is that of the largest group, against the whole load's
# (--whole-load) of every input at once.
dir=$BENCH_CACHE/nodes-$ops
if [ ! -s "$dir/node32-r8.db" ]; then
	echo "# generating $dir (256 inputs on 32 nodes, $ops ops)" >&2
	mkdir -p "$dir"
	n=1
	while [ $n -le 32 ]; do
		r=1
		while [ $r -le 8 ]; do
			f=$dir/node$n-r$r.db
			[ -s "$f" ] || "$RPDGEN" --format=rocpd --node=node$n --ops=$((ops / 256)) \
				--seed=$((n * 8 + r)) --gpus=1 --pid-base=$((r * 10)) "$f" >/dev/null
			r=$((r + 1))
		done
		n=$((n + 1))
	done
fi
cat "$dir"/* >/dev/null
for report in top busy idle "gaps -n 100" api markers ranks findings; do
	# shellcheck disable=SC2086 # the options are words
	best_of "$RPDTOP" --whole-load -r $report "$dir"
	whole_s=$secs whole_rss=$rss_mb
	# shellcheck disable=SC2086
	best_of "$RPDTOP" -r $report "$dir"
	printf 'inputs=256 nodes=32 ops=%s report=%s whole_load_s=%s whole_load_rss_mb=%s by_node_s=%s by_node_rss_mb=%s\n' \
		"$ops" "$(echo "$report" | tr ' ' '_')" "$whole_s" "$whole_rss" "$secs" "$rss_mb"
done

# The same as an MPI job on 2 processes (rpdtop-mpi, when built), against
# one process; the peak is that of the largest process.
if [ -x "${RPDTOP_MPI:-}" ] && [ -n "${MPIRUN:-}" ] && command -v "$MPIRUN" >/dev/null 2>&1; then
	mpi_flags=
	if "$MPIRUN" --version 2>&1 | grep -q "Open MPI"; then
		mpi_flags="--oversubscribe --mca btl self,tcp --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo"
		export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fi
	for report in top busy api findings; do
		best_of "$RPDTOP" -r $report "$dir"
		one_s=$secs one_rss=$rss_mb
		# shellcheck disable=SC2086 # the flags are words
		best_of "$MPIRUN" $mpi_flags -n 2 "$RPDTOP_MPI" -r $report "$dir"
		printf 'inputs=256 nodes=32 ops=%s report=%s one_process_s=%s one_process_rss_mb=%s mpirun_n2_s=%s mpirun_n2_rss_mb=%s\n' \
			"$ops" "$report" "$one_s" "$one_rss" "$secs" "$rss_mb"
	done
else
	echo "# rpdtop-mpi not built or no mpirun: MPI figures skipped"
fi

fi # many inputs

# The table: a row per figure, a column per trace, and the goal.
goal() {
	case $1 in
	"-r top") echo "<= 0.5 s (Kineto: <= 0.25x json.load; nsys: <= 2x the scan)" ;;
	"-r top / json.load") echo "<= 0.25" ;;
	"-r top / sqlite3 scan") echo "<= 2" ;;
	"viewer: flat profile on screen"*) echo "<= 0.5 s (Kineto 1 GB: <= 5 s)" ;;
	"viewer: timeline with CPU lanes"*) echo "<= 2.5 s" ;;
	"viewer: peak RSS"*) echo "<= 60 % of the file" ;;
	"batch peak RSS"*) echo "<= 15 % of the file" ;;
	"export of 10 %"*) echo "<= 2 s" ;;
	"-r gaps -n 1000" | "-r idle" | "-r launch" | "-r graphs" | "-r breakdown" | "-r categories" | "-r api" | "-r markers" | \
		"-r ranges -n 1000" | "-r ranks" | "-r steps") echo "<= 1 s" ;;
	"-r findings"*) echo "<= 1.5x the slowest report it draws on" ;;
	"diff of two traces"*) echo "<= 2.5 s" ;;
	"reopen: -r top"* | "reopen: viewer's flat profile"*) echo "<= 0.3 s (Kineto 1 GB: < 0.5 s)" ;;
	"reopen: viewer with everything"*) echo "<= 1 s" ;;
	*) echo "" ;;
	esac
}
echo
echo "# The figures of each trace (wall time best of $RUNS; peak RSS, as a share of the file)"
awk -F '\t' '
	!($1 in seen) { seen[$1] = 1; labels[++nl] = $1 }
	!($2 in fseen) { fseen[$2] = 1; figs[++nf] = $2 }
	{ v[$1 SUBSEP $2] = $3 }
	END {
		printf "| figure |"; for (i = 1; i <= nl; i++) printf " %s |", labels[i]; print " goal |"
		printf "|---|"; for (i = 1; i <= nl; i++) printf "---|"; print "---|"
		for (f = 1; f <= nf; f++) {
			printf "| %s |", figs[f]
			for (i = 1; i <= nl; i++) { x = v[labels[i] SUBSEP figs[f]]; printf " %s |", x == "" ? "-" : x }
			printf " GOAL:%s\n", figs[f]
		}
	}' "$summary" | while IFS= read -r line; do
	case $line in
	*" GOAL:"*) printf '%s %s |\n' "${line%% GOAL:*}" "$(goal "${line#* GOAL:}")" ;;
	*) printf '%s\n' "$line" ;;
	esac
done
