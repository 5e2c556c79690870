/* Interned strings: each distinct string is stored once and named by a
 * 32-bit id. Id 0 is always the empty string. */
#ifndef RPDTOP_STRTAB_H
#define RPDTOP_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab {
	char *bytes; /* all strings, NUL-terminated, back to back */
	size_t bytes_len, bytes_cap;
	uint64_t *offset; /* offset[id] into bytes */
	uint32_t *len;    /* len[id], without the NUL */
	uint32_t count;
	size_t offset_cap, len_cap;
	uint32_t *slots; /* open-addressing hash: id + 1, 0 = empty */
	size_t nslots;
};

void strtab_init(struct strtab *t);
void strtab_free(struct strtab *t);
/* Return the id of s[0..len), adding it when new. */
uint32_t strtab_intern_len(struct strtab *t, const char *s, size_t len);
uint32_t strtab_intern(struct strtab *t, const char *s);
/* Make the lookup of strings set otherwise than by interning (bytes,
 * offset, len and count; each string once). */
void strtab_reindex(struct strtab *t);
/* Id of s, or UINT32_MAX when it is not in the table. */
uint32_t strtab_find(const struct strtab *t, const char *s, size_t len);

static inline const char *strtab_get(const struct strtab *t, uint32_t id)
{
	return t->bytes + t->offset[id];
}

static inline uint32_t strtab_len(const struct strtab *t, uint32_t id)
{
	return t->len[id];
}

#endif
