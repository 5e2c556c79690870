/* Internal to the exporter: which rows of a single rpd input go, as sets
 * of ids (bitmaps over the ids' range), from the session's selection and
 * one read of the input's links. SQL asks the sets through the function
 * rpdtop_has(set, id). */
#ifndef RPDTOP_EXPORT_SELECT_H
#define RPDTOP_EXPORT_SELECT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "export/export_src.h"
#include "export/idset.h"

enum { SET_OPS, SET_APIS, SET_LINKS, SET_STRINGS, NSETS };

struct export_sets {
	struct idset set[NSETS];
};

/* Choose: the exported ops (sorted ids), the links of rocpd_api_ops that
 * reach them (by rowid), and the API calls: with a filter or window those
 * the session's selection keeps (its API rows read), else all of them.
 * Returns an SQLite code. */
int export_choose(struct exporter *x, struct export_src *src, const int64_t *ops, size_t nops,
		  struct export_sets *out);
void export_sets_free(struct export_sets *s);

/* rpdtop_has(set, id) on the output's connection, and rpdtop_mark(set,
 * id), which adds id to the set (returns 0); s NULL removes them. */
int export_sets_register(sqlite3 *db, struct export_sets *s);

#endif
