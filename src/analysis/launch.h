/* Launch latency: how long after its launching call an op began. For an
 * op with a known launch, launch = op start - call start and queue = op
 * start - call end (negative when the op began before the call returned).
 * Per-instance figures: ops in the window count whole. */
#ifndef RPDTOP_LAUNCH_STATS_H
#define RPDTOP_LAUNCH_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "session/select.h"
#include "trace/trace.h"

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

#endif
