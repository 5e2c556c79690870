#include "config.h"
#include "analysis/range.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/search.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* Rows of a part grouped by key through a dense index (string ids and
 * GPUs are small integers). */
struct grouper {
	struct range_part *part;
	uint32_t *row_of; /* by key: place in part->rows, or UINT32_MAX */
	size_t cap;
};

static void group_begin(struct grouper *g, struct range_part *part, size_t keys)
{
	g->part = part;
	g->cap = part->n;
	g->row_of = xmalloc_array(keys ? keys : 1, sizeof(*g->row_of));
	memset(g->row_of, 0xff, (keys ? keys : 1) * sizeof(*g->row_of));
	for (size_t i = 0; i < part->n; i++)
		g->row_of[part->rows[i].key] = (uint32_t)i;
}

static void group_add(struct grouper *g, uint32_t key, uint64_t count, int64_t time)
{
	struct range_part *p = g->part;
	if (g->row_of[key] == UINT32_MAX) {
		p->rows = xgrow(p->rows, &g->cap, p->n + 1, sizeof(*p->rows));
		p->rows[p->n] = (struct range_row){ .key = key };
		g->row_of[key] = (uint32_t)p->n++;
	}
	struct range_row *r = &p->rows[g->row_of[key]];
	r->count += count;
	r->time += time;
	p->count += count;
	p->time += time;
}

static void group_end(struct grouper *g)
{
	free(g->row_of);
}

/* Ops by name, and by GPU the ops inside the range to be united. */
static uint32_t *gather_ops(const struct trace *t, const struct selection *sel, struct range_stats *s,
			    size_t *nin)
{
	struct grouper g;
	size_t cap = 0;
	uint32_t *in = NULL;
	*nin = 0;
	group_begin(&g, &s->ops, t->strings.count);
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(sel, i) || !search_overlaps(t->ops.start[i], t->ops.end[i], s->t0, s->t1))
			continue;
		group_add(&g, t->ops.name[i], 1,
			  search_clipped(t->ops.start[i], t->ops.end[i], s->t0, s->t1));
		in = xgrow(in, &cap, *nin + 1, sizeof(*in));
		in[(*nin)++] = (uint32_t)i;
	}
	group_end(&g);
	return in;
}

/* The ops by GPU, each GPU's by start: a sort by start (linear, for a
 * range over the whole trace) and then a stable counting sort by GPU. */
static void order_by_gpu(const struct trace *t, uint32_t *in, size_t n)
{
	search_sort_by_start(t, in, n);
	size_t *first = xcalloc(t->ngpus + 1, sizeof(*first));
	for (size_t i = 0; i < n; i++)
		first[trace_op_gpu(t, in[i]) + 1]++;
	for (size_t g = 0; g < t->ngpus; g++)
		first[g + 1] += first[g];
	uint32_t *out = xmalloc_huge(n ? n : 1, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		out[first[trace_op_gpu(t, in[i])]++] = in[i];
	if (n) /* in may be NULL when there is nothing */
		memcpy(in, out, n * sizeof(*in));
	free(out);
	free(first);
}

/* Busy per GPU: the union of its ops' intervals clipped to the range:
 * taken by start, each op adds the part of it beyond the furthest end
 * seen so far on its GPU. */
static void unite(const struct trace *t, uint32_t *in, size_t n, struct range_stats *s)
{
	struct grouper g;
	group_begin(&g, &s->busy, t->ngpus);
	order_by_gpu(t, in, n);
	for (size_t i = 0; i < n;) {
		uint32_t gpu = trace_op_gpu(t, in[i]);
		int64_t reach = s->t0, busy = 0;
		size_t ops = 0;
		for (; i < n && trace_op_gpu(t, in[i]) == gpu; i++, ops++) {
			int64_t a = t->ops.start[in[i]], b = t->ops.end[in[i]];
			a = a > reach ? a : reach;
			b = b < s->t1 ? b : s->t1;
			if (b > a) {
				busy += b - a;
				reach = b;
			}
		}
		group_add(&g, gpu, ops, busy);
	}
	group_end(&g);
}

/* API calls by name, roctx markers by text. */
static void gather_calls(const struct trace *t, const struct selection *sel, struct range_stats *s)
{
	struct grouper calls, markers;
	uint32_t marker = strtab_find(&t->strings, TRACE_MARKER_NAME, strlen(TRACE_MARKER_NAME));
	group_begin(&calls, &s->calls, t->strings.count);
	group_begin(&markers, &s->markers, t->strings.count);
	for (size_t i = 0; i < t->apis.n; i++) {
		int64_t a = t->apis.start[i], b = t->apis.end[i];
		if (!selected_api_named(sel, i) || !search_overlaps(a, b, s->t0, s->t1))
			continue;
		if (trace_api_name(t, i) != marker) {
			group_add(&calls, t->apis.name[i], 1, search_clipped(a, b, s->t0, s->t1));
			continue;
		}
		group_add(&markers, trace_api_shown_name(t, i), 1, search_clipped(a, b, s->t0, s->t1));
	}
	group_end(&calls);
	group_end(&markers);
}

void range_build(const struct trace *t, const struct selection *sel, int64_t t0, int64_t t1,
		 struct range_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->t0 = t0;
	out->t1 = t1;
	size_t nin;
	uint32_t *in = gather_ops(t, sel, out, &nin);
	unite(t, in, nin, out);
	free(in);
	gather_calls(t, sel, out);
	range_sort(t, out);
}

static int by_time(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct range_row *x = a, *y = b;
	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(trace_str(t, x->key), trace_str(t, y->key));
}

/* GPUs as the busy report lists them: by node, then by number. */
static int by_device(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct trace_gpu *x = &t->gpus[((const struct range_row *)a)->key];
	const struct trace_gpu *y = &t->gpus[((const struct range_row *)b)->key];
	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	return (x->device > y->device) - (x->device < y->device);
}

void range_sort(const struct trace *t, struct range_stats *s)
{
	sort_with(s->ops.rows, s->ops.n, sizeof(*s->ops.rows), by_time, (void *)t);
	sort_with(s->busy.rows, s->busy.n, sizeof(*s->busy.rows), by_device, (void *)t);
	sort_with(s->calls.rows, s->calls.n, sizeof(*s->calls.rows), by_time, (void *)t);
	sort_with(s->markers.rows, s->markers.n, sizeof(*s->markers.rows), by_time, (void *)t);
}

void range_free(struct range_stats *s)
{
	free(s->ops.rows);
	free(s->busy.rows);
	free(s->calls.rows);
	free(s->markers.rows);
	memset(s, 0, sizeof(*s));
}

double range_share(const struct range_stats *s, int64_t time)
{
	return s->t1 > s->t0 ? 100.0 * (double)time / (double)(s->t1 - s->t0) : 0.0;
}
