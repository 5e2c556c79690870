/* SQL run one statement per prepare. Text that carries a name read from an
 * input (quoted) must be exactly one statement: anything after it but white
 * space and comments is refused, not run. Our own scripts of several
 * statements are prepared and stepped one by one, never handed whole to
 * sqlite3_exec. */
#ifndef RPDTOP_SQLRUN_H
#define RPDTOP_SQLRUN_H

#include <sqlite3.h>
#include <stdint.h>

#include "util/error.h"

/* Prepare the one statement of sql (NULL: out of memory). 0, or -1 with
 * *why (valid until the next call on db) and *st NULL. */
int sql_prepare_checked(sqlite3 *db, const char *sql, sqlite3_stmt **st, const char **why);
/* The same, with *err "LABEL: reason" on failure. */
int sql_prepare_one(sqlite3 *db, const char *sql, sqlite3_stmt **st, const char *label,
		    struct rpd_error *err);
/* Prepare sql as sql_prepare_one does and step it to its end (rows are
 * dropped). 0, or -1 with *err "LABEL: reason". */
int sql_run_one(sqlite3 *db, const char *sql, const char *label, struct rpd_error *err);
/* Run a script of our own, statement after statement. Returns an SQLite
 * code; sqlite3_errmsg(db) says what failed. */
int sql_run_script(sqlite3 *db, const char *sql);
/* The integer in the first column of the first row of sql (one statement,
 * prepared as sql_prepare_checked does; arg bound as ?1 when not NULL),
 * or none: no row, NULL there, or an error. */
int64_t sql_int_of(sqlite3 *db, const char *sql, const char *arg, int64_t none);

#endif
