/* A hash map from 64-bit keys to 32-bit values, for translating database
 * ids (string ids, lane keys) into the trace's small indices. */
#ifndef RPDTOP_IDMAP_H
#define RPDTOP_IDMAP_H

#include <stddef.h>
#include <stdint.h>

/* One slot holds key, value and its use, so a probe touches one cache
 * line: the maps of large traces are far bigger than the caches. */
struct idmap_slot {
	uint64_t key;
	uint32_t val, used;
};

struct idmap {
	struct idmap_slot *slots;
	size_t count, nslots;
};

void idmap_init(struct idmap *m);
void idmap_free(struct idmap *m);
void idmap_put(struct idmap *m, uint64_t key, uint32_t val);
/* Store the value of key in *val; returns 0 when the key is absent. */
int idmap_get(const struct idmap *m, uint64_t key, uint32_t *val);
/* Combine up to three small keys into one, for composite lookups. */
uint64_t idmap_key3(uint64_t a, uint64_t b, uint64_t c);

#endif
