#include "config.h"
#include "analysis/markers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/api_calls.h"
#include "analysis/durstat.h"
#include "session/named.h"
#include "util/rankbits.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* Instances as found, with the one enclosing each (for the ops to climb).
 * What the ops add up goes to the instances' records (v) when they are
 * wanted whole, else to two narrow columns (gpu, ops): what a table by
 * text needs of millions of ranges, in 20 bytes each instead of 52. */
struct finder {
	const struct trace *t;
	struct marker_inst *v; /* NULL: gpu and ops instead */
	uint32_t *api;         /* per instance: its API row */
	uint32_t *parent;      /* per instance: the instance enclosing it, or TRACE_NONE */
	uint32_t *inner;       /* per API row: the innermost instance enclosing it */
	int64_t *gpu;
	uint32_t *ops;
	size_t n;
};

/* A thread's calls in start order, the ranges begun on a stack: those
 * ended before a call starts are done with. The innermost range enclosing
 * a call is the latest begun that ends no earlier (a range that a call
 * outlasts may still enclose the next one). */
static void walk_thread(struct finder *f, const struct api_order *o, size_t k, uint32_t marker,
			uint32_t *open)
{
	const struct trace *t = f->t;
	size_t depth = 0;
	for (size_t p = o->first[k]; p < o->first[k + 1]; p++) {
		uint32_t c = o->rows[p];
		while (depth > 0 && t->apis.end[f->api[open[depth - 1]]] < t->apis.start[c])
			depth--;
		size_t up = depth;
		while (up > 0 && t->apis.end[f->api[open[up - 1]]] < t->apis.end[c])
			up--;
		uint32_t in = up > 0 ? open[up - 1] : TRACE_NONE;
		f->inner[c] = in;
		if (trace_api_name(t, c) != marker)
			continue;
		f->api[f->n] = c;
		f->parent[f->n] = in;
		if (f->v) {
			struct marker_inst *m = &f->v[f->n];
			memset(m, 0, sizeof(*m));
			m->api = c;
			m->depth = in == TRACE_NONE ? 0 : f->v[in].depth + 1;
		}
		open[depth++] = (uint32_t)f->n++;
	}
}

/* Each op in view with a launch adds itself to every instance enclosing
 * its launching call. */
static void add_ops(struct finder *f, const struct selection *sel)
{
	const struct trace *t = f->t;
	const struct window *w = sel ? &sel->window : NULL;
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t call = trace_op_launch(t, (uint32_t)i);
		if (call == TRACE_NONE || !selected_op(sel, i))
			continue;
		int64_t in = select_clipped(w, t->ops.start[i], t->ops.end[i]);
		if (!f->v) {
			for (uint32_t m = f->inner[call]; m != TRACE_NONE; m = f->parent[m]) {
				f->ops[m]++;
				f->gpu[m] = sat_add(f->gpu[m], in);
			}
			continue;
		}
		int64_t s = t->ops.start[i], e = t->ops.end[i];
		if (w && w->active) {
			s = s > w->start ? s : w->start;
			e = e < w->end ? e : w->end;
		}
		for (uint32_t m = f->inner[call]; m != TRACE_NONE; m = f->parent[m]) {
			struct marker_inst *x = &f->v[m];
			if (!x->ops || s < x->first)
				x->first = s;
			if (!x->ops || e > x->last)
				x->last = e;
			x->ops++;
			x->gpu = sat_add(x->gpu, in);
		}
	}
}

/* The instances of t found, their ops added: whole records when whole,
 * else the narrow columns. 0 when t has none (nothing allocated). */
static size_t find_into(struct finder *f, const struct trace *t, const struct api_order *o,
			const struct selection *sel, int whole)
{
	uint32_t marker = api_marker_name(t);
	memset(f, 0, sizeof(*f));
	f->t = t;
	size_t count = api_marker_count(t);
	if (!count)
		return 0;
	if (whole) {
		f->v = xmalloc_array(count, sizeof(*f->v));
	} else {
		f->gpu = xcalloc(count, sizeof(*f->gpu));
		f->ops = xcalloc(count, sizeof(*f->ops));
	}
	f->api = xmalloc_array(count, sizeof(*f->api));
	f->parent = xmalloc_array(count, sizeof(*f->parent));
	f->inner = xmalloc_huge(t->apis.n, sizeof(*f->inner));
	uint32_t *open = xmalloc_array(count, sizeof(*open));
	for (size_t k = 0; k < o->nthreads; k++)
		walk_thread(f, o, k, marker, open);
	free(open);
	add_ops(f, sel);
	free(f->inner);
	free(f->parent);
	f->inner = f->parent = NULL;
	return f->n;
}

static int by_row_time(const void *a, const void *b, void *ctx)
{
	return named_api_cmp(ctx, *(const uint32_t *)a, *(const uint32_t *)b);
}

struct time_ctx {
	const struct trace *t;
	const struct marker_inst *v;
};

static int by_inst_time(const void *ctx, uint32_t a, uint32_t b)
{
	const struct time_ctx *c = ctx;
	return named_api_cmp(c->t, c->v[a].api, c->v[b].api);
}

/* Instances into time order: their places are sorted (4 bytes each, not
 * the 48 of an instance), then the instances follow their places along
 * each cycle of the permutation, in place. They were found thread by
 * thread in start order: a few runs, merged (the order is total, ties by
 * row, so any sort gives the same). */
static void sort_by_time(const struct trace *t, struct marker_inst *v, size_t n)
{
	uint32_t *at = xmalloc_huge(n ? n : 1, sizeof(*at));
	for (size_t i = 0; i < n; i++)
		at[i] = (uint32_t)i;
	struct time_ctx c = { t, v };
	sort_nearly(at, n, by_inst_time, &c);
	/* Place i takes instance at[i]; a place done is marked with its own
	 * number. */
	for (size_t i = 0; i < n; i++) {
		if (at[i] == i)
			continue;
		struct marker_inst first = v[i];
		size_t k = i;
		while (at[k] != i) {
			size_t from = at[k];
			v[k] = v[from];
			at[k] = (uint32_t)k;
			k = from;
		}
		v[k] = first;
		at[k] = (uint32_t)k;
	}
	free(at);
}

void markers_find(const struct trace *t, const struct api_order *o, const struct selection *sel,
		  struct markers *out)
{
	struct finder f;
	memset(out, 0, sizeof(*out));
	if (!find_into(&f, t, o, sel, 1))
		return;
	for (size_t i = 0; i < f.n; i++) {
		f.v[i].name = trace_api_shown_name(t, f.v[i].api);
		f.v[i].in_view = selected_api_named(sel, f.v[i].api);
	}
	free(f.api);
	sort_by_time(t, f.v, f.n);
	out->v = f.v;
	out->n = f.n;
}

void markers_free(struct markers *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static int by_total_text(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct marker_row *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(trace_str(t, x->name), trace_str(t, y->name));
}

/* What each text's sums hold. */
enum { SUM_TOTAL, SUM_GPU };

/* One instance's figures into its text's row (an instance in view by its
 * own text). */
static void add_instance(struct namestat *a, const struct trace *t, const struct selection *sel, uint32_t api,
			 int64_t gpu, uint32_t ops)
{
	if (!selected_api_named(sel, api))
		return;
	const struct window *w = sel ? &sel->window : NULL;
	struct namestat_row *r = namestat_row(a, trace_api_shown_name(t, api), t->strings.count);
	int64_t s = t->apis.start[api], e = t->apis.end[api];
	namestat_add(a, r, sat_sub(e, s), select_clipped(w, s, e));
	r->sum[SUM_GPU] += gpu;
	r->count += ops;
}

/* Each instance as find_into finds it, a column per instance. */
static void part_add_found(struct namestat *a, const struct trace *t, const struct api_order *o,
			   const struct selection *sel)
{
	struct finder f;
	for (size_t i = 0, n = find_into(&f, t, o, sel, 0); i < n; i++)
		add_instance(a, t, sel, f.api[i], f.gpu[i], f.ops[i]);
	free(f.api);
	free(f.gpu);
	free(f.ops);
}

/* The ops in view of each call that launched one, by the call's rank
 * among those calls: how many, and their GPU time. */
struct launch_sums {
	struct rankbits calls;
	int64_t *gpu;
	uint32_t *ops;
};

/* -1 when a sum could leave 64 bits: instances summed in another order
 * than their ops' might then saturate elsewhere (find_into's way then). */
static int launch_sums_build(const struct trace *t, const struct selection *sel, struct launch_sums *ls)
{
	const struct window *w = sel ? &sel->window : NULL;
	__int128 most = 0;
	rankbits_init(&ls->calls, 0, t->apis.n);
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t call = trace_op_launch(t, (uint32_t)i);
		if (call == TRACE_NONE || !selected_op(sel, i))
			continue;
		int64_t in = select_clipped(w, t->ops.start[i], t->ops.end[i]);
		most += in < 0 ? -(__int128)in : in;
		rankbits_add(&ls->calls, call);
	}
	if (most > INT64_MAX) {
		rankbits_free(&ls->calls);
		return -1;
	}
	rankbits_seal(&ls->calls);
	ls->gpu = xcalloc(ls->calls.count ? ls->calls.count : 1, sizeof(*ls->gpu));
	ls->ops = xcalloc(ls->calls.count ? ls->calls.count : 1, sizeof(*ls->ops));
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t call = trace_op_launch(t, (uint32_t)i);
		if (call == TRACE_NONE || !selected_op(sel, i))
			continue;
		size_t k = rankbits_rank(&ls->calls, call);
		ls->gpu[k] += select_clipped(w, t->ops.start[i], t->ops.end[i]);
		ls->ops[k]++;
	}
	return 0;
}

static void launch_sums_free(struct launch_sums *ls)
{
	rankbits_free(&ls->calls);
	free(ls->gpu);
	free(ls->ops);
}

/* The instances begun and not yet done with, on one thread: each one's
 * API row, the slot of the one enclosing it (-1: none) and what the ops
 * launched inside it add up to so far. */
struct open_marks {
	uint32_t *api;
	int32_t *parent;
	int64_t *gpu;
	uint32_t *ops;
	size_t n, cap;
};

static void open_push(struct open_marks *m, uint32_t api, int32_t parent)
{
	if (m->n == m->cap) {
		m->api = xgrow(m->api, &m->cap, m->n + 1, sizeof(*m->api));
		m->parent = xrealloc_array(m->parent, m->cap, sizeof(*m->parent));
		m->gpu = xrealloc_array(m->gpu, m->cap, sizeof(*m->gpu));
		m->ops = xrealloc_array(m->ops, m->cap, sizeof(*m->ops));
	}
	m->api[m->n] = api;
	m->parent[m->n] = parent;
	m->gpu[m->n] = 0;
	m->ops[m->n++] = 0;
}

/* The top instance is done: its figures are whole (every call it
 * encloses came before), and go to the one enclosing it too. */
static void open_pop(struct namestat *a, const struct trace *t, const struct selection *sel,
		     struct open_marks *m)
{
	size_t d = --m->n;
	if (m->parent[d] >= 0) {
		m->gpu[m->parent[d]] += m->gpu[d];
		m->ops[m->parent[d]] += m->ops[d];
	}
	add_instance(a, t, sel, m->api[d], m->gpu[d], m->ops[d]);
}

/* As find_into's walk (the innermost instance enclosing a call, each
 * instance's enclosing one), with the ops of each launching call added
 * to its innermost instance, and an instance's sums to its enclosing
 * one's as it is done: an op still counts in every instance enclosing its
 * launch, and no column per instance or per call is made. */
static void walk_sums(struct namestat *a, const struct trace *t, const struct api_order *o,
		      const struct selection *sel, const struct launch_sums *ls, uint32_t marker)
{
	struct open_marks m = { 0 };
	for (size_t k = 0; k < o->nthreads; k++) {
		for (size_t p = o->first[k]; p < o->first[k + 1]; p++) {
			uint32_t c = o->rows[p];
			while (m.n > 0 && t->apis.end[m.api[m.n - 1]] < t->apis.start[c])
				open_pop(a, t, sel, &m);
			size_t up = m.n;
			while (up > 0 && t->apis.end[m.api[up - 1]] < t->apis.end[c])
				up--;
			int32_t in = up > 0 ? (int32_t)(up - 1) : -1;
			if (in >= 0 && rankbits_has(&ls->calls, c)) {
				size_t r = rankbits_rank(&ls->calls, c);
				m.gpu[in] += ls->gpu[r];
				m.ops[in] += ls->ops[r];
			}
			if (trace_api_name(t, c) == marker)
				open_push(&m, c, in);
		}
		while (m.n > 0)
			open_pop(a, t, sel, &m);
	}
	free(m.api);
	free(m.parent);
	free(m.gpu);
	free(m.ops);
}

void markers_part_add(struct namestat *a, const struct trace *t, const struct api_order *o,
		      const struct selection *sel)
{
	uint32_t marker = api_marker_name(t);
	struct launch_sums ls;
	if (marker == TRACE_NONE)
		return;
	/* More open instances than a slot number holds: the columns' way. */
	if (t->apis.n > INT32_MAX || launch_sums_build(t, sel, &ls)) {
		part_add_found(a, t, o, sel);
		return;
	}
	walk_sums(a, t, o, sel, &ls, marker);
	launch_sums_free(&ls);
}

void markers_part_finish(struct namestat *a, const struct trace *t, struct marker_table *out)
{
	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(a->n ? a->n : 1, sizeof(*out->rows));
	for (size_t i = 0; i < a->n; i++) {
		struct namestat_row *ar = &a->rows[i];
		struct marker_row *r = &out->rows[out->n++];
		durstat_finish(&ar->st);
		r->name = ar->name;
		r->calls = ar->calls;
		r->ops = ar->count;
		r->total = sat_from128(ar->sum[SUM_TOTAL]);
		r->gpu = sat_from128(ar->sum[SUM_GPU]);
		r->whole = durstat_sum(&ar->st);
		r->min = ar->st.min;
		r->max = ar->st.max;
		r->p50 = durstat_percentile(&ar->st, 50);
	}
	out->total = sat_from128(a->total);
	namestat_free(a);
	sort_with(out->rows, out->n, sizeof(*out->rows), by_total_text, (void *)t);
}

/* The same figures from one trace as from the partial results of its
 * parts: the whole trace is one part. */
void markers_by_name(const struct trace *t, const struct api_order *o, const struct selection *sel,
		     struct marker_table *out)
{
	struct namestat a;
	namestat_init(&a);
	markers_part_add(&a, t, o, sel);
	markers_part_finish(&a, t, out);
}

void marker_table_free(struct marker_table *mt)
{
	free(mt->rows);
	memset(mt, 0, sizeof(*mt));
}

int64_t marker_row_avg(const struct marker_row *r)
{
	return r->calls ? r->whole / (int64_t)r->calls : 0;
}

void call_ops_build(const struct trace *t, struct call_ops *out)
{
	size_t n = t->apis.n;
	out->napis = n;
	out->first = xcalloc(n + 2, sizeof(*out->first));
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t c = trace_op_launch(t, (uint32_t)i);
		if (c != TRACE_NONE)
			out->first[c + 2]++;
	}
	for (size_t c = 0; c < n; c++)
		out->first[c + 2] += out->first[c + 1];
	out->ops = xmalloc_array(out->first[n + 1] ? out->first[n + 1] : 1, sizeof(*out->ops));
	/* first[c + 1] is the fill point of call c; it ends as call c + 1's start. */
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t c = trace_op_launch(t, (uint32_t)i);
		if (c != TRACE_NONE)
			out->ops[out->first[c + 1]++] = (uint32_t)i;
	}
}

void call_ops_free(struct call_ops *co)
{
	free(co->first);
	free(co->ops);
	memset(co, 0, sizeof(*co));
}

/* The first place in a thread's run (rows by start) not starting before x. */
static size_t first_from(const struct trace *t, const uint32_t *rows, size_t lo, size_t hi, int64_t x)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->apis.start[rows[mid]] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void marker_gpu_of(const struct trace *t, const struct api_order *o, const struct call_ops *co,
		   const struct selection *sel, uint32_t api, int64_t *gpu, uint64_t *ops)
{
	const struct window *w = sel ? &sel->window : NULL;
	uint32_t marker = api_marker_name(t);
	size_t k = t->apis.thread[api];
	int64_t s = t->apis.start[api], e = t->apis.end[api];
	*gpu = 0;
	*ops = 0;
	for (size_t p = first_from(t, o->rows, o->first[k], o->first[k + 1], s);
	     p < o->first[k + 1] && t->apis.start[o->rows[p]] <= e; p++) {
		uint32_t c = o->rows[p];
		if (trace_api_name(t, c) == marker || t->apis.end[c] > e)
			continue;
		for (uint32_t j = co->first[c]; j < co->first[c + 1]; j++) {
			uint32_t op = co->ops[j];
			if (!selected_op(sel, op))
				continue;
			*gpu = sat_add(*gpu, select_clipped(w, t->ops.start[op], t->ops.end[op]));
			(*ops)++;
		}
	}
}

uint32_t *markers_enclosing(const struct trace *t, uint32_t api, size_t *n)
{
	uint32_t marker = api_marker_name(t), *v = NULL;
	size_t cap = 0;
	*n = 0;
	for (size_t i = 0; marker != TRACE_NONE && api < t->apis.n && i < t->apis.n; i++) {
		if (i == api || trace_api_name(t, i) != marker || t->apis.thread[i] != t->apis.thread[api] ||
		    t->apis.start[i] > t->apis.start[api] || t->apis.end[i] < t->apis.end[api])
			continue;
		v = xgrow(v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = (uint32_t)i;
	}
	sort_with(v, *n, sizeof(*v), by_row_time, (void *)t);
	return v;
}
