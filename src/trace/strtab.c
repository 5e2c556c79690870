#include "config.h"
#include "trace/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Eight bytes a step, then a final mix for the low bits the slots are
 * taken from: kernel names run to hundreds of bytes, and every op's name
 * is interned by the JSON readers. Never stored (a cache reindexes). */
static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len, w;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s + i, len - i);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

static int same(const struct strtab *t, uint32_t id, const char *s, size_t len)
{
	return t->len[id] == len && memcmp(t->bytes + t->offset[id], s, len) == 0;
}

static void rehash(struct strtab *t, size_t nslots)
{
	free(t->slots);
	t->slots = xcalloc(nslots, sizeof(*t->slots));
	t->nslots = nslots;
	for (uint32_t id = 0; id < t->count; id++) {
		size_t i = hash_bytes(strtab_get(t, id), t->len[id]) & (nslots - 1);
		while (t->slots[i])
			i = (i + 1) & (nslots - 1);
		t->slots[i] = id + 1;
	}
}

void strtab_reindex(struct strtab *t)
{
	size_t nslots = 1024;
	while (nslots <= (size_t)t->count * 2)
		nslots *= 2;
	rehash(t, nslots);
}

void strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof(*t));
	strtab_intern_len(t, "", 0);
}

void strtab_free(struct strtab *t)
{
	free(t->bytes);
	free(t->offset);
	free(t->len);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

uint32_t strtab_find(const struct strtab *t, const char *s, size_t len)
{
	if (!t->nslots)
		return UINT32_MAX;
	size_t i = hash_bytes(s, len) & (t->nslots - 1);
	for (; t->slots[i]; i = (i + 1) & (t->nslots - 1)) {
		if (same(t, t->slots[i] - 1, s, len))
			return t->slots[i] - 1;
	}
	return UINT32_MAX;
}

static uint32_t append(struct strtab *t, const char *s, size_t len)
{
	uint32_t id = t->count++;
	t->bytes = xgrow(t->bytes, &t->bytes_cap, t->bytes_len + len + 1, 1);
	memcpy(t->bytes + t->bytes_len, s, len);
	t->bytes[t->bytes_len + len] = '\0';
	t->offset = xgrow(t->offset, &t->offset_cap, t->count, sizeof(*t->offset));
	t->len = xgrow(t->len, &t->len_cap, t->count, sizeof(*t->len));
	t->offset[id] = t->bytes_len;
	t->len[id] = (uint32_t)len;
	t->bytes_len += len + 1;
	return id;
}

uint32_t strtab_intern_len(struct strtab *t, const char *s, size_t len)
{
	if ((size_t)t->count * 2 >= t->nslots)
		rehash(t, t->nslots ? t->nslots * 2 : 1024);
	size_t i = hash_bytes(s, len) & (t->nslots - 1);
	for (; t->slots[i]; i = (i + 1) & (t->nslots - 1)) {
		if (same(t, t->slots[i] - 1, s, len))
			return t->slots[i] - 1;
	}
	uint32_t id = append(t, s, len);
	t->slots[i] = id + 1;
	return id;
}

uint32_t strtab_intern(struct strtab *t, const char *s)
{
	return strtab_intern_len(t, s, strlen(s));
}
