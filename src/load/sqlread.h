/* What every reader of an input database shares: statements that report
 * schema mismatches clearly, and string tables read as they are needed. */
#ifndef RPDTOP_SQLREAD_H
#define RPDTOP_SQLREAD_H

#include <sqlite3.h>

#include "trace/trace.h"
#include "util/error.h"
#include "util/idmap.h"

struct sqlsrc {
	sqlite3 *db;
	const char *path;
	const char *format; /* "rpd" or "rocpd", for messages */
	struct rpd_error *err;
};

/* Prepare sql; a statement that does not prepare means the schema lacks a
 * table or column we read, reported as such. */
int sql_prepare(const struct sqlsrc *src, const char *sql, sqlite3_stmt **st);
/* Report a failed step (rc) as "PATH: reason"; returns -1. */
int sql_fail(const struct sqlsrc *src, int rc);
/* Does a table or view of this name exist? Returns an SQLite code. */
int sql_table_exists(sqlite3 *db, const char *name, int *exists);
/* The value of a rocpd_metadata tag into buf; 0 found, 1 absent, -1 error. */
int sql_metadata(const struct sqlsrc *src, const char *tag, char *buf, size_t size);

/* Intern column col of the current row. */
uint32_t sql_intern_column(struct trace *t, sqlite3_stmt *st, int col);

/* A string table read by id, each row fetched the first time it is used:
 * GPU ops reference few distinct strings, and point lookups beat scanning
 * a table full of arguments. */
struct strcache {
	const char *table;
	struct idmap map; /* database id -> interned id */
	sqlite3_stmt *lookup;
};

void strcache_init(struct strcache *c, const char *table);
void strcache_free(struct strcache *c);
int strcache_get(struct strcache *c, const struct sqlsrc *src, struct trace *t, sqlite3_int64 id,
		 uint32_t *out);
/* Read the whole table at once (when nearly every row will be used). */
int strcache_fill(struct strcache *c, const struct sqlsrc *src, struct trace *t);
/* A cached string, or a visible placeholder for a dangling reference. */
uint32_t strcache_peek(struct strcache *c, struct trace *t, sqlite3_int64 id);

#endif
