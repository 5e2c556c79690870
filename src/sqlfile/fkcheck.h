#ifndef RPDTOP_FKCHECK_H
#define RPDTOP_FKCHECK_H

#include <sqlite3.h>
#include <stddef.h>

/* Check the foreign keys of db's main schema, each table in proportion
 * to its size (fkcheck.c says how): SQLITE_OK with problem empty when
 * they hold, else the first table found breaking one in problem; an
 * SQLite error code when a check could not run. */
int fkcheck_run(sqlite3 *db, char *problem, size_t size);

#endif
