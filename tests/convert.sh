# The base facts of a trace, read straight from its inputs' own tables by
# SQL (or for Kineto JSON by tests/kineto.py), as the rows tests/convert.py
# computes its figures from: the oracle of the conversions
# (tests/convert.test). Sourced after lib.sh and rocpd.sh.
#
# facts DIR FILE...: the facts of FILEs (rpd, rocpd, Nsight Systems
# exports, Kineto traces) into DIR, keys told apart by file; with
# CV_APART=1 the files are of different machines, whose GPUs are told
# apart too. For rpd files, CV_OPS and CV_APIS are SQL conditions on the
# op o and the call a kept (default all), and CV_NO_BARRIERS=1 leaves
# barrier ops out.

cv_tab=$(printf '\t')

cv_sql() {
	"$SQLITE3" -readonly -batch -noheader -separator "$cv_tab" "$@"
}

cv_kind() {
	n=$(cv_sql "$1" "SELECT count(*) FROM sqlite_master WHERE name = 'rocpd_op'" 2>/dev/null) || n=
	if [ "$n" = 1 ]; then echo rpd; return; fi
	n=$(cv_sql "$1" "SELECT count(*) FROM sqlite_master WHERE name LIKE 'rocpd\_kernel\_dispatch\_%' ESCAPE '\\'" 2>/dev/null) || n=
	if [ -n "$n" ] && [ "$n" -gt 0 ]; then echo rocpd; return; fi
	n=$(cv_sql "$1" "SELECT count(*) FROM sqlite_master WHERE name = 'StringIds'" 2>/dev/null) || n=
	if [ "$n" = 1 ]; then echo nsys; return; fi
	echo kineto
}

# An rpd file: an op is named by its description, else its opType; a
# roctx marker is a UserMarker call named by its text (its args); an op's
# calls are its links; a copy's size is its call's rocpd_copyapi row; a
# graph launch names its graph in its args.
cv_facts_rpd() {
	d=$1 f=$2 k=$3
	nb=1
	[ "${CV_NO_BARRIERS:-}" = 1 ] && nb="t.string NOT LIKE 'Barrier%'"
	cv_sql "$f" "SELECT '$k' || 'o' || o.id, '$gp' || o.gpuId, o.start, o.\"end\",
		CASE WHEN d.string <> '' THEN d.string ELSE t.string END
		FROM rocpd_op o JOIN rocpd_string d ON d.id = o.description_id JOIN rocpd_string t ON t.id = o.opType_id
		WHERE (${CV_OPS:-1}) AND ($nb)" >>"$d/ops.tsv"
	cv_sql "$f" "SELECT '$k' || 'a' || a.id, '$k' || a.pid || '/' || a.tid, a.start, a.\"end\",
		CASE WHEN n.string = 'UserMarker' AND g.string <> '' THEN g.string ELSE n.string END, n.string = 'UserMarker'
		FROM rocpd_api a JOIN rocpd_string n ON n.id = a.apiName_id JOIN rocpd_string g ON g.id = a.args_id
		WHERE (${CV_APIS:-1})" >>"$d/calls.tsv"
	cv_sql "$f" "SELECT '$k' || 'a' || api_id, '$k' || 'o' || op_id, id FROM rocpd_api_ops" >>"$d/links.tsv"
	cv_sql "$f" "SELECT '$k' || 'a' || a.id, g.string FROM rocpd_api a JOIN rocpd_string n ON n.id = a.apiName_id
		JOIN rocpd_string g ON g.id = a.args_id WHERE n.string GLOB '*GraphLaunch*' AND g.string LIKE '%graphExec%'" >>"$d/execs.tsv"
	cv_sql "$f" "SELECT 'call', '$k' || 'a' || api_ptr_id, size FROM rocpd_copyapi WHERE typeof(size) = 'integer'" >>"$d/copies.tsv"
}

# A rocpd file, process by process (suffix S): a kernel is named by its
# symbol without .kd (the display name when the symbol is empty), a copy
# a GPU took part in by its operation or its agents' kinds, a copy between
# host agents is a host copy; a GPU is its agent's type_index; calls are
# regions and samples (a sample named by its track), a marker (by its
# category or name) named by its event's message; an op's call is the
# region whose event shares its event's stack_id; a replay's graph is its
# dispatches' graph_exec_id.
cv_facts_rocpd() {
	d=$1 f=$2 k=$3
	# A file of several nodes (merged from several machines) tells its
	# GPUs apart by node.
	nodes=$(for s in $(suffixes "$f"); do cv_sql "$f" "SELECT hostname FROM rocpd_info_node$s"; done | sort -u | wc -l)
	for s in $(suffixes "$f"); do
		gnk="'$gp'" gnm="'$gp'"
		if [ "$nodes" -gt 1 ]; then
			gnk="'$gp' || (SELECT hostname FROM rocpd_info_node$s WHERE id = K.nid) || ':'"
			gnm="'$gp' || (SELECT hostname FROM rocpd_info_node$s WHERE id = M.nid) || ':'"
		fi
		t="$k$s"
		mk="(coalesce(C.string, '') LIKE 'MARKER%' OR N.string IN ('roctxThreadRangeA', 'roctxProcessRangeA', 'roctxMarkA'))"
		cv_sql "$f" "SELECT '$t' || 'k' || K.id, $gnk || coalesce(A.type_index, A.logical_index), K.start, K.\"end\",
			CASE WHEN coalesce(Y.kernel_name, '') = '' THEN Y.display_name WHEN substr(Y.kernel_name, -3) = '.kd'
			THEN substr(Y.kernel_name, 1, length(Y.kernel_name) - 3) ELSE Y.kernel_name END
			FROM rocpd_kernel_dispatch$s K JOIN rocpd_info_kernel_symbol$s Y ON Y.id = K.kernel_id
			LEFT JOIN rocpd_info_agent$s A ON A.id = K.agent_id
			UNION ALL
			SELECT '$t' || 'm' || M.id, $gnm || CASE WHEN D.type = 'GPU' THEN coalesce(D.type_index, D.logical_index)
			ELSE coalesce(F.type_index, F.logical_index) END, M.start, M.\"end\",
			CASE WHEN N.string = 'MEMORY_COPY_HOST_TO_DEVICE' THEN 'CopyHostToDevice'
			WHEN N.string = 'MEMORY_COPY_DEVICE_TO_HOST' THEN 'CopyDeviceToHost'
			WHEN N.string = 'MEMORY_COPY_DEVICE_TO_DEVICE' THEN 'CopyDeviceToDevice'
			WHEN N.string = 'MEMORY_COPY_PEER_TO_PEER' THEN 'CopyPeerToPeer'
			WHEN D.type = 'GPU' AND F.type = 'GPU' THEN 'CopyDeviceToDevice'
			WHEN D.type = 'GPU' THEN 'CopyHostToDevice' ELSE 'CopyDeviceToHost' END
			FROM rocpd_memory_copy$s M LEFT JOIN rocpd_string$s N ON N.id = M.name_id
			LEFT JOIN rocpd_info_agent$s D ON D.id = M.dst_agent_id LEFT JOIN rocpd_info_agent$s F ON F.id = M.src_agent_id
			WHERE D.type = 'GPU' OR F.type = 'GPU'" >>"$d/ops.tsv"
		cv_sql "$f" "SELECT M.start, M.\"end\" FROM rocpd_memory_copy$s M
			LEFT JOIN rocpd_info_agent$s D ON D.id = M.dst_agent_id LEFT JOIN rocpd_info_agent$s F ON F.id = M.src_agent_id
			WHERE coalesce(D.type, '') <> 'GPU' AND coalesce(F.type, '') <> 'GPU'" >>"$d/hosts.tsv"
		cv_sql "$f" "SELECT '$t' || 'r' || R.id, '$t' || P.pid || '/' || TH.tid, R.start, R.\"end\",
			CASE WHEN $mk THEN coalesce(json_extract(E.extdata, '\$.message'), N.string) ELSE N.string END, $mk
			FROM rocpd_region$s R LEFT JOIN rocpd_event$s E ON E.id = R.event_id
			LEFT JOIN rocpd_string$s C ON C.id = E.category_id LEFT JOIN rocpd_string$s N ON N.id = R.name_id
			LEFT JOIN rocpd_info_process$s P ON P.id = R.pid LEFT JOIN rocpd_info_thread$s TH ON TH.id = R.tid
			UNION ALL
			SELECT '$t' || 's' || SA.id, '$t' || P.pid || '/' || TH.tid, SA.timestamp, SA.timestamp,
			CASE WHEN $mk THEN coalesce(json_extract(E.extdata, '\$.message'), N.string) ELSE N.string END, $mk
			FROM rocpd_sample$s SA JOIN rocpd_track$s TR ON TR.id = SA.track_id
			LEFT JOIN rocpd_event$s E ON E.id = SA.event_id
			LEFT JOIN rocpd_string$s C ON C.id = E.category_id LEFT JOIN rocpd_string$s N ON N.id = TR.name_id
			LEFT JOIN rocpd_info_process$s P ON P.id = TR.pid LEFT JOIN rocpd_info_thread$s TH ON TH.id = TR.tid
			WHERE TR.tid IS NOT NULL" >>"$d/calls.tsv"
		for op in "k rocpd_kernel_dispatch" "m rocpd_memory_copy"; do
			# shellcheck disable=SC2086
			set -- $op
			cv_sql "$f" "SELECT '$t' || 'r' || R.id, '$t' || '$1' || O.id, 0 FROM $2$s O
				JOIN rocpd_event$s E ON E.id = O.event_id JOIN rocpd_event$s E2 ON E2.stack_id = E.stack_id
				JOIN rocpd_region$s R ON R.event_id = E2.id
				LEFT JOIN rocpd_string$s C ON C.id = E2.category_id LEFT JOIN rocpd_string$s N ON N.id = R.name_id
				WHERE E.stack_id <> 0 AND NOT $mk" >>"$d/links.tsv"
		done
		if [ "$(cv_sql "$f" "SELECT count(*) FROM pragma_table_info('rocpd_kernel_dispatch$s') WHERE name = 'graph_exec_id'")" = 1 ]; then
			cv_sql "$f" "SELECT DISTINCT '$t' || 'r' || R.id, K.graph_exec_id FROM rocpd_kernel_dispatch$s K
				JOIN rocpd_event$s E ON E.id = K.event_id JOIN rocpd_event$s E2 ON E2.stack_id = E.stack_id
				JOIN rocpd_region$s R ON R.event_id = E2.id WHERE E.stack_id <> 0 AND K.graph_exec_id <> 0" >>"$d/execs.tsv"
		fi
		cv_sql "$f" "SELECT 'op', '$t' || 'm' || id, size FROM rocpd_memory_copy$s WHERE typeof(size) = 'integer'" >>"$d/copies.tsv"
	done
}

# An Nsight Systems export, as tests/nsys.sh reads one: an op's call is
# the runtime call with its correlationId that starts first; NVTX ranges
# and marks are markers named by their text.
cv_facts_nsys() {
	d=$1 f=$2 k=$3
	th="((globalTid >> 24) & 16777215) || '/' || (globalTid & 16777215)"
	cv_sql "$f" "SELECT '$k' || 'k' || k.rowid, '$gp' || k.deviceId, k.start, k.\"end\",
			CASE WHEN k.demangledName IS NOT NULL THEN (SELECT value FROM StringIds WHERE id = k.demangledName)
			ELSE (SELECT value FROM StringIds WHERE id = k.shortName) END
		FROM CUPTI_ACTIVITY_KIND_KERNEL k
		UNION ALL
		SELECT '$k' || 'm' || rowid, '$gp' || deviceId, start, \"end\", CASE WHEN copyKind IN (1, 3, 11) THEN 'CopyHostToDevice'
			WHEN copyKind IN (2, 4, 12) THEN 'CopyDeviceToHost' WHEN copyKind IN (5, 6, 7, 8, 13) THEN 'CopyDeviceToDevice'
			WHEN copyKind = 9 THEN 'CopyHostToHost' WHEN copyKind = 10 THEN 'CopyPeerToPeer' ELSE 'CopyUnknown' END
		FROM CUPTI_ACTIVITY_KIND_MEMCPY
		UNION ALL
		SELECT '$k' || 's' || rowid, '$gp' || deviceId, start, \"end\", 'FillBuffer' FROM CUPTI_ACTIVITY_KIND_MEMSET" >>"$d/ops.tsv"
	nvtx=$(cv_sql "$f" "SELECT count(*) FROM sqlite_master WHERE name = 'NVTX_EVENTS'")
	cv_sql "$f" "SELECT '$k' || 'r' || rowid, '$k' || $th, start, \"end\", (SELECT value FROM StringIds WHERE id = nameId), 0
		FROM CUPTI_ACTIVITY_KIND_RUNTIME" >>"$d/calls.tsv"
	[ "$nvtx" = 1 ] && cv_sql "$f" "SELECT '$k' || 'v' || rowid, '$k' || $th, start,
			CASE WHEN eventType = 34 OR \"end\" IS NULL THEN start ELSE \"end\" END,
			coalesce(text, (SELECT value FROM StringIds WHERE id = textId), 'UserMarker'), 1
		FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)" >>"$d/calls.tsv"
	cv_sql "$f" "WITH first AS (SELECT rowid AS cid, correlationId AS corr,
			row_number() OVER (PARTITION BY correlationId ORDER BY start, rowid) AS n
			FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IS NOT NULL AND correlationId <> 0),
		ops AS (SELECT 'k' AS t, rowid AS id, correlationId AS corr FROM CUPTI_ACTIVITY_KIND_KERNEL
			UNION ALL SELECT 'm', rowid, correlationId FROM CUPTI_ACTIVITY_KIND_MEMCPY
			UNION ALL SELECT 's', rowid, correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET)
		SELECT '$k' || 'r' || f.cid, '$k' || o.t || o.id, 0 FROM ops o JOIN first f ON f.corr = o.corr AND f.n = 1" >>"$d/links.tsv"
	cv_sql "$f" "SELECT 'op', '$k' || 'm' || rowid, bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE typeof(bytes) = 'integer'" >>"$d/copies.tsv"
}

facts() {
	d=$1
	shift
	rm -rf "$d" && mkdir -p "$d" && : >"$d/ops.tsv" && : >"$d/calls.tsv" && : >"$d/links.tsv" || return 1
	i=0
	for f; do
		i=$((i + 1))
		gp=
		[ "${CV_APART:-}" = 1 ] && gp="f$i:"
		case $(cv_kind "$f") in
		rpd) cv_facts_rpd "$d" "$f" "f$i:" ;;
		rocpd) cv_facts_rocpd "$d" "$f" "f$i:" ;;
		nsys) cv_facts_nsys "$d" "$f" "f$i:" ;;
		kineto) python3 "$srcdir/tests/convert.py" kineto "$f" "$d" "f$i:" "${CV_APART:-0}" ;;
		esac || return 1
	done
}

# figures DIR SECTION...: the oracle's figures of the facts in DIR.
figures() {
	python3 "$srcdir/tests/convert.py" figures "$@"
}

# The checks the conversion tests share.

# Every section of the figures.
all="top busy api markers graphs replays links copies hosts"

# same WHAT WANT GOT: two files of figures are equal.
same() {
	if [ -s "$2" ] && cmp -s "$2" "$3"; then
		pass "$1 ($(grep -vc '^==' "$2") rows)"
	else
		fail "$1"
		diff "$2" "$3" | head -10 >&2
	fi
}

# no_hosts FILE: the figures of FILE as rpd holds them: no host copies
# (hosts is the last section).
no_hosts() {
	sed '/^== hosts$/q' "$1"
	echo "0	0"
}

# unsized FILE: the figures with the copies' counts left out (rocpd gives
# every copy a size: 0 when the input did not know it), and a name's
# copies of no bytes at all.
unsized() {
	awk -F'\t' '/^== copies/ { c = 1 } /^== hosts/ { c = 0 } c && NF == 3 && $3 == 0 { next }
		c && NF == 3 { $2 = "-" } { print }' OFS='\t' "$1"
}

# oracle NAME SECTIONS FILE...: the figures of FILEs into $tmp/NAME.
oracle() {
	oname=$1 osecs=$2
	shift 2
	facts "$tmp/facts" "$@" || fail "$oname: facts"
	# shellcheck disable=SC2086
	figures "$tmp/facts" $osecs >"$tmp/$oname" || fail "$oname: figures"
}

# conv FORMAT OUT ARG...: rpdtop converts (status 0, one line on stderr).
conv() {
	fmt=$1 out=$2
	shift 2
	if "$RPDTOP" --no-cache --export-format="$fmt" -o "$out" "$@" >"$tmp/out" 2>"$tmp/err" &&
		[ -s "$out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ]; then
		pass "converted to $fmt: $(basename "$out")"
	else
		fail "converting to $fmt: $(basename "$out"): $(cat "$tmp/err")"
	fi
}

# checked OUT: SQLite's own checks pass on a converted file.
checked() {
	check_eq "$(basename "$1"): integrity_check" ok "$(sql "$1" 'PRAGMA integrity_check')"
	check_eq "$(basename "$1"): foreign_key_check" "" "$(sql "$1" 'PRAGMA foreign_key_check')"
}

# meta FILE TAG: the values of a metadata row (rpd: rocpd_metadata; rocpd:
# the first process's).
meta() {
	if [ "$(cv_kind "$1")" = rpd ]; then
		sql "$1" "SELECT value FROM rocpd_metadata WHERE tag = '$2' ORDER BY id"
	else
		sql "$1" "SELECT value FROM rocpd_metadata$(suffixes "$1" | head -1) WHERE tag = '$2' ORDER BY id"
	fi
}

# views OUT: rocpd's own views work on a converted file and agree with
# its base tables.
views() {
	f=$1 vb=$(basename "$1")
	vk=$(sql "$f" "SELECT count(*) FROM rocpd_kernel_dispatch")
	vm=$(sql "$f" "SELECT count(*) FROM rocpd_memory_copy")
	check_eq "$vb: kernels view" "$vk" "$(sql "$f" "SELECT count(*) FROM kernels")"
	check_eq "$vb: memory_copies view" "$vm" "$(sql "$f" "SELECT count(*) FROM memory_copies")"
	check_eq "$vb: top_kernels view" "$vk $(sql "$f" "SELECT sum(\"end\" - start) FROM rocpd_kernel_dispatch")" \
		"$(sql -separator ' ' "$f" "SELECT sum(total_calls), CAST(round(sum(total_duration) * 1000) AS INTEGER) FROM top_kernels")"
	check_eq "$vb: top view" "$(sql "$f" "SELECT (SELECT count(*) FROM rocpd_region) + $vk + $vm")" \
		"$(sql "$f" "SELECT sum(total_calls) FROM top")"
	check_eq "$vb: busy view" "$(sql "$f" "SELECT sum(\"end\" - start) FROM (SELECT start, \"end\" FROM rocpd_kernel_dispatch
			UNION ALL SELECT start, \"end\" FROM rocpd_memory_copy)")" \
		"$(sql "$f" "SELECT sum(GpuTime) FROM busy")"
	check_eq "$vb: regions view" "$(sql "$f" "SELECT count(*) FROM rocpd_region")" "$(sql "$f" "SELECT count(*) FROM regions")"
	check_eq "$vb: samples view" "$(sql "$f" "SELECT count(*) FROM rocpd_sample")" "$(sql "$f" "SELECT count(*) FROM samples")"
}

# rpd_views OUT: rpd's views over a converted file.
rpd_views() {
	f=$1 vb=$(basename "$1")
	check_eq "$vb: op view" "$(sql "$f" "SELECT count(*) FROM rocpd_op")" "$(sql "$f" "SELECT count(*) FROM op")"
	check_eq "$vb: api view" "$(sql "$f" "SELECT count(*) FROM rocpd_api")" "$(sql "$f" "SELECT count(*) FROM api")"
	check_eq "$vb: busy view" "$(sql -separator ' ' "$f" "SELECT gpuId, sum(\"end\" - start) FROM rocpd_op GROUP BY gpuId")" \
		"$(sql -separator ' ' "$f" "SELECT gpuId, GpuTime FROM busy ORDER BY gpuId")"
}

# reports WHAT IN OUT LEFT: rpdtop's top, api and graphs on OUT equal
# those on IN (a second check). The ops whose names begin with LEFT are
# left out (barriers of rocpd, host copies of rpd): top without them, its
# shares then of another whole, not compared. A graph is named as its
# format names it: not compared.
reports() {
	if [ "$(sql "$3" "SELECT 1 FROM rocpd_metadata$(suffixes "$3" | head -1) WHERE tag LIKE 'rpdtop::left_out%'" 2>/dev/null)" = 1 ]; then
		"$RPDTOP" --no-cache -r top -f csv "$2" | grep -v "^$4" | cut -d, -f1-6 >"$tmp/r.want"
		"$RPDTOP" --no-cache -r top -f csv "$3" | cut -d, -f1-6 >"$tmp/r.got"
	else
		"$RPDTOP" --no-cache -r top -f csv "$2" >"$tmp/r.want"
		"$RPDTOP" --no-cache -r top -f csv "$3" >"$tmp/r.got"
	fi
	same "$1: rpdtop -r top" "$tmp/r.want" "$tmp/r.got"
	"$RPDTOP" --no-cache -r api -f csv "$2" >"$tmp/r.want"
	"$RPDTOP" --no-cache -r api -f csv "$3" >"$tmp/r.got"
	same "$1: rpdtop -r api" "$tmp/r.want" "$tmp/r.got"
	"$RPDTOP" --no-cache -r graphs -f csv "$2" | cut -d, -f2- | sort >"$tmp/r.want"
	"$RPDTOP" --no-cache -r graphs -f csv "$3" | cut -d, -f2- | sort >"$tmp/r.got"
	same "$1: rpdtop -r graphs" "$tmp/r.want" "$tmp/r.got"
}
