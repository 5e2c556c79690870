#include "config.h"
#include "util/idmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* splitmix64 finaliser: database ids are dense and sequential, which a
 * plain modulo would cluster. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

uint64_t idmap_key3(uint64_t a, uint64_t b, uint64_t c)
{
	return mix(a) ^ mix(b + 0x9e3779b97f4a7c15ull) * 3 ^ mix(c + 0x7f4a7c159e3779b9ull) * 7;
}

void idmap_init(struct idmap *m)
{
	memset(m, 0, sizeof(*m));
}

void idmap_free(struct idmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static size_t slot_of(const struct idmap *m, uint64_t key)
{
	size_t i = mix(key) & (m->nslots - 1);
	while (m->slots[i].used && m->slots[i].key != key)
		i = (i + 1) & (m->nslots - 1);
	return i;
}

static void resize(struct idmap *m, size_t nslots)
{
	struct idmap old = *m;
	m->slots = xcalloc(nslots, sizeof(*m->slots));
	m->nslots = nslots;
	for (size_t i = 0; i < old.nslots; i++)
		if (old.slots[i].used)
			m->slots[slot_of(m, old.slots[i].key)] = old.slots[i];
	free(old.slots);
}

void idmap_put(struct idmap *m, uint64_t key, uint32_t val)
{
	if ((m->count + 1) * 2 > m->nslots)
		resize(m, m->nslots ? m->nslots * 2 : 256);
	struct idmap_slot *s = &m->slots[slot_of(m, key)];
	if (!s->used) {
		s->used = 1;
		s->key = key;
		m->count++;
	}
	s->val = val;
}

int idmap_get(const struct idmap *m, uint64_t key, uint32_t *val)
{
	if (!m->nslots)
		return 0;
	const struct idmap_slot *s = &m->slots[slot_of(m, key)];
	if (!s->used)
		return 0;
	*val = s->val;
	return 1;
}
