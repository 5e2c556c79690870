#include "config.h"
#include "analysis/namestat.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void namestat_init(struct namestat *a)
{
	memset(a, 0, sizeof(*a));
}

void namestat_free(struct namestat *a)
{
	for (size_t i = 0; i < a->n; i++)
		durstat_free(&a->rows[i].st);
	free(a->rows);
	keymap_free(&a->map);
	memset(a, 0, sizeof(*a));
}

struct namestat_row *namestat_row(struct namestat *a, uint32_t name, size_t nstrings)
{
	int made;
	uint32_t i = keymap_row(&a->map, name, nstrings, a->n, &made);
	if (made) {
		a->rows = xgrow(a->rows, &a->cap, a->n + 1, sizeof(*a->rows));
		a->rows[a->n] = (struct namestat_row){ .name = name };
		durstat_init(&a->rows[a->n++].st);
	}
	return &a->rows[i];
}

void namestat_add(struct namestat *a, struct namestat_row *r, int64_t whole, int64_t in_total)
{
	r->calls++;
	r->sum[0] += in_total;
	durstat_add(&r->st, whole);
	a->calls++;
	a->total += in_total;
}

void namestat_merge_rows(struct namestat *a, const struct namestat *b, size_t nstrings)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct namestat_row *x = &b->rows[i];
		struct namestat_row *r = namestat_row(a, x->name, nstrings);
		r->calls += x->calls;
		r->count += x->count;
		for (size_t k = 0; k < NAMESTAT_SUMS; k++)
			r->sum[k] += x->sum[k];
		durstat_merge(&r->st, &x->st);
	}
	a->calls += b->calls;
	a->total += b->total;
}

#define NAMESTAT_BYTES_VERSION 1

void namestat_encode(const struct namestat *a, const struct trace *t, struct bytes_out *b)
{
	bytes_put_u8(b, NAMESTAT_BYTES_VERSION);
	bytes_put_u64(b, a->calls);
	bytes_put_i128(b, a->total);
	bytes_put_u64(b, a->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct namestat_row *r = &a->rows[i];
		bytes_put_str(b, trace_str(t, r->name));
		bytes_put_u64(b, r->calls);
		bytes_put_u64(b, r->count);
		for (size_t k = 0; k < NAMESTAT_SUMS; k++)
			bytes_put_i128(b, r->sum[k]);
		durstat_encode(&r->st, b);
	}
}

int namestat_merge(struct namestat *a, const struct part_in *in)
{
	struct bytes_in *b = in->in;
	struct strtab *strings = &in->whole->strings;
	if (bytes_get_u8(b) != NAMESTAT_BYTES_VERSION)
		return -1;
	a->calls += bytes_get_u64(b);
	a->total += bytes_get_i128(b);
	uint64_t n = bytes_get_count(b, 8);
	for (uint64_t i = 0; i < n && !b->bad; i++) {
		char *name = bytes_get_str(b);
		if (!name)
			return -1;
		struct namestat_row *r = namestat_row(a, strtab_intern(strings, name), strings->count);
		free(name);
		r->calls += bytes_get_u64(b);
		r->count += bytes_get_u64(b);
		for (size_t k = 0; k < NAMESTAT_SUMS; k++)
			r->sum[k] += bytes_get_i128(b);
		if (durstat_merge_bytes(&r->st, b))
			return -1;
	}
	return b->bad ? -1 : 0;
}
