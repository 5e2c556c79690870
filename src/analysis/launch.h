/* Launch latency: how long after its launching call an op began. For an
 * op with a known launch that is not a graph's node (analysis/graphs.h),
 * launch = op start - call start and queue = op start - call end
 * (negative when the op began before the call returned). Per-instance
 * figures: ops in the window count whole. */
#ifndef RPDTOP_LAUNCH_STATS_H
#define RPDTOP_LAUNCH_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/durstat.h"
#include "analysis/part.h"
#include "session/select.h"
#include "trace/trace.h"
#include "util/bytes.h"
#include "util/keymap.h"

struct launch_row {
	uint32_t name; /* string id of the ops' name */
	uint64_t ops;  /* selected ops of this name with a known launch */
	int64_t launch_p50, launch_p90, launch_max;
	int64_t queue_p50, queue_p90, queue_max;
	int64_t call_avg; /* mean duration of their calls (one per op), truncated */
};

struct launch_stats {
	struct launch_row *rows; /* most ops first, then by name */
	size_t n;
	uint64_t ops; /* ops with a known launch */
};

void launch_stats_by_name(const struct trace *t, const struct selection *sel, struct launch_stats *out);
void launch_stats_free(struct launch_stats *s);

/* The partial result of launch_stats_by_name, to be merged with others:
 * per name its ops, the exact sum of their calls' durations and the
 * mergeable statistics (analysis/durstat.h) of its latencies; names are
 * string ids of a trace. */
struct launch_part_row {
	uint32_t name;
	uint64_t ops;
	__int128 calls;
	struct durstat launch, queue;
};

struct launch_part {
	struct launch_part_row *rows;
	size_t n, cap;
	struct keymap map; /* row by string id */
	uint64_t ops;
};

void launch_part_init(struct launch_part *a);
void launch_part_free(struct launch_part *a);
void launch_part_add(struct launch_part *a, const struct trace *t, const struct selection *sel);
void launch_part_encode(const struct launch_part *a, const struct trace *t, struct bytes_out *b);
/* -1 when the bytes are malformed; names are interned in strings. */
int launch_part_merge(struct launch_part *a, const struct part_in *in);
/* The figures of what a holds (names: string ids of t); a is emptied. */
void launch_part_finish(struct launch_part *a, const struct trace *t, struct launch_stats *out);

#endif
