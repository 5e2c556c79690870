/* Graph replays. An op launched by a graph launch call (hipGraphLaunch,
 * cudaGraphLaunch; trace_graph_launch_name) is a node of that call's
 * replay: where it starts is its place in the replay, not a launch cost.
 * A graph is named as its input names it (rpd: the call's graphExec
 * argument), else by the launching call's name.
 *
 * Per graph, over its replays with ops in the selection (ops in a window
 * count whole): replays, the most ops one replay ran (nodes), its ops;
 * launch: a replay's first op start - the call's start; duration: its
 * first op start to its last op end; gpu: the union of its ops' intervals
 * (summed over replays); inner gap: duration - gpu (the time inside
 * replays when the replay ran no op, other work on the GPU or not); busy
 * percent: gpu over the replays' summed duration. */
#ifndef RPDTOP_GRAPHS_H
#define RPDTOP_GRAPHS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/durstat.h"
#include "analysis/part.h"
#include "session/select.h"
#include "trace/trace.h"
#include "util/bytes.h"
#include "util/idmap.h"
#include "util/keymap.h"
#include "util/memreport.h"

/* The graph launch call that launched op, or TRACE_NONE. */
uint32_t graph_call_of(const struct trace *t, const struct graph_calls *g, uint32_t op);
/* The graph a graph launch call replayed: a string id. */
uint32_t graph_name_of(const struct trace *t, uint32_t api);

/* Where an op is in its replay: node (1-based, by start, then row) of
 * nodes; the replay's number among its graph's replays (1-based, by the
 * calls' starts, then rows; replays: its graph's calls that launched an
 * op) and the call. */
struct graph_place {
	uint32_t call;
	uint64_t node, nodes, replay, replays;
	int64_t call_start;
};

/* Every graph node's place, found once for a trace and its API rows (a
 * pass over the ops and a sort of the nodes), so that asking is a
 * lookup: the timeline asks at every move of its cursor. */
struct graph_index {
	struct graph_calls calls;
	struct idmap slot_of; /* call -> slot */
	size_t nslots;
	size_t *first;    /* slot k's nodes: node[first[k] .. first[k + 1]) */
	uint32_t *node;   /* op rows, each slot's by start, then row */
	uint32_t *call;   /* per slot */
	uint64_t *replay; /* per slot: its number in its graph */
	uint64_t *replays;
};

void graph_index_build(struct graph_index *x, const struct trace *t);
/* 0 when op is no graph node. */
int graph_index_place(const struct graph_index *x, const struct trace *t, uint32_t op,
		      struct graph_place *out);
void graph_index_free(struct graph_index *x);
/* What the index holds (--debug-memory). */
void graph_index_memory(const struct graph_index *x, struct mem_report *r);

struct graph_row {
	uint32_t name; /* string id */
	uint64_t replays, nodes, ops;
	int64_t launch_p50, duration_p50, duration_max;
	int64_t gpu, duration, inner_gap; /* summed over replays */
	double busy_percent;
};

struct graph_stats {
	struct graph_row *rows; /* most GPU time first, then by name */
	size_t n;
	uint64_t replays, ops;
};

void graph_stats_find(const struct trace *t, const struct selection *sel, struct graph_stats *out);
void graph_stats_free(struct graph_stats *s);

/* The partial result (analysis/part.h): per graph name its counts, sums
 * and the mergeable statistics of its replays' launches and durations. */
struct graph_part_row {
	uint32_t name;
	uint64_t replays, nodes, ops;
	__int128 gpu, duration;
	struct durstat launch, span;
};

struct graph_part {
	struct graph_part_row *rows;
	size_t n, cap;
	struct keymap map;
};

void graph_part_init(struct graph_part *a);
void graph_part_free(struct graph_part *a);
void graph_part_add(struct graph_part *a, const struct trace *t, const struct selection *sel);
void graph_part_encode(const struct graph_part *a, const struct trace *t, struct bytes_out *b);
int graph_part_merge(struct graph_part *a, const struct part_in *in);
void graph_part_finish(struct graph_part *a, const struct trace *t, struct graph_stats *out);

#endif
