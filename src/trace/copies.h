/* What the inputs say of memory copies beyond their times: the bytes a
 * copy moved and, when recorded, where from and where to (rpd: the
 * launching call's rocpd_copyapi row; rocpd: rocpd_memory_copy's size and
 * agents). Kept per copy op, read with the API rows. */
#ifndef RPDTOP_TRACE_COPIES_H
#define RPDTOP_TRACE_COPIES_H

#include <stddef.h>
#include <stdint.h>

struct trace;

struct trace_copies {
	size_t n, cap;
	uint32_t *op;        /* op rows; rising once trace_copies_sort has run */
	int64_t *bytes;      /* as recorded */
	uint32_t *src, *dst; /* string ids ("0x7f59c1260000", "GPU 1"), TRACE_NONE: not known */
	int sorted;
};

void trace_copies_free(struct trace_copies *c);
/* The facts of op (src, dst: string ids of t, or TRACE_NONE); a later
 * one for the same op replaces nothing: the first is kept. */
void trace_add_copy(struct trace *t, uint32_t op, int64_t bytes, uint32_t src, uint32_t dst);
/* Order by op (and drop repeats), for trace_copy_find. */
void trace_copies_sort(struct trace_copies *c);
/* The entry of op, or TRACE_NONE. */
uint32_t trace_copy_find(const struct trace_copies *c, uint32_t op);
/* Add src's entries to t: op rows mapped by op (SIZE_MAX: left out, NULL:
 * the same), string ids by str. */
void trace_copies_merge(struct trace *t, const struct trace_copies *src, const size_t *op,
			const uint32_t *str);

#endif
