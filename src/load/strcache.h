/* String tables of an input read by id into a trace's interned strings,
 * each row fetched the first time it is used. */
#ifndef RPDTOP_LOAD_STRCACHE_H
#define RPDTOP_LOAD_STRCACHE_H

#include <sqlite3.h>

#include "sqlfile/sqlread.h"
#include "trace/trace.h"
#include "util/idmap.h"

/* Intern column col of the current row. */
uint32_t sql_intern_column(struct trace *t, sqlite3_stmt *st, int col);

/* A string table read by id, each row fetched the first time it is used:
 * GPU ops reference few distinct strings, and point lookups beat scanning
 * a table full of arguments. */
struct strcache {
	const char *table, *column; /* the strings' column ("string", nsys: "value") */
	struct idmap map;           /* database id -> interned id */
	sqlite3_stmt *lookup;
};

void strcache_init(struct strcache *c, const char *table);
/* The same for a table whose strings are in another column than "string". */
void strcache_init_column(struct strcache *c, const char *table, const char *column);
void strcache_free(struct strcache *c);
int strcache_get(struct strcache *c, const struct sqlsrc *src, struct trace *t, sqlite3_int64 id,
		 uint32_t *out);
/* Read the whole table at once (when nearly every row will be used). */
int strcache_fill(struct strcache *c, const struct sqlsrc *src, struct trace *t);
/* A cached string, or a visible placeholder for a dangling reference. */
uint32_t strcache_peek(struct strcache *c, struct trace *t, sqlite3_int64 id);

#endif
