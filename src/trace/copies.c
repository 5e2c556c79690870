#include "config.h"
#include "trace/copies.h"

#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "util/sort.h"
#include "util/xalloc.h"

void trace_copies_free(struct trace_copies *c)
{
	free(c->op);
	free(c->bytes);
	free(c->src);
	free(c->dst);
	memset(c, 0, sizeof(*c));
}

static void add(struct trace_copies *c, uint32_t op, int64_t bytes, uint32_t src, uint32_t dst)
{
	if (c->n == c->cap) {
		c->cap = c->cap < 64 ? 64 : c->cap * 2;
		c->op = xrealloc_array(c->op, c->cap, sizeof(*c->op));
		c->bytes = xrealloc_array(c->bytes, c->cap, sizeof(*c->bytes));
		c->src = xrealloc_array(c->src, c->cap, sizeof(*c->src));
		c->dst = xrealloc_array(c->dst, c->cap, sizeof(*c->dst));
	}
	c->op[c->n] = op;
	c->bytes[c->n] = bytes;
	c->src[c->n] = src;
	c->dst[c->n++] = dst;
	c->sorted = 0;
}

void trace_add_copy(struct trace *t, uint32_t op, int64_t bytes, uint32_t src, uint32_t dst)
{
	trace_own_apis(t);
	add(&t->copies, op, bytes, src, dst);
}

static int by_op(const void *a, const void *b, void *ctx)
{
	const struct trace_copies *c = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (c->op[x] != c->op[y])
		return c->op[x] < c->op[y] ? -1 : 1;
	return (x > y) - (x < y); /* the first read first */
}

void trace_copies_sort(struct trace_copies *c)
{
	if (c->sorted || c->n == 0)
		return;
	uint32_t *order = xmalloc_array(c->n, sizeof(*order));
	for (size_t i = 0; i < c->n; i++)
		order[i] = (uint32_t)i;
	sort_with(order, c->n, sizeof(*order), by_op, c);
	struct trace_copies s = { 0 };
	for (size_t i = 0; i < c->n; i++) {
		uint32_t k = order[i];
		if (s.n > 0 && s.op[s.n - 1] == c->op[k])
			continue;
		add(&s, c->op[k], c->bytes[k], c->src[k], c->dst[k]);
	}
	free(order);
	trace_copies_free(c);
	*c = s;
	c->sorted = 1;
}

uint32_t trace_copy_find(const struct trace_copies *c, uint32_t op)
{
	size_t lo = 0, hi = c->sorted ? c->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->op[mid] < op)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->n && c->sorted && c->op[lo] == op ? (uint32_t)lo : TRACE_NONE;
}

static uint32_t map_str(const uint32_t *str, uint32_t id)
{
	return id == TRACE_NONE || !str ? id : str[id];
}

void trace_copies_merge(struct trace *t, const struct trace_copies *src, const size_t *op,
			const uint32_t *str)
{
	trace_own_apis(t);
	for (size_t i = 0; i < src->n; i++) {
		size_t row = op ? op[src->op[i]] : src->op[i];
		if (row != SIZE_MAX)
			add(&t->copies, (uint32_t)row, src->bytes[i], map_str(str, src->src[i]),
			    map_str(str, src->dst[i]));
	}
}
