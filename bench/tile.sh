#!/bin/sh
# Tile a real rpd trace to a given number of GPU ops: copy c of every row
# has its ids moved by c strides (a stride is the table's id range, so the
# sparse session ids of the original stay sparse) and its times moved by c
# trace lengths plus a millisecond, and every reference between tables
# moves with the id it points to. The copies double each round, the last
# round takes only what is still needed, so the result has the first copies
# whose ops reach OPS.
#
#   bench/tile.sh SOURCE.rpd OUT.rpd OPS
#
# Tables tiled: rocpd_op, rocpd_api, rocpd_api_ops, rocpd_kernelapi,
# rocpd_copyapi, rocpd_monitor and, when present, ext_autogradapi and
# ext_callstack (rocmProfileData's autograd and call-stack extensions).
# Strings, metadata and code objects are shared by all copies, as names
# repeat in a long run.
set -eu
SQLITE3=${SQLITE3:-sqlite3}
[ $# -eq 3 ] || { echo "usage: $0 SOURCE.rpd OUT.rpd OPS" >&2; exit 2; }
src=$1 out=$2 want=$3

q() { "$SQLITE3" -batch -noheader "$tmp" "$@"; }
has() { [ "$(q "SELECT count(*) FROM sqlite_schema WHERE type='table' AND name='$1'")" = 1 ]; }
# stride TABLE KEY: "min stride" of the table's key (stride >= 1).
stride() { q "SELECT ifnull(min($2),0), ifnull(max($2)-min($2)+1,1) FROM $1" | tr '|' ' '; }

tmp=$out.tmp
rm -f "$tmp"
cp "$src" "$tmp"
chmod u+w "$tmp"
trap 'rm -f "$tmp"' EXIT

ops=$(q "SELECT count(*) FROM rocpd_op")
[ "$ops" -gt 0 ] || { echo "$0: $src has no ops" >&2; exit 1; }
copies=$(((want + ops - 1) / ops))
set -- $(stride rocpd_op id); omin=$1 os=$2
set -- $(stride rocpd_api id); amin=$1 as=$2
set -- $(stride rocpd_api_ops id); xmin=$1 xs=$2
set -- $(stride rocpd_monitor id); mmin=$1 ms=$2
span=$(q "SELECT max(e) - min(s) + 1000000 FROM (
	SELECT min(start) s, max(end) e FROM rocpd_op UNION ALL
	SELECT min(start), max(end) FROM rocpd_api)")
ext=
if has ext_autogradapi && has ext_callstack; then
	set -- $(stride ext_callstack id); cmin=$1 cs=$2
	ext=1
fi

# One round: copies [have, have+n) made from copies [0, n).
round() {
	o=$1 n=$2
	{
		echo "BEGIN;"
		echo "INSERT INTO rocpd_op SELECT id+$o*$os, gpuId, queueId, sequenceId,
			completionSignal, start+$o*$span, end+$o*$span, description_id,
			opType_id FROM rocpd_op WHERE id < $omin+$n*$os ORDER BY id;"
		echo "INSERT INTO rocpd_api SELECT id+$o*$as, pid, tid, start+$o*$span,
			end+$o*$span, apiName_id, args_id FROM rocpd_api
			WHERE id < $amin+$n*$as ORDER BY id;"
		echo "INSERT INTO rocpd_api_ops SELECT id+$o*$xs, api_id+$o*$as,
			op_id+$o*$os FROM rocpd_api_ops WHERE id < $xmin+$n*$xs ORDER BY id;"
		echo "INSERT INTO rocpd_kernelapi SELECT api_ptr_id+$o*$as, stream, gridX,
			gridY, gridZ, workgroupX, workgroupY, workgroupZ, groupSegmentSize,
			privateSegmentSize, kernelArgAddress, aquireFence, releaseFence,
			codeObject_id, kernelName_id FROM rocpd_kernelapi
			WHERE api_ptr_id < $amin+$n*$as ORDER BY api_ptr_id;"
		echo "INSERT INTO rocpd_copyapi SELECT api_ptr_id+$o*$as, stream, size,
			width, height, kind, dst, src, dstDevice, srcDevice, sync, pinned
			FROM rocpd_copyapi WHERE api_ptr_id < $amin+$n*$as ORDER BY api_ptr_id;"
		echo "INSERT INTO rocpd_monitor SELECT id+$o*$ms, deviceType, deviceId,
			monitorType, start+$o*$span, end+$o*$span, value FROM rocpd_monitor
			WHERE id < $mmin+$n*$ms ORDER BY id;"
		if [ -n "$ext" ]; then
			echo "INSERT INTO ext_autogradapi SELECT api_ptr_id+$o*$as,
				autogradName_id, seq, op_id, sizes, input_op_ids FROM ext_autogradapi
				WHERE api_ptr_id < $amin+$n*$as ORDER BY api_ptr_id;"
			echo "INSERT INTO ext_callstack SELECT id+$o*$cs, parent_id+$o*$as,
				child_id+$o*$as, depth, cpu_time, gpu_time FROM ext_callstack
				WHERE id < $cmin+$n*$cs ORDER BY id;"
		fi
		echo "COMMIT;"
	} | "$SQLITE3" -batch "$tmp" -cmd "PRAGMA journal_mode=OFF" \
		-cmd "PRAGMA synchronous=OFF" -cmd "PRAGMA cache_size=-262144" >/dev/null
}

have=1
while [ $have -lt $copies ]; do
	n=$have
	[ $((have + n)) -le $copies ] || n=$((copies - have))
	round $have $n
	have=$((have + n))
done
got=$(q "SELECT count(*) FROM rocpd_op")
[ "$got" -eq $((copies * ops)) ] || { echo "$0: expected $((copies * ops)) ops, got $got" >&2; exit 1; }
mv "$tmp" "$out"
trap - EXIT
echo "$out: $copies copies of $src, $got ops" >&2
