#include "config.h"
#include "analysis/graphs.h"

#include <stdlib.h>
#include <string.h>

#include "util/idmap.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

void graph_calls_init(struct graph_calls *g, const struct trace *t)
{
	g->n = t->strings.count;
	g->is = xcalloc(g->n ? g->n : 1, 1);
	/* Only the names calls have: the rest of the strings never ask. */
	for (size_t i = 0; i < t->apis.n; i++) {
		uint32_t name = trace_api_name(t, i);
		if (name < g->n && g->is[name] == 0)
			g->is[name] = trace_graph_launch_name(trace_str(t, name)) ? 1 : 2;
	}
}

void graph_calls_free(struct graph_calls *g)
{
	free(g->is);
	memset(g, 0, sizeof(*g));
}

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

int graph_place_of(const struct trace *t, const struct graph_calls *g, uint32_t op, struct graph_place *out)
{
	memset(out, 0, sizeof(*out));
	uint32_t call = graph_call_of(t, g, op);
	if (call == TRACE_NONE)
		return 0;
	out->call = call;
	out->call_start = t->apis.start[call];
	int64_t start = t->ops.start[op];
	for (size_t i = 0; i < t->op_launch_n && i < t->ops.n; i++) {
		if (t->op_launch[i] != call)
			continue;
		out->nodes++;
		if (t->ops.start[i] < start || (t->ops.start[i] == start && i <= op))
			out->node++;
	}
	/* The graph's replays: its calls that launched an op. */
	uint32_t name = graph_name_of(t, call);
	unsigned char *counted = xcalloc(t->apis.n ? t->apis.n / 8 + 1 : 1, 1);
	for (size_t i = 0; i < t->op_launch_n && i < t->ops.n; i++) {
		uint32_t api = graph_call_of(t, g, (uint32_t)i);
		if (api == TRACE_NONE || (counted[api / 8] >> (api % 8) & 1) || graph_name_of(t, api) != name)
			continue;
		counted[api / 8] |= (unsigned char)(1u << (api % 8));
		out->replays++;
		if (t->apis.start[api] < out->call_start ||
		    (t->apis.start[api] == out->call_start && api <= call))
			out->replay++;
	}
	free(counted);
	return 1;
}

/* A node: its call and when it ran. */
struct node {
	uint32_t call, op;
	int64_t start;
};

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

/* One replay's nodes (by start): its figures into its graph's row. */
static void add_replay(struct graph_part *a, const struct trace *t, const struct node *v, size_t n)
{
	uint32_t call = v[0].call;
	struct graph_part_row *r = acc_row(a, graph_name_of(t, call), t->strings.count);
	int64_t first = v[0].start, reach = first, gpu = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t s = t->ops.start[v[i].op], e = t->ops.end[v[i].op];
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

/* Within one replay: by start, then row. */
static int by_start(const void *a, const void *b, void *ctx)
{
	const struct node *x = a, *y = b;
	(void)ctx;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->op > y->op) - (x->op < y->op);
}

/* A replay's nodes are bucketed by call (a counting sort: millions of
 * nodes, thousands of replays), then each bucket put in order of start
 * (mostly in order already). */
void graph_part_add(struct graph_part *a, const struct trace *t, const struct selection *sel)
{
	struct graph_calls g;
	graph_calls_init(&g, t);
	struct idmap replay_of;
	idmap_init(&replay_of);
	uint32_t *count = NULL;
	size_t nreplays = 0, cap = 0, n = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t call = graph_call_of(t, &g, (uint32_t)i), k;
		if (call == TRACE_NONE || !selected_op(sel, i))
			continue;
		if (!idmap_get(&replay_of, call, &k)) {
			count = xgrow(count, &cap, nreplays + 1, sizeof(*count));
			count[nreplays] = 0;
			idmap_put(&replay_of, call, k = (uint32_t)nreplays++);
		}
		count[k]++;
		n++;
	}
	size_t *at = xmalloc_array(nreplays + 1, sizeof(*at));
	at[0] = 0;
	for (size_t k = 0; k < nreplays; k++)
		at[k + 1] = at[k] + count[k];
	struct node *v = xmalloc_array(n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < t->ops.n && n; i++) {
		uint32_t call = graph_call_of(t, &g, (uint32_t)i), k;
		if (call == TRACE_NONE || !selected_op(sel, i) || !idmap_get(&replay_of, call, &k))
			continue;
		v[at[k + 1] - count[k]--] = (struct node){ call, (uint32_t)i, t->ops.start[i] };
	}
	for (size_t k = 0; k < nreplays; k++) {
		struct node *r = v + at[k];
		size_t m = at[k + 1] - at[k];
		size_t j = 1;
		while (j < m && by_start(&r[j - 1], &r[j], NULL) <= 0)
			j++;
		if (j < m)
			sort_with(r, m, sizeof(*r), by_start, NULL);
		add_replay(a, t, r, m);
	}
	free(v);
	free(at);
	free(count);
	idmap_free(&replay_of);
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
