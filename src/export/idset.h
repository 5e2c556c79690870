/* A set of database ids. A flat bitmap over their range when that range is
 * small; else bitmap pages of 4096 ids found through a small hash, since
 * the ids of real traces lie in dense runs billions apart (a session's ids
 * start at its number times 2^32); a hash of the ids themselves when the
 * members are so scattered that pages would cost more than it. */
#ifndef RPDTOP_EXPORT_IDSET_H
#define RPDTOP_EXPORT_IDSET_H

#include <stddef.h>
#include <stdint.h>

#include "util/idmap.h"

#define IDSET_PAGE_SHIFT 12
#define IDSET_PAGE_BYTES ((size_t)1 << (IDSET_PAGE_SHIFT - 3))

enum idset_mode { IDSET_FLAT, IDSET_PAGED, IDSET_HASH };

struct idset {
	int64_t lo, hi; /* ids outside lo..hi are never members */
	enum idset_mode mode;
	uint8_t *bits;      /* flat: a bit per id from lo */
	struct idmap dir;   /* paged: page number -> index in pages */
	uint8_t **pages;    /* paged: IDSET_PAGE_BYTES each */
	size_t npages, cap; /* paged */
	struct idmap map;   /* hash: the members */
	size_t count;
	int64_t min, max; /* of the members (count > 0) */
};

/* An empty set for ids lo..hi. */
void idset_init(struct idset *s, int64_t lo, int64_t hi);
void idset_free(struct idset *s);
void idset_add(struct idset *s, int64_t id);
/* Add every member of from to s. */
void idset_merge(struct idset *s, const struct idset *from);
/* The members, rising, in a new array (*out); returns how many. */
size_t idset_members(const struct idset *s, int64_t **out);

static inline int idset_bit(const uint8_t *bits, uint64_t at)
{
	return bits[at >> 3] >> (at & 7) & 1;
}

static inline int idset_has(const struct idset *s, int64_t id)
{
	uint32_t v;
	if (id < s->lo || id > s->hi)
		return 0;
	uint64_t at = (uint64_t)id - (uint64_t)s->lo;
	switch (s->mode) {
	case IDSET_FLAT:
		return idset_bit(s->bits, at);
	case IDSET_PAGED:
		return idmap_get(&s->dir, at >> IDSET_PAGE_SHIFT, &v) &&
		       idset_bit(s->pages[v], at & (((uint64_t)1 << IDSET_PAGE_SHIFT) - 1));
	default:
		return idmap_get(&s->map, (uint64_t)id, &v);
	}
}

#endif
