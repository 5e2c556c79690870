#include "config.h"
#include "export/idset.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Ranges up to this many ids get a flat bitmap (16 MiB at most). */
#define BITMAP_MAX ((uint64_t)1 << 27)
/* Pages give way to a hash when they pass this size and hold fewer than
 * PAGE_MIN_IDS members each on average: a hash slot costs 16 bytes per
 * member at half load, 32 with growth, a page 512 bytes. */
#define PAGES_SMALL ((size_t)16 << 20)
#define PAGE_MIN_IDS 32

void idset_init(struct idset *s, int64_t lo, int64_t hi)
{
	memset(s, 0, sizeof(*s));
	s->lo = lo;
	s->hi = hi >= lo ? hi : lo;
	uint64_t range = (uint64_t)s->hi - (uint64_t)s->lo;
	if (range < BITMAP_MAX) {
		s->mode = IDSET_FLAT;
		s->bits = xcalloc((size_t)(range / 8 + 1), 1);
	} else {
		s->mode = IDSET_PAGED;
		idmap_init(&s->dir);
	}
	idmap_init(&s->map);
}

static void free_pages(struct idset *s)
{
	for (size_t i = 0; i < s->npages; i++)
		free(s->pages[i]);
	free(s->pages);
	idmap_free(&s->dir);
	s->pages = NULL;
	s->npages = s->cap = 0;
}

void idset_free(struct idset *s)
{
	free(s->bits);
	free_pages(s);
	idmap_free(&s->map);
	memset(s, 0, sizeof(*s));
}

/* The page of at (offset from lo), made when missing. */
static uint8_t *page_for(struct idset *s, uint64_t at)
{
	uint32_t v;
	uint64_t no = at >> IDSET_PAGE_SHIFT;
	if (idmap_get(&s->dir, no, &v))
		return s->pages[v];
	if (s->npages == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->pages = xrealloc_array(s->pages, s->cap, sizeof(*s->pages));
	}
	s->pages[s->npages] = xcalloc(IDSET_PAGE_BYTES, 1);
	idmap_put(&s->dir, no, (uint32_t)s->npages);
	return s->pages[s->npages++];
}

static size_t members_into(const struct idset *s, int64_t *ids);

/* Too scattered for pages: move the members to a hash. */
static void pages_to_hash(struct idset *s)
{
	int64_t *ids = xmalloc_array(s->count ? s->count : 1, sizeof(*ids));
	size_t n = members_into(s, ids);
	free_pages(s);
	s->mode = IDSET_HASH;
	for (size_t i = 0; i < n; i++)
		idmap_put(&s->map, (uint64_t)ids[i], 1);
	free(ids);
}

void idset_add(struct idset *s, int64_t id)
{
	if (id < s->lo || id > s->hi || idset_has(s, id))
		return;
	uint64_t at = (uint64_t)id - (uint64_t)s->lo;
	switch (s->mode) {
	case IDSET_FLAT:
		s->bits[at >> 3] |= (uint8_t)(1u << (at & 7));
		break;
	case IDSET_PAGED: {
		uint64_t in = at & (((uint64_t)1 << IDSET_PAGE_SHIFT) - 1);
		page_for(s, at)[in >> 3] |= (uint8_t)(1u << (in & 7));
		break;
	}
	default:
		idmap_put(&s->map, (uint64_t)id, 1);
	}
	if (!s->count || id < s->min)
		s->min = id;
	if (!s->count || id > s->max)
		s->max = id;
	s->count++;
	if (s->mode == IDSET_PAGED && s->npages * IDSET_PAGE_BYTES > PAGES_SMALL &&
	    s->count < s->npages * PAGE_MIN_IDS)
		pages_to_hash(s);
}

void idset_merge(struct idset *s, const struct idset *from)
{
	if (!from->count)
		return;
	if (s->mode != IDSET_FLAT || from->mode != IDSET_FLAT || s->lo != from->lo || s->hi != from->hi) {
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

/* The bits of one bitmap from byte first to byte last, as ids from base. */
static size_t bits_into(const uint8_t *bits, uint64_t first, uint64_t last, int64_t base, int64_t *ids)
{
	size_t n = 0;
	for (uint64_t byte = first; byte <= last; byte++)
		for (uint8_t b = bits[byte]; b; b &= (uint8_t)(b - 1))
			ids[n++] = base + (int64_t)(byte * 8 + (uint64_t)__builtin_ctz(b));
	return n;
}

struct page_ref {
	uint64_t no;
	uint32_t index;
};

static int by_page(const void *a, const void *b)
{
	uint64_t x = ((const struct page_ref *)a)->no, y = ((const struct page_ref *)b)->no;
	return (x > y) - (x < y);
}

/* The members, rising, into ids (room for count). */
static size_t members_into(const struct idset *s, int64_t *ids)
{
	size_t n = 0;
	if (!s->count)
		return 0;
	if (s->mode == IDSET_FLAT) {
		/* Only the bytes between the first and last member are read. */
		uint64_t from = (uint64_t)(s->min - s->lo) >> 3, to = (uint64_t)(s->max - s->lo) >> 3;
		return bits_into(s->bits, from, to, s->lo, ids);
	}
	if (s->mode == IDSET_PAGED) {
		struct page_ref *refs = xmalloc_array(s->npages, sizeof(*refs));
		size_t k = 0;
		for (size_t i = 0; i < s->dir.nslots; i++)
			if (s->dir.slots[i].used)
				refs[k++] = (struct page_ref){ s->dir.slots[i].key, s->dir.slots[i].val };
		qsort(refs, k, sizeof(*refs), by_page);
		for (size_t i = 0; i < k; i++)
			n += bits_into(s->pages[refs[i].index], 0, IDSET_PAGE_BYTES - 1,
				       (int64_t)((uint64_t)s->lo + (refs[i].no << IDSET_PAGE_SHIFT)),
				       ids + n);
		free(refs);
		return n;
	}
	for (size_t i = 0; i < s->map.nslots; i++)
		if (s->map.slots[i].used)
			ids[n++] = (int64_t)s->map.slots[i].key;
	qsort(ids, n, sizeof(*ids), by_id);
	return n;
}

size_t idset_members(const struct idset *s, int64_t **out)
{
	*out = xmalloc_array(s->count ? s->count : 1, sizeof(**out));
	return members_into(s, *out);
}
