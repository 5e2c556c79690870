/* Internal to the exporter: which rows of a single rpd input go, as sets
 * of ids (bitmaps over the ids' range), chosen by reading the input's
 * link and API tables once each. SQL asks the sets through the function
 * rpdtop_has(set, id). */
#ifndef RPDTOP_EXPORT_SELECT_H
#define RPDTOP_EXPORT_SELECT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "export/export_sql.h"

struct idset {
	int64_t lo, hi;       /* ids lo..hi have bits */
	uint8_t *bits;
	size_t count;
	int64_t min, max;     /* of the ids in it (count > 0) */
};

enum { SET_OPS, SET_APIS, SET_LINKS, SET_STRINGS, NSETS };

struct export_sets {
	struct idset set[NSETS];
};

static inline int idset_has(const struct idset *s, int64_t id)
{
	return id >= s->lo && id <= s->hi && (s->bits[(uint64_t)(id - s->lo) >> 3] >> ((id - s->lo) & 7) & 1);
}

/* Choose: the exported ops (sorted ids), the links of rocpd_api_ops that
 * reach them (by rowid), and the API calls that launched them or whose
 * name (a marker's text) passes the filter and that start in the window.
 * src gives the input's connection and the filter's judgement of names.
 * Returns an SQLite code. */
int export_choose(struct exporter *x, struct export_src *src, const int64_t *ops, size_t nops,
		  struct export_sets *out);
void export_sets_free(struct export_sets *s);

/* An empty set for ids lo..hi; add one to it. */
void idset_init(struct idset *s, int64_t lo, int64_t hi);
void idset_add(struct idset *s, int64_t id);

/* rpdtop_has(set, id) on the output's connection, and rpdtop_mark(set,
 * id), which adds id to the set (returns 0). */
int export_sets_register(sqlite3 *db, struct export_sets *s);

#endif
