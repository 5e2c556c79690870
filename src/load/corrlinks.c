#include "config.h"
#include "load/corrlinks.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void corrlinks_init(struct corrlinks *c)
{
	memset(c, 0, sizeof(*c));
}

void corrlinks_free(struct corrlinks *c)
{
	free(c->calls);
	free(c->ops);
	memset(c, 0, sizeof(*c));
}

void corrlinks_call(struct corrlinks *c, int64_t proc, int64_t corr, int64_t start, uint32_t row)
{
	c->calls = xgrow(c->calls, &c->calls_cap, c->ncalls + 1, sizeof(*c->calls));
	c->calls[c->ncalls++] = (struct corr_call){ proc, corr, start, row };
}

void corrlinks_op(struct corrlinks *c, int64_t proc, int64_t corr, uint32_t row)
{
	c->ops = xgrow(c->ops, &c->ops_cap, c->nops + 1, sizeof(*c->ops));
	c->ops[c->nops++] = (struct corr_op){ proc, corr, row };
}

void corrlinks_ops_back(struct corrlinks *c, size_t n)
{
	if (n < c->nops)
		c->nops = n;
}

static int cmp64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* By process, id, start, then the order read (rows ascend as read). */
static int call_order(const void *pa, const void *pb)
{
	const struct corr_call *a = pa, *b = pb;
	int c = cmp64(a->proc, b->proc);
	c = c ? c : cmp64(a->corr, b->corr);
	c = c ? c : cmp64(a->start, b->start);
	return c ? c : (a->row > b->row) - (a->row < b->row);
}

/* The first call of proc and corr in the sorted calls, or NULL. */
static const struct corr_call *first_call(const struct corrlinks *c, int64_t proc, int64_t corr)
{
	size_t lo = 0, hi = c->ncalls;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct corr_call *m = &c->calls[mid];
		int k = cmp64(m->proc, proc);
		k = k ? k : cmp64(m->corr, corr);
		if (k < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->ncalls && c->calls[lo].proc == proc && c->calls[lo].corr == corr)
		return &c->calls[lo];
	return NULL;
}

void corrlinks_link(struct corrlinks *c, struct trace *t)
{
	if (c->ncalls > 1)
		qsort(c->calls, c->ncalls, sizeof(*c->calls), call_order);
	trace_reserve_links(t, c->nops);
	for (size_t i = 0; i < c->nops; i++) {
		const struct corr_call *call = first_call(c, c->ops[i].proc, c->ops[i].corr);
		if (call)
			trace_add_link(t, call->row, c->ops[i].row);
	}
}
