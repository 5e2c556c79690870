#include "config.h"
#include "export/idset.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Ranges up to this many ids get a bitmap (16 MiB at most). */
#define BITMAP_MAX ((uint64_t)1 << 27)

void idset_init(struct idset *s, int64_t lo, int64_t hi)
{
	memset(s, 0, sizeof(*s));
	s->lo = lo;
	s->hi = hi >= lo ? hi : lo;
	uint64_t range = (uint64_t)(s->hi - s->lo);
	if (range < BITMAP_MAX)
		s->bits = xcalloc((size_t)(range / 8 + 1), 1);
	else
		idmap_init(&s->map);
}

void idset_free(struct idset *s)
{
	if (s->bits)
		free(s->bits);
	else
		idmap_free(&s->map);
	memset(s, 0, sizeof(*s));
}

void idset_add(struct idset *s, int64_t id)
{
	if (id < s->lo || id > s->hi || idset_has(s, id))
		return;
	if (s->bits) {
		uint64_t at = (uint64_t)(id - s->lo);
		s->bits[at >> 3] |= (uint8_t)(1u << (at & 7));
	} else {
		idmap_put(&s->map, (uint64_t)id, 1);
	}
	if (!s->count || id < s->min)
		s->min = id;
	if (!s->count || id > s->max)
		s->max = id;
	s->count++;
}

void idset_merge(struct idset *s, const struct idset *from)
{
	if (!from->count)
		return;
	if (!s->bits || !from->bits || s->lo != from->lo || s->hi != from->hi) {
		int64_t *ids;
		size_t n = idset_members(from, &ids);
		for (size_t i = 0; i < n; i++)
			idset_add(s, ids[i]);
		free(ids);
		return;
	}
	/* Two bitmaps over one range: OR the bytes that hold from's members. */
	uint64_t first = (uint64_t)(from->min - from->lo) >> 3, last = (uint64_t)(from->max - from->lo) >> 3;
	int was_empty = s->count == 0;
	for (uint64_t b = first; b <= last; b++) {
		uint8_t was = s->bits[b], now = was | from->bits[b];
		s->count += (size_t)(__builtin_popcount(now) - __builtin_popcount(was));
		s->bits[b] = now;
	}
	if (was_empty || from->min < s->min)
		s->min = from->min;
	if (was_empty || from->max > s->max)
		s->max = from->max;
}

static int by_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

size_t idset_members(const struct idset *s, int64_t **out)
{
	int64_t *ids = xmalloc_array(s->count, sizeof(*ids));
	size_t n = 0;
	if (s->bits && s->count) {
		/* Only the bytes between the first and last member are read. */
		uint64_t from = (uint64_t)(s->min - s->lo) >> 3, to = (uint64_t)(s->max - s->lo) >> 3;
		for (uint64_t byte = from; byte <= to; byte++)
			for (uint8_t b = s->bits[byte]; b; b &= (uint8_t)(b - 1))
				ids[n++] = s->lo + (int64_t)(byte * 8 + (uint64_t)__builtin_ctz(b));
	} else if (s->count) {
		for (size_t i = 0; i < s->map.nslots; i++)
			if (s->map.used[i])
				ids[n++] = (int64_t)s->map.keys[i];
		qsort(ids, n, sizeof(*ids), by_id);
	}
	*out = ids;
	return n;
}
