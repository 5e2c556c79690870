/* A set of database ids: a bitmap over their range when that range is
 * small, a hash otherwise (ids of several processes can lie billions
 * apart: a bitmap over them would cost gigabytes and seconds). */
#ifndef RPDTOP_EXPORT_IDSET_H
#define RPDTOP_EXPORT_IDSET_H

#include <stddef.h>
#include <stdint.h>

#include "util/idmap.h"

struct idset {
	int64_t lo, hi;   /* ids outside lo..hi are never members */
	uint8_t *bits;    /* bitmap mode: a bit per id from lo */
	struct idmap map; /* hash mode (bits == NULL) */
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

static inline int idset_has(const struct idset *s, int64_t id)
{
	uint32_t v;
	if (id < s->lo || id > s->hi)
		return 0;
	if (!s->bits)
		return idmap_get(&s->map, (uint64_t)id, &v);
	uint64_t at = (uint64_t)(id - s->lo);
	return s->bits[at >> 3] >> (at & 7) & 1;
}

#endif
