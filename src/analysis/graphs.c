#include "config.h"
#include "analysis/graphs.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/lane_ops.h"
#include "util/idmap.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

uint32_t graph_call_of(const struct trace *t, const struct graph_calls *g, uint32_t op)
{
	uint32_t api = t->op_launch && op < t->op_launch_n ? t->op_launch[op] : TRACE_NONE;
	if (api == TRACE_NONE || api >= t->apis.n)
		return TRACE_NONE;
	uint32_t name = trace_api_name(t, api);
	if (name < g->n && g->is[name] == 1)
		return api;
	/* A call the input says replayed a graph, whatever its name. */
	return t->graphs.n && trace_graph_of(&t->graphs, api) != TRACE_NONE ? api : TRACE_NONE;
}

uint32_t graph_name_of(const struct trace *t, uint32_t api)
{
	uint32_t exec = trace_graph_of(&t->graphs, api);
	return exec < t->strings.count ? exec : trace_api_name(t, api);
}

void graph_part_init(struct graph_part *a)
{
	memset(a, 0, sizeof(*a));
}

void graph_part_free(struct graph_part *a)
{
	for (size_t i = 0; i < a->n; i++) {
		durstat_free(&a->rows[i].launch);
		durstat_free(&a->rows[i].span);
	}
	free(a->rows);
	keymap_free(&a->map);
	memset(a, 0, sizeof(*a));
}

static struct graph_part_row *acc_row(struct graph_part *a, uint32_t name, size_t nstrings)
{
	int made;
	uint32_t i = keymap_row(&a->map, name, nstrings, a->n, &made);
	if (made) {
		a->rows = xgrow(a->rows, &a->cap, a->n + 1, sizeof(*a->rows));
		a->rows[a->n] = (struct graph_part_row){ .name = name };
		durstat_init(&a->rows[a->n].launch);
		durstat_init(&a->rows[a->n++].span);
	}
	return &a->rows[i];
}

/* One replay's nodes (their ops by start): its figures into its graph's
 * row. */
static void add_replay(struct graph_part *a, const struct trace *t, uint32_t call, const uint32_t *v,
		       size_t n)
{
	struct graph_part_row *r = acc_row(a, graph_name_of(t, call), t->strings.count);
	int64_t first = t->ops.start[v[0]], reach = first, gpu = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t s = t->ops.start[v[i]], e = t->ops.end[v[i]];
		if (e > reach) {
			gpu = sat_add(gpu, sat_sub(e, s > reach ? s : reach));
			reach = e;
		}
	}
	r->replays++;
	r->ops += n;
	r->nodes = n > r->nodes ? n : r->nodes;
	r->gpu += gpu;
	r->duration += sat_sub(reach, first);
	durstat_add(&r->launch, sat_sub(first, t->apis.start[call]));
	durstat_add(&r->span, sat_sub(reach, first));
}

/* Graph nodes of the selection (NULL: all) grouped by replay: a counting
 * sort by call (millions of nodes, thousands of replays), then each
 * group in order of start, then row (mostly in order already). */
struct replays {
	struct idmap slot_of; /* call -> slot */
	size_t n;
	size_t *first;  /* slot k's nodes: node[first[k] .. first[k + 1]) */
	uint32_t *call; /* per slot */
	uint32_t *node; /* the nodes' ops */
};

/* Nodes of one replay in a row of ops: ops op .. op + n - 1. */
struct node_run {
	uint32_t op, n, slot;
};

/* Runs kept while they are few beside the ops (nodes of one replay on
 * one queue one after another); past max, given up (v NULL): the ops are
 * walked again. */
struct node_runs {
	struct node_run *v;
	size_t n, cap, max;
	int given_up;
};

static void runs_add(struct node_runs *u, uint32_t op, uint32_t slot, int same)
{
	if (u->given_up)
		return;
	struct node_run *last = u->n ? &u->v[u->n - 1] : NULL;
	if (same && last && last->op + last->n == op) {
		last->n++;
		return;
	}
	if (u->n == u->max) {
		free(u->v);
		u->v = NULL;
		u->given_up = 1;
		return;
	}
	u->v = xgrow(u->v, &u->cap, u->n + 1, sizeof(*u->v));
	u->v[u->n++] = (struct node_run){ op, 1, slot };
}

/* Each node into its replay's place, in the order of ops: from the runs,
 * or found again. */
static void place_nodes(struct replays *r, const struct trace *t, const struct graph_calls *g,
			const struct selection *sel, const struct node_runs *u, uint32_t *count)
{
	if (!u->given_up) {
		for (size_t k = 0; k < u->n; k++)
			for (uint32_t j = 0; j < u->v[k].n; j++) {
				uint32_t slot = u->v[k].slot;
				r->node[r->first[slot + 1] - count[slot]--] = u->v[k].op + j;
			}
		return;
	}
	uint32_t last = TRACE_NONE, slot = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t call = graph_call_of(t, g, (uint32_t)i);
		if (call == TRACE_NONE || !selected_op(sel, i))
			continue;
		if (call != last) {
			last = call;
			idmap_get(&r->slot_of, call, &slot);
		}
		r->node[r->first[slot + 1] - count[slot]--] = (uint32_t)i;
	}
}

static void replays_build(struct replays *r, const struct trace *t, const struct graph_calls *g,
			  const struct selection *sel)
{
	memset(r, 0, sizeof(*r));
	idmap_init(&r->slot_of);
	uint32_t *count = NULL;
	size_t cap = 0, n = 0;
	struct node_runs runs = { .max = t->ops.n / 8 + 64 };
	/* A replay's nodes come one after another on their queue: the slot of
	 * the last call is looked up once for them all. */
	uint32_t last = TRACE_NONE, slot = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t call = graph_call_of(t, g, (uint32_t)i);
		if (call == TRACE_NONE || !selected_op(sel, i))
			continue;
		if (call != last && !idmap_get(&r->slot_of, call, &slot)) {
			count = xgrow(count, &cap, r->n + 1, sizeof(*count));
			r->call = xrealloc_array(r->call, cap, sizeof(*r->call));
			count[r->n] = 0;
			r->call[r->n] = call;
			idmap_put(&r->slot_of, call, slot = (uint32_t)r->n++);
		}
		runs_add(&runs, (uint32_t)i, slot, call == last);
		last = call;
		count[slot]++;
		n++;
	}
	r->first = xmalloc_array(r->n + 1, sizeof(*r->first));
	r->first[0] = 0;
	for (size_t k = 0; k < r->n; k++)
		r->first[k + 1] = r->first[k] + count[k];
	r->node = xmalloc_array(n ? n : 1, sizeof(*r->node));
	if (n)
		place_nodes(r, t, g, sel, &runs, count);
	free(runs.v);
	/* A replay's nodes come by queue, each queue's by start: they are
	 * merged by start (sort_nearly). */
	for (size_t k = 0; k < r->n; k++) {
		uint32_t *v = r->node + r->first[k];
		size_t m = r->first[k + 1] - r->first[k], j = 1;
		while (j < m && lane_op_cmp(t, v[j - 1], v[j]) <= 0)
			j++;
		if (j < m)
			sort_nearly_keyed(v, m, t->ops.start, lane_op_cmp, t);
	}
	free(count);
}

static void replays_free(struct replays *r)
{
	idmap_free(&r->slot_of);
	free(r->first);
	free(r->call);
	free(r->node);
	memset(r, 0, sizeof(*r));
}

void graph_part_add(struct graph_part *a, const struct trace *t, const struct selection *sel)
{
	struct graph_calls g;
	struct replays r;
	graph_calls_init(&g, t);
	replays_build(&r, t, &g, sel);
	for (size_t k = 0; k < r.n; k++)
		add_replay(a, t, r.call[k], r.node + r.first[k], r.first[k + 1] - r.first[k]);
	replays_free(&r);
	graph_calls_free(&g);
}

#define GRAPH_BYTES_VERSION 1

void graph_part_encode(const struct graph_part *a, const struct trace *t, struct bytes_out *b)
{
	bytes_put_u8(b, GRAPH_BYTES_VERSION);
	bytes_put_u64(b, a->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct graph_part_row *r = &a->rows[i];
		bytes_put_str(b, trace_str(t, r->name));
		bytes_put_u64(b, r->replays);
		bytes_put_u64(b, r->nodes);
		bytes_put_u64(b, r->ops);
		bytes_put_i128(b, r->gpu);
		bytes_put_i128(b, r->duration);
		durstat_encode(&r->launch, b);
		durstat_encode(&r->span, b);
	}
}

int graph_part_merge(struct graph_part *a, const struct part_in *in)
{
	struct bytes_in *b = in->in;
	struct strtab *strings = &in->whole->strings;
	if (bytes_get_u8(b) != GRAPH_BYTES_VERSION)
		return -1;
	uint64_t n = bytes_get_count(b, 8);
	for (uint64_t i = 0; i < n && !b->bad; i++) {
		char *name = bytes_get_str(b);
		if (!name)
			return -1;
		struct graph_part_row *r = acc_row(a, strtab_intern(strings, name), strings->count);
		free(name);
		r->replays += bytes_get_u64(b);
		uint64_t nodes = bytes_get_u64(b);
		r->nodes = nodes > r->nodes ? nodes : r->nodes;
		r->ops += bytes_get_u64(b);
		r->gpu += bytes_get_i128(b);
		r->duration += bytes_get_i128(b);
		if (durstat_merge_bytes(&r->launch, b) || durstat_merge_bytes(&r->span, b))
			return -1;
	}
	return b->bad ? -1 : 0;
}

static int64_t clamp64(__int128 v)
{
	return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

static int by_gpu_name(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct graph_row *x = a, *y = b;
	if (x->gpu != y->gpu)
		return x->gpu > y->gpu ? -1 : 1;
	return strcmp(trace_str(t, x->name), trace_str(t, y->name));
}

void graph_part_finish(struct graph_part *a, const struct trace *t, struct graph_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(a->n ? a->n : 1, sizeof(*out->rows));
	for (size_t i = 0; i < a->n; i++) {
		struct graph_part_row *ar = &a->rows[i];
		struct graph_row *r = &out->rows[out->n++];
		durstat_finish(&ar->launch);
		durstat_finish(&ar->span);
		r->name = ar->name;
		r->replays = ar->replays;
		r->nodes = ar->nodes;
		r->ops = ar->ops;
		r->launch_p50 = durstat_percentile(&ar->launch, 50);
		r->duration_p50 = durstat_percentile(&ar->span, 50);
		r->duration_max = ar->span.max;
		r->gpu = clamp64(ar->gpu);
		r->duration = clamp64(ar->duration);
		r->inner_gap = clamp64(ar->duration - ar->gpu);
		r->busy_percent = ar->duration > 0 ? 100.0 * (double)ar->gpu / (double)ar->duration : 0.0;
		out->replays += r->replays;
		out->ops += r->ops;
	}
	graph_part_free(a);
	sort_with(out->rows, out->n, sizeof(*out->rows), by_gpu_name, (void *)t);
}

void graph_stats_find(const struct trace *t, const struct selection *sel, struct graph_stats *out)
{
	struct graph_part a;
	graph_part_init(&a);
	graph_part_add(&a, t, sel);
	graph_part_finish(&a, t, out);
}

void graph_stats_free(struct graph_stats *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

/* Slots in order of their graph, then their calls' starts and rows. */
struct slot_order {
	const struct trace *t;
	const struct graph_index *x;
};

static int by_graph_start(const void *a, const void *b, void *ctx)
{
	const struct slot_order *o = ctx;
	uint32_t ca = o->x->call[*(const uint32_t *)a], cb = o->x->call[*(const uint32_t *)b];
	uint32_t ga = graph_name_of(o->t, ca), gb = graph_name_of(o->t, cb);
	if (ga != gb)
		return ga < gb ? -1 : 1;
	int64_t sa = o->t->apis.start[ca], sb = o->t->apis.start[cb];
	if (sa != sb)
		return sa < sb ? -1 : 1;
	return (ca > cb) - (ca < cb);
}

static void number_replays(struct graph_index *x, const struct trace *t)
{
	uint32_t *order = xmalloc_array(x->nslots ? x->nslots : 1, sizeof(*order));
	for (size_t k = 0; k < x->nslots; k++)
		order[k] = (uint32_t)k;
	struct slot_order o = { t, x };
	sort_with(order, x->nslots, sizeof(*order), by_graph_start, &o);
	for (size_t i = 0, j; i < x->nslots; i = j) {
		uint32_t g = graph_name_of(t, x->call[order[i]]);
		for (j = i; j < x->nslots && graph_name_of(t, x->call[order[j]]) == g; j++)
			x->replay[order[j]] = j - i + 1;
		for (size_t k = i; k < j; k++)
			x->replays[order[k]] = j - i;
	}
	free(order);
}

void graph_index_build(struct graph_index *x, const struct trace *t)
{
	memset(x, 0, sizeof(*x));
	graph_calls_init(&x->calls, t);
	struct replays r;
	replays_build(&r, t, &x->calls, NULL);
	/* The index keeps the groups as they are. */
	x->node = r.node;
	x->slot_of = r.slot_of;
	x->nslots = r.n;
	x->first = r.first;
	x->call = r.call;
	x->replay = xcalloc(x->nslots ? x->nslots : 1, sizeof(*x->replay));
	x->replays = xcalloc(x->nslots ? x->nslots : 1, sizeof(*x->replays));
	number_replays(x, t);
}

int graph_index_place(const struct graph_index *x, const struct trace *t, uint32_t op,
		      struct graph_place *out)
{
	memset(out, 0, sizeof(*out));
	uint32_t call = op < t->ops.n ? graph_call_of(t, &x->calls, op) : TRACE_NONE, k;
	if (call == TRACE_NONE || !idmap_get(&x->slot_of, call, &k))
		return 0;
	/* The node's place: a binary search by start, then row. */
	size_t lo = x->first[k], hi = x->first[k + 1];
	int64_t s = t->ops.start[op];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t m = x->node[mid];
		if (t->ops.start[m] < s || (t->ops.start[m] == s && m < op))
			lo = mid + 1;
		else
			hi = mid;
	}
	out->call = call;
	out->call_start = t->apis.start[call];
	out->node = lo - x->first[k] + 1;
	out->nodes = x->first[k + 1] - x->first[k];
	out->replay = x->replay[k];
	out->replays = x->replays[k];
	return 1;
}

void graph_index_free(struct graph_index *x)
{
	graph_calls_free(&x->calls);
	idmap_free(&x->slot_of);
	free(x->first);
	free(x->node);
	free(x->call);
	free(x->replay);
	free(x->replays);
	memset(x, 0, sizeof(*x));
}

void graph_index_memory(const struct graph_index *x, struct mem_report *r)
{
	size_t slots = x->nslots;
	mem_add(r, "graph replays: ", "nodes' ops", (x->nslots ? x->first[slots] : 0) * sizeof(*x->node));
	mem_add(r, "graph replays: ", "replays",
		slots * (sizeof(*x->call) + sizeof(*x->replay) + sizeof(*x->replays)) +
			(slots + 1) * sizeof(*x->first) + x->slot_of.nslots * sizeof(*x->slot_of.slots));
}
