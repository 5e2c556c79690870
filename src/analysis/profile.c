#include "config.h"
#include "analysis/profile.h"

#include <stdlib.h>
#include <string.h>

#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

static int in_scope(const struct trace *t, size_t op, enum profile_scope scope, const struct selection *sel)
{
	return (scope == PROFILE_ALL_OPS || t->ops.kind[op] == OP_KERNEL) && selected_op(sel, op);
}

static int by_total_then_name(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct profile_row *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(trace_str(t, x->name), trace_str(t, y->name));
}

void profile_by_name(const struct trace *t, enum profile_scope scope, const struct selection *sel,
		     struct profile *out)
{
	/* Row of each name, indexed by string id: a dense array is the fastest
	 * group-by there is, and names are string ids already. */
	uint32_t *row_of = xmalloc_array(t->strings.count, sizeof(*row_of));
	memset(row_of, 0xff, t->strings.count * sizeof(*row_of));
	size_t cap = 0;
	const struct window *w = sel ? &sel->window : NULL;
	memset(out, 0, sizeof(*out));

	for (size_t i = 0; i < t->ops.n; i++) {
		if (!in_scope(t, i, scope, sel))
			continue;
		uint32_t name = t->ops.name[i];
		int64_t d = sat_sub(t->ops.end[i], t->ops.start[i]);
		if (row_of[name] == UINT32_MAX) {
			out->rows = xgrow(out->rows, &cap, out->n + 1, sizeof(*out->rows));
			out->rows[out->n] = (struct profile_row){ .name = name, .min = d, .max = d };
			row_of[name] = (uint32_t)out->n++;
		}
		struct profile_row *r = &out->rows[row_of[name]];
		int64_t inside = select_clipped(w, t->ops.start[i], t->ops.end[i]);
		r->calls++;
		r->total = sat_add(r->total, inside);
		r->whole = sat_add(r->whole, d);
		if (d < r->min)
			r->min = d;
		if (d > r->max)
			r->max = d;
		out->calls++;
		out->total = sat_add(out->total, inside);
	}
	free(row_of);
	if (out->n)
		sort_with(out->rows, out->n, sizeof(*out->rows), by_total_then_name, (void *)t);
}

void profile_free(struct profile *p)
{
	free(p->rows);
	memset(p, 0, sizeof(*p));
}

int64_t profile_row_avg(const struct profile_row *r)
{
	return r->calls ? r->whole / (int64_t)r->calls : 0;
}

double profile_row_percent(const struct profile *p, const struct profile_row *r)
{
	return p->total ? 100.0 * (double)r->total / (double)p->total : 0.0;
}
