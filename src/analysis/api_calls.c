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

static int by_total_name(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct api_call_row *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(trace_str(t, x->name), trace_str(t, y->name));
}

/* Each call's time inside the window goes to its name; the time of a
 * child goes out of its parent's self time. A thread's calls are walked
 * in start order with the calls still open on a stack: those that do not
 * enclose the next call are done with it. */
static void self_times(const struct trace *t, const struct api_order *o, const struct selection *sel,
		       uint32_t marker, int64_t *self)
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
			if (selected_api(sel, c))
				self[trace_api_name(t, c)] = sat_add(self[trace_api_name(t, c)], in);
			if (depth > 0 && selected_api(sel, open[depth - 1]))
				self[trace_api_name(t, open[depth - 1])] =
					sat_sub(self[trace_api_name(t, open[depth - 1])], in);
			open[depth++] = c;
		}
	}
	free(open);
}

/* The figures of one name from its calls' whole durations (sorted here). */
static void fill_row(struct api_call_row *r, int64_t *whole, size_t n)
{
	sort_int64(whole, n);
	r->calls = n;
	r->min = whole[0];
	r->max = whole[n - 1];
	r->p50 = percentile_nearest_rank(whole, n, 50);
	r->p99 = percentile_nearest_rank(whole, n, 99);
	for (size_t i = 0; i < n; i++)
		r->whole = sat_add(r->whole, whole[i]);
}

/* Calls are counted by name, then placed by name (a counting sort), so
 * that each name's durations lie together. */
void api_calls_by_name(const struct trace *t, const struct api_order *o, const struct selection *sel,
		       struct api_calls *out)
{
	size_t nstr = t->strings.count;
	uint32_t marker = api_marker_name(t);
	const struct window *w = sel ? &sel->window : NULL;
	size_t *first = xcalloc(nstr + 1, sizeof(*first));
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < t->apis.n; i++)
		if (trace_api_name(t, i) != marker && selected_api(sel, i))
			first[trace_api_name(t, i) + 1]++;
	size_t names = 0;
	for (size_t s = 0; s < nstr; s++) {
		names += first[s + 1] > 0;
		first[s + 1] += first[s];
	}
	size_t n = first[nstr];
	int64_t *whole = xmalloc_huge(n ? n : 1, sizeof(*whole));
	int64_t *total = xcalloc(nstr ? nstr : 1, sizeof(*total));
	int64_t *self = xcalloc(nstr ? nstr : 1, sizeof(*self));
	size_t *fill = xmalloc_array(nstr ? nstr : 1, sizeof(*fill));
	memcpy(fill, first, nstr * sizeof(*fill));
	for (size_t i = 0; i < t->apis.n; i++) {
		uint32_t name = trace_api_name(t, i);
		if (name == marker || !selected_api(sel, i))
			continue;
		whole[fill[name]++] = sat_sub(t->apis.end[i], t->apis.start[i]);
		total[name] = sat_add(total[name], select_clipped(w, t->apis.start[i], t->apis.end[i]));
	}
	self_times(t, o, sel, marker, self);
	out->rows = xcalloc(names ? names : 1, sizeof(*out->rows));
	for (size_t s = 0; s < nstr; s++) {
		size_t m = first[s + 1] - first[s];
		if (!m)
			continue;
		struct api_call_row *r = &out->rows[out->n++];
		r->name = (uint32_t)s;
		r->total = total[s];
		r->self = self[s];
		fill_row(r, whole + first[s], m);
		out->total = sat_add(out->total, total[s]);
	}
	out->calls = n;
	sort_with(out->rows, out->n, sizeof(*out->rows), by_total_name, (void *)t);
	free(fill);
	free(self);
	free(total);
	free(whole);
	free(first);
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
		if (!selected_api(sel, i) || (trace_api_name(t, i) == marker) != (markers != 0) ||
		    trace_api_shown_name(t, i) != name)
			continue;
		d = xgrow(d, &cap, *n + 1, sizeof(*d));
		d[(*n)++] = sat_sub(t->apis.end[i], t->apis.start[i]);
	}
	if (*n)
		sort_int64(d, *n);
	return d;
}
