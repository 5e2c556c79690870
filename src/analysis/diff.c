#include "config.h"
#include "analysis/diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/profile.h"
#include "util/natcmp.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

struct keyed {
	const char *key;
	size_t row; /* in the profile */
};

static int by_key(const void *a, const void *b, void *ctx)
{
	const struct keyed *x = a, *y = b;
	(void)ctx;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* Nearest rank: the value at rank ceil(n / 2) of v sorted. */
static int64_t median(int64_t *v, size_t n)
{
	if (!n)
		return 0;
	sort_int64(v, n);
	return v[(n + 1) / 2 - 1];
}

/* The groups' whole durations side by side (a slice per group, in the
 * order of out->names), then each slice's median; the last slice, of
 * every op, the total's. */
static void medians(const struct trace *t, const struct selection *sel, const uint32_t *group_of,
		    struct diff_run *out)
{
	size_t *at = xcalloc(out->n + 1, sizeof(*at)), sum = 0;
	for (size_t g = 0; g < out->n; g++) {
		at[g] = sum;
		sum += out->names[g].calls;
	}
	at[out->n] = sum;
	int64_t *d = xmalloc_array(sum ? 2 * sum : 1, sizeof(*d));
	int64_t *all = d + sum;
	size_t *fill = xmalloc_array(out->n + 1, sizeof(*fill));
	memcpy(fill, at, (out->n + 1) * sizeof(*fill));
	size_t k = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(sel, i))
			continue;
		int64_t dur = sat_sub(t->ops.end[i], t->ops.start[i]);
		d[fill[group_of[t->ops.name[i]]]++] = dur;
		all[k++] = dur;
	}
	for (size_t g = 0; g < out->n; g++)
		out->names[g].p50 = median(d + at[g], out->names[g].calls);
	out->p50 = median(all, k);
	free(fill);
	free(d);
	free(at);
}

void diff_run_build(const struct trace *t, const struct selection *sel, diff_name_fn shown, void *ctx,
		    struct diff_run *out)
{
	struct profile p;
	memset(out, 0, sizeof(*out));
	profile_by_name(t, PROFILE_ALL_OPS, sel, &p);
	out->ops = p.calls;
	out->total = p.total;
	/* Names shown alike are one group: sorted by how they are shown. */
	struct keyed *k = xmalloc_array(p.n ? p.n : 1, sizeof(*k));
	for (size_t i = 0; i < p.n; i++)
		k[i] = (struct keyed){ shown(ctx, p.rows[i].name), i };
	sort_with(k, p.n, sizeof(*k), by_key, NULL);
	uint32_t *group_of = xmalloc_array(t->strings.count ? t->strings.count : 1, sizeof(*group_of));
	out->names = xmalloc_array(p.n ? p.n : 1, sizeof(*out->names));
	for (size_t i = 0; i < p.n; i++) {
		const struct profile_row *r = &p.rows[k[i].row];
		if (!out->n || strcmp(out->names[out->n - 1].name, k[i].key) != 0)
			out->names[out->n++] = (struct diff_name){ .name = k[i].key };
		struct diff_name *g = &out->names[out->n - 1];
		g->calls += r->calls;
		g->total = sat_add(g->total, r->total);
		group_of[r->name] = (uint32_t)(out->n - 1);
	}
	medians(t, sel, group_of, out);
	free(group_of);
	free(k);
	profile_free(&p);
}

void diff_run_free(struct diff_run *r)
{
	free(r->names);
	memset(r, 0, sizeof(*r));
}

static int grew_past(int64_t base, int64_t next, double pct)
{
	return (double)(next - base) > pct / 100.0 * (double)base;
}

/* A share of more than DIFF_GATE_SHARE percent of a run's total. */
static int holds_share(int64_t part, int64_t total)
{
	return total > 0 && 100.0 * (double)part > DIFF_GATE_SHARE * (double)total;
}

static void fill_row(struct diff_row *r, double tolerance)
{
	r->delta = sat_sub(r->new_total, r->base_total);
	r->has_percent = r->base_total != 0;
	r->delta_percent = r->has_percent ? 100.0 * (double)r->delta / (double)r->base_total : 0.0;
	double mag = r->delta < 0 ? -(double)r->delta : (double)r->delta;
	if (!r->base_calls && r->new_calls)
		r->status = DIFF_ADDED;
	else if (r->base_calls && !r->new_calls)
		r->status = DIFF_REMOVED;
	else if (mag <= tolerance / 100.0 * (double)(r->base_total < 0 ? -r->base_total : r->base_total))
		r->status = DIFF_SAME;
	else
		r->status = r->delta > 0 ? DIFF_SLOWER : DIFF_FASTER;
}

static int by_delta(const void *a, const void *b, void *ctx)
{
	const struct diff_row *x = a, *y = b;
	(void)ctx;
	int64_t mx = x->delta < 0 ? -x->delta : x->delta, my = y->delta < 0 ? -y->delta : y->delta;
	if (mx != my)
		return mx > my ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void merge_names(const struct diff_run *base, const struct diff_run *next, struct diff *out)
{
	size_t i = 0, j = 0;
	out->rows = xmalloc_array(base->n + next->n ? base->n + next->n : 1, sizeof(*out->rows));
	while (i < base->n || j < next->n) {
		int c = i == base->n   ? 1
			: j == next->n ? -1
				       : strcmp(base->names[i].name, next->names[j].name);
		struct diff_row *r = &out->rows[out->n++];
		memset(r, 0, sizeof(*r));
		if (c <= 0) {
			r->name = base->names[i].name;
			r->base_calls = base->names[i].calls;
			r->base_total = base->names[i].total;
			r->base_p50 = base->names[i].p50;
			i++;
		}
		if (c >= 0) {
			r->name = next->names[j].name;
			r->new_calls = next->names[j].calls;
			r->new_total = next->names[j].total;
			r->new_p50 = next->names[j].p50;
			j++;
		}
		if (c == 0)
			out->common++;
	}
}

void diff_runs(const struct diff_run *base, const struct diff_run *next, double tolerance, double gate,
	       struct diff *out)
{
	memset(out, 0, sizeof(*out));
	out->total = (struct diff_row){ .name = "*total*",
					.base_calls = base->ops,
					.new_calls = next->ops,
					.base_total = base->total,
					.new_total = next->total,
					.base_p50 = base->p50,
					.new_p50 = next->p50 };
	fill_row(&out->total, tolerance);
	merge_names(base, next, out);
	for (size_t i = 0; i < out->n; i++)
		fill_row(&out->rows[i], tolerance);
	sort_with(out->rows, out->n, sizeof(*out->rows), by_delta, NULL);
	if (gate < 0)
		return;
	out->total.gated = grew_past(out->total.base_total, out->total.new_total, gate);
	out->ntripped = (size_t)out->total.gated;
	for (size_t i = 0; i < out->n; i++) {
		struct diff_row *r = &out->rows[i];
		if (!holds_share(r->base_total, base->total) && !holds_share(r->new_total, next->total))
			continue;
		r->gated = grew_past(r->base_total, r->new_total, gate);
		out->ntripped += (size_t)r->gated;
	}
}

void diff_free(struct diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

const char *diff_status_name(enum diff_status s)
{
	static const char *const names[] = { "added", "removed", "slower", "faster", "same" };
	return names[s];
}

unsigned diff_warnings(const struct diff *d, size_t base_gpus, size_t new_gpus)
{
	unsigned w = 0;
	uint64_t a = d->total.base_calls, b = d->total.new_calls;
	if (base_gpus != new_gpus)
		w |= DIFF_WARN_GPUS;
	if (a && b && !d->common)
		w |= DIFF_WARN_NO_COMMON;
	if (a > 2 * b || b > 2 * a)
		w |= DIFF_WARN_OPS;
	return w;
}

struct labelled {
	char label[128];
	const struct busy_row *row;
};

static int by_label(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return natcmp(((const struct labelled *)a)->label, ((const struct labelled *)b)->label);
}

static struct labelled *labelled_gpus(const struct trace *t, const struct busy *b)
{
	struct labelled *l = xmalloc_array(b->n ? b->n : 1, sizeof(*l));
	for (size_t i = 0; i < b->n; i++) {
		trace_gpu_label(t, b->rows[i].gpu, l[i].label, sizeof(l[i].label));
		l[i].row = &b->rows[i];
	}
	sort_with(l, b->n, sizeof(*l), by_label, NULL);
	return l;
}

struct diff_gpu *diff_gpus(const struct trace *tb, const struct busy *bb, const struct trace *tn,
			   const struct busy *bn, size_t *n)
{
	struct labelled *lb = labelled_gpus(tb, bb), *ln = labelled_gpus(tn, bn);
	*n = bb->n > bn->n ? bb->n : bn->n;
	struct diff_gpu *g = xcalloc(*n ? *n : 1, sizeof(*g));
	for (size_t i = 0; i < *n; i++) {
		if (i < bb->n) {
			snprintf(g[i].base_label, sizeof(g[i].base_label), "%s", lb[i].label);
			g[i].base_busy = lb[i].row->busy;
			g[i].base_idle = sat_sub(bb->wall, lb[i].row->busy);
		}
		if (i < bn->n) {
			snprintf(g[i].new_label, sizeof(g[i].new_label), "%s", ln[i].label);
			g[i].new_busy = ln[i].row->busy;
			g[i].new_idle = sat_sub(bn->wall, ln[i].row->busy);
		}
	}
	free(lb);
	free(ln);
	return g;
}
