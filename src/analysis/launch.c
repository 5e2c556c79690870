#include "config.h"
#include "analysis/launch.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/histogram.h"
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

/* The figures of one name from its ops' latencies (sorted here). */
static void fill_row(struct launch_row *r, int64_t *launch, int64_t *queue, size_t n, int64_t calls)
{
	sort_int64(launch, n);
	sort_int64(queue, n);
	r->ops = n;
	r->launch_p50 = histogram_percentile(launch, n, 50);
	r->launch_p90 = histogram_percentile(launch, n, 90);
	r->launch_max = launch[n - 1];
	r->queue_p50 = histogram_percentile(queue, n, 50);
	r->queue_p90 = histogram_percentile(queue, n, 90);
	r->queue_max = queue[n - 1];
	r->call_avg = calls / (int64_t)n;
}

/* The ops are counted by name, then placed by name (a counting sort), so
 * each name's latencies lie together. */
void launch_stats_by_name(const struct trace *t, const struct selection *sel, struct launch_stats *out)
{
	size_t nstr = t->strings.count;
	size_t *first = xcalloc(nstr + 1, sizeof(*first));
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(sel, i) && launch_of(t, i) != TRACE_NONE)
			first[t->ops.name[i] + 1]++;
	size_t names = 0;
	for (size_t s = 0; s < nstr; s++) {
		names += first[s + 1] > 0;
		first[s + 1] += first[s];
	}
	size_t n = first[nstr];
	int64_t *launch = xmalloc_huge(n ? n : 1, sizeof(*launch));
	int64_t *queue = xmalloc_huge(n ? n : 1, sizeof(*queue));
	int64_t *calls = xcalloc(nstr ? nstr : 1, sizeof(*calls));
	size_t *fill = xmalloc_array(nstr ? nstr : 1, sizeof(*fill));
	memcpy(fill, first, nstr * sizeof(*fill));
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t api = launch_of(t, i);
		if (!selected_op(sel, i) || api == TRACE_NONE)
			continue;
		uint32_t name = t->ops.name[i];
		size_t k = fill[name]++;
		launch[k] = sat_sub(t->ops.start[i], t->apis.start[api]);
		queue[k] = sat_sub(t->ops.start[i], t->apis.end[api]);
		calls[name] = sat_add(calls[name], sat_sub(t->apis.end[api], t->apis.start[api]));
	}
	out->rows = xcalloc(names ? names : 1, sizeof(*out->rows));
	for (size_t s = 0; s < nstr; s++) {
		size_t m = first[s + 1] - first[s];
		if (!m)
			continue;
		struct launch_row *r = &out->rows[out->n++];
		r->name = (uint32_t)s;
		fill_row(r, launch + first[s], queue + first[s], m, calls[s]);
	}
	out->ops = n;
	sort_with(out->rows, out->n, sizeof(*out->rows), by_ops_name, (void *)t);
	free(fill);
	free(calls);
	free(queue);
	free(launch);
	free(first);
}

void launch_stats_free(struct launch_stats *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}
