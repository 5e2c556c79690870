#include "config.h"
#include "trace/host_copies.h"

#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "trace/trace_borrow.h"
#include "util/xalloc.h"

void trace_host_copies_free(struct trace_host_copies *h)
{
	free(h->start);
	free(h->end);
	free(h->name);
	free(h->input);
	memset(h, 0, sizeof(*h));
}

void trace_add_host_copy(struct trace *t, uint32_t input, int64_t start, int64_t end, uint32_t name)
{
	/* They come with the ops, and are borrowed with them. */
	trace_own_ops(t);
	struct trace_host_copies *h = &t->host_copies;
	if (h->n == h->cap) {
		h->cap = h->cap < 64 ? 64 : h->cap * 2;
		h->start = xrealloc_array(h->start, h->cap, sizeof(*h->start));
		h->end = xrealloc_array(h->end, h->cap, sizeof(*h->end));
		h->name = xrealloc_array(h->name, h->cap, sizeof(*h->name));
		h->input = xrealloc_array(h->input, h->cap, sizeof(*h->input));
	}
	h->start[h->n] = start;
	h->end[h->n] = end;
	h->name[h->n] = name;
	h->input[h->n++] = input;
}

void trace_host_copies_merge(struct trace *t, const struct trace_host_copies *src, const uint32_t *str,
			     const uint32_t *input)
{
	for (size_t i = 0; i < src->n; i++)
		if (input[src->input[i]] != TRACE_NONE)
			trace_add_host_copy(t, input[src->input[i]], src->start[i], src->end[i],
					    str[src->name[i]]);
}
