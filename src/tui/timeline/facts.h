/* What the timeline's detail line says about the event under the cursor,
 * as text: a kernel's launch sizes, its launch (the call, the latency,
 * the queue delay), a copy's bytes and bandwidth, a counter's value. No
 * drawing here; times are exact to dt ns (a column's span). */
#ifndef RPDTOP_TIMELINE_FACTS_H
#define RPDTOP_TIMELINE_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/counters.h"
#include "analysis/gaps.h"
#include "analysis/graphs.h"
#include "trace/launch_dims.h"
#include "trace/trace.h"

/* "  grid 1024x1x1  workgroup 256x1x1" (nothing for NULL dims). */
void tl_facts_sizes(const struct launch_dims *dims, char *buf, size_t size);

/* ", launched by hipLaunchKernel at +1.20 ms, latency 12.20 us, queue
 * delay 3.50 us" for an op whose launch is known (else nothing): the
 * latency is the op's start less the call's, the queue delay its start
 * less the call's end (negative when the op started before the call
 * returned). The call's time is from origin. */
/* An op's launch: the call, when, latency and queue delay; for a graph's
 * node (node: its place, else NULL) its place in the replay instead. */
void tl_facts_launch(const struct trace *t, uint32_t op, const struct graph_place *node, int64_t origin,
		     int64_t dt, char *buf, size_t size);

/* "  1048576 bytes  12.91 GB/s  from GPU 0 to CPU 0" for a copy whose
 * size is known (else nothing): the bandwidth is its bytes over its
 * duration. */
void tl_facts_copy(const struct trace *t, uint32_t op, char *buf, size_t size);

/* "  value 1615 MHz  max in view 1800 MHz  GPU 2" for a counter series:
 * its value at time at and the most it reaches in [from, to). Returns
 * the counter's name. */
const char *tl_facts_counter(const struct trace *t, const struct counter_index *ix, uint32_t series,
			     int64_t at, int64_t from, int64_t to, char *line, size_t size);

/* "  gap 45.60 us (host wait)  +1.20 ms to +1.25 ms  GPU 0  after gemm
 * before nccl" for a gap of a GPU's busy set: its length, cause, start
 * and end from origin, its GPU, and the names (as shown) of the ops that
 * end where it starts and start where it ends. */
/* Idle time of a GPU before its first op (leading) or after its last,
 * within the trace's span or the window: from .. to. */
void tl_facts_idle_end(const struct trace *t, const struct gap_lane *l, int64_t from, int64_t to, int leading,
		       int64_t origin, int64_t dt, char *buf, size_t size);
void tl_facts_gap(const struct trace *t, const struct gap *g, const char *before, const char *after,
		  int64_t origin, int64_t dt, char *buf, size_t size);
/* A gap's cause in words: "host wait", "kernel wait", "other". */
const char *tl_gap_cause_text(enum gap_cause c);

#endif
