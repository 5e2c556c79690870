#include "config.h"
#include "analysis/launch.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/graphs.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

static uint32_t launch_of(const struct trace *t, size_t op)
{
	return t->op_launch && op < t->op_launch_n ? t->op_launch[op] : TRACE_NONE;
}

static int by_ops_name(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct launch_row *x = a, *y = b;
	if (x->ops != y->ops)
		return x->ops > y->ops ? -1 : 1;
	return strcmp(trace_str(t, x->name), trace_str(t, y->name));
}

void launch_part_init(struct launch_part *a)
{
	memset(a, 0, sizeof(*a));
}

void launch_part_free(struct launch_part *a)
{
	for (size_t i = 0; i < a->n; i++) {
		durstat_free(&a->rows[i].launch);
		durstat_free(&a->rows[i].queue);
	}
	free(a->rows);
	keymap_free(&a->map);
	memset(a, 0, sizeof(*a));
}

static struct launch_part_row *acc_row(struct launch_part *a, uint32_t name, size_t nstrings)
{
	int made;
	uint32_t i = keymap_row(&a->map, name, nstrings, a->n, &made);
	if (made) {
		a->rows = xgrow(a->rows, &a->cap, a->n + 1, sizeof(*a->rows));
		a->rows[a->n] = (struct launch_part_row){ .name = name };
		durstat_init(&a->rows[a->n].launch);
		durstat_init(&a->rows[a->n++].queue);
	}
	return &a->rows[i];
}

void launch_part_add(struct launch_part *a, const struct trace *t, const struct selection *sel)
{
	/* A graph's node starts where the replay puts it: no launch cost. */
	struct graph_calls g;
	graph_calls_init(&g, t);
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t api = launch_of(t, i);
		if (!selected_op(sel, i) || api == TRACE_NONE ||
		    graph_call_of(t, &g, (uint32_t)i) != TRACE_NONE)
			continue;
		struct launch_part_row *r = acc_row(a, t->ops.name[i], t->strings.count);
		r->ops++;
		durstat_add(&r->launch, sat_sub(t->ops.start[i], t->apis.start[api]));
		durstat_add(&r->queue, sat_sub(t->ops.start[i], t->apis.end[api]));
		r->calls += sat_sub(t->apis.end[api], t->apis.start[api]);
		a->ops++;
	}
	graph_calls_free(&g);
}

#define LAUNCH_BYTES_VERSION 1

void launch_part_encode(const struct launch_part *a, const struct trace *t, struct bytes_out *b)
{
	bytes_put_u8(b, LAUNCH_BYTES_VERSION);
	bytes_put_u64(b, a->ops);
	bytes_put_u64(b, a->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct launch_part_row *r = &a->rows[i];
		bytes_put_str(b, trace_str(t, r->name));
		bytes_put_u64(b, r->ops);
		bytes_put_i128(b, r->calls);
		durstat_encode(&r->launch, b);
		durstat_encode(&r->queue, b);
	}
}

int launch_part_merge(struct launch_part *a, const struct part_in *in)
{
	struct bytes_in *b = in->in;
	struct strtab *strings = &in->whole->strings;
	if (bytes_get_u8(b) != LAUNCH_BYTES_VERSION)
		return -1;
	a->ops += bytes_get_u64(b);
	uint64_t n = bytes_get_count(b, 8);
	for (uint64_t i = 0; i < n && !b->bad; i++) {
		char *name = bytes_get_str(b);
		if (!name)
			return -1;
		struct launch_part_row *r = acc_row(a, strtab_intern(strings, name), strings->count);
		free(name);
		r->ops += bytes_get_u64(b);
		r->calls += bytes_get_i128(b);
		if (durstat_merge_bytes(&r->launch, b) || durstat_merge_bytes(&r->queue, b))
			return -1;
	}
	return b->bad ? -1 : 0;
}

void launch_part_finish(struct launch_part *a, const struct trace *t, struct launch_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(a->n ? a->n : 1, sizeof(*out->rows));
	for (size_t i = 0; i < a->n; i++) {
		struct launch_part_row *ar = &a->rows[i];
		struct launch_row *r = &out->rows[out->n++];
		durstat_finish(&ar->launch);
		durstat_finish(&ar->queue);
		r->name = ar->name;
		r->ops = ar->ops;
		r->launch_p50 = durstat_percentile(&ar->launch, 50);
		r->launch_p90 = durstat_percentile(&ar->launch, 90);
		r->launch_max = ar->launch.max;
		r->queue_p50 = durstat_percentile(&ar->queue, 50);
		r->queue_p90 = durstat_percentile(&ar->queue, 90);
		r->queue_max = ar->queue.max;
		/* The mean of n 64-bit values is one. */
		r->call_avg = ar->ops ? (int64_t)(ar->calls / (__int128)ar->ops) : 0;
	}
	out->ops = a->ops;
	launch_part_free(a);
	sort_with(out->rows, out->n, sizeof(*out->rows), by_ops_name, (void *)t);
}

/* Each name's latencies into its mergeable statistics: the same figures
 * from one trace as from the partial results of its parts. */
void launch_stats_by_name(const struct trace *t, const struct selection *sel, struct launch_stats *out)
{
	struct launch_part a;
	launch_part_init(&a);
	launch_part_add(&a, t, sel);
	launch_part_finish(&a, t, out);
}

void launch_stats_free(struct launch_stats *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}
