/* One reading of an input database that no writer can spoil: read in one
 * snapshot, and read again when the file changed while it was read. */
#ifndef RPDTOP_DBFILE_READ_H
#define RPDTOP_DBFILE_READ_H

#include <sqlite3.h>

#include "util/error.h"

/* read: read what is wanted from db, inside its snapshot (0, or -1 with
 * *err set); again: forget what a reading added (NULL when nothing is
 * kept between readings), before the file is read once more. */
struct dbfile_reading {
	int (*read)(void *ctx, sqlite3 *db, const char *path, struct rpd_error *err);
	void (*again)(void *ctx);
	void *ctx;
};

/* Read the file at path through r: a few times without SQLite's locks (a
 * writer is never held off) while a writer changes the file meanwhile,
 * then once under them (a writer committing all the time waits for that
 * one). Whatever a reading came to (a torn file fails, or reads wrong),
 * it counts only when the file did not change under it. 0, or -1 with
 * *err set. */
int dbfile_read(const char *path, const struct dbfile_reading *r, struct rpd_error *err);

#endif
