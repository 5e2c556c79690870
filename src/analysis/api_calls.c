#include "config.h"
#include "analysis/api_calls.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/durstat.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

uint32_t api_marker_name(const struct trace *t)
{
	return strtab_find(&t->strings, TRACE_MARKER_NAME, strlen(TRACE_MARKER_NAME));
}

size_t api_marker_count(const struct trace *t)
{
	uint32_t marker = api_marker_name(t);
	size_t count = 0;
	for (size_t i = 0; marker != TRACE_NONE && i < t->apis.n; i++)
		count += trace_api_name(t, i) == marker;
	return count;
}

static int by_total_name(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct api_call_row *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(trace_str(t, x->name), trace_str(t, y->name));
}

/* What each name's sums hold. */
enum { SUM_TOTAL, SUM_SELF };

/* The self time of call c's name (a call in view: its row exists). */
static __int128 *self_of(struct namestat *a, const struct trace *t, uint32_t c)
{
	return &a->rows[a->map.row_of[trace_api_name(t, c)]].sum[SUM_SELF];
}

/* Each call's time inside the window goes to its name's self time; the
 * time of a child goes out of its parent's. A thread's calls are walked
 * in start order with the calls still open on a stack: those that do not
 * enclose the next call are done with it. Every call in view has its
 * name's row already. */
static void self_times(struct namestat *a, const struct trace *t, const struct api_order *o,
		       const struct selection *sel, uint32_t marker)
{
	const struct window *w = sel ? &sel->window : NULL;
	size_t most = 0;
	for (size_t k = 0; k < o->nthreads; k++)
		most = o->first[k + 1] - o->first[k] > most ? o->first[k + 1] - o->first[k] : most;
	uint32_t *open = xmalloc_array(most ? most : 1, sizeof(*open));
	for (size_t k = 0; k < o->nthreads; k++) {
		size_t depth = 0;
		for (size_t p = o->first[k]; p < o->first[k + 1]; p++) {
			uint32_t c = o->rows[p];
			if (trace_api_name(t, c) == marker)
				continue;
			while (depth > 0 && t->apis.end[open[depth - 1]] < t->apis.end[c])
				depth--;
			int64_t in = select_clipped(w, t->apis.start[c], t->apis.end[c]);
			if (selected_api_named(sel, c))
				*self_of(a, t, c) += in;
			if (depth > 0 && selected_api_named(sel, open[depth - 1]))
				*self_of(a, t, open[depth - 1]) -= in;
			open[depth++] = c;
		}
	}
	free(open);
}

void api_calls_part_add(struct namestat *a, const struct trace *t, const struct api_order *o,
			const struct selection *sel)
{
	uint32_t marker = api_marker_name(t);
	const struct window *w = sel ? &sel->window : NULL;
	for (size_t i = 0; i < t->apis.n; i++) {
		uint32_t name = trace_api_name(t, i);
		if (name == marker || !selected_api_named(sel, i))
			continue;
		struct namestat_row *r = namestat_row(a, name, t->strings.count);
		namestat_add(a, r, sat_sub(t->apis.end[i], t->apis.start[i]),
			     select_clipped(w, t->apis.start[i], t->apis.end[i]));
	}
	self_times(a, t, o, sel, marker);
}

void api_calls_part_finish(struct namestat *a, const struct trace *t, struct api_calls *out)
{
	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(a->n ? a->n : 1, sizeof(*out->rows));
	for (size_t i = 0; i < a->n; i++) {
		struct namestat_row *ar = &a->rows[i];
		struct api_call_row *r = &out->rows[out->n++];
		durstat_finish(&ar->st);
		r->name = ar->name;
		r->calls = ar->calls;
		r->total = sat_from128(ar->sum[SUM_TOTAL]);
		r->self = sat_from128(ar->sum[SUM_SELF]);
		r->whole = durstat_sum(&ar->st);
		r->min = ar->st.min;
		r->max = ar->st.max;
		r->p50 = durstat_percentile(&ar->st, 50);
		r->p99 = durstat_percentile(&ar->st, 99);
	}
	out->calls = a->calls;
	out->total = sat_from128(a->total);
	namestat_free(a);
	sort_with(out->rows, out->n, sizeof(*out->rows), by_total_name, (void *)t);
}

/* The same figures from one trace as from the partial results of its
 * parts: the whole trace is one part. */
void api_calls_by_name(const struct trace *t, const struct api_order *o, const struct selection *sel,
		       struct api_calls *out)
{
	struct namestat a;
	namestat_init(&a);
	api_calls_part_add(&a, t, o, sel);
	api_calls_part_finish(&a, t, out);
}

void api_calls_free(struct api_calls *c)
{
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

int64_t api_call_row_avg(const struct api_call_row *r)
{
	return r->calls ? r->whole / (int64_t)r->calls : 0;
}

double api_call_row_percent(const struct api_calls *c, const struct api_call_row *r)
{
	return c->total > 0 ? 100.0 * (double)r->total / (double)c->total : 0.0;
}

int64_t *api_durations(const struct trace *t, const struct selection *sel, uint32_t name, int markers,
		       size_t *n)
{
	uint32_t marker = api_marker_name(t);
	size_t cap = 0;
	int64_t *d = NULL;
	*n = 0;
	for (size_t i = 0; i < t->apis.n; i++) {
		if (!selected_api_named(sel, i) || (trace_api_name(t, i) == marker) != (markers != 0) ||
		    trace_api_shown_name(t, i) != name)
			continue;
		d = xgrow(d, &cap, *n + 1, sizeof(*d));
		d[(*n)++] = sat_sub(t->apis.end[i], t->apis.start[i]);
	}
	if (*n)
		sort_int64(d, *n);
	return d;
}
