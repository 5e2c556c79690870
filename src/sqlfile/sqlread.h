/* What every reader of an input database shares: statements that report
 * schema mismatches clearly, tables looked up, metadata read. */
#ifndef RPDTOP_SQLREAD_H
#define RPDTOP_SQLREAD_H

#include <sqlite3.h>
#include <stddef.h>

#include "util/error.h"

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
/* The same, for a table only (a view of the name does not count). */
int sql_base_table_exists(sqlite3 *db, const char *name, int *exists);
/* Rows of a table the file may lack or have otherwise than expected:
 * sql (built with sqlite3_mprintf, freed here) is prepared and each row
 * handed to fn. Returns 0 when every row was read, 1 when the statement
 * did not prepare or a step failed (nothing is reported: the caller
 * drops what it took), or fn's non-zero result. */
int sql_each_optional(sqlite3 *db, char *sql, int (*fn)(void *ctx, sqlite3_stmt *st), void *ctx);
/* The value of a rocpd_metadata tag into buf; 0 found, 1 absent, -1 error. */
int sql_metadata(const struct sqlsrc *src, const char *tag, char *buf, size_t size);

#endif
