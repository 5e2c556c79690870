#include "config.h"
#include "sqlfile/dbfile_read.h"

#include "sqlfile/dbfile.h"

/* Readings without SQLite's locks before the one under them. */
#define UNLOCKED_ATTEMPTS 3

/* One reading: 0 or -1 as r->read says, or 1 when the file changed while
 * it was read without locks (what came of it does not count). */
static int read_once(const char *path, const struct dbfile_reading *r, unsigned flags, struct rpd_error *err)
{
	sqlite3 *db;
	struct dbfile_stamp stamp = { 0 };
	int rc = dbfile_open_stamped(path, flags, &db, &stamp, err);
	if (rc == 0) {
		int begun = dbfile_read_begin(db);
		rc = begun == SQLITE_OK ? r->read(r->ctx, db, path, err) : dbfile_error(db, begun, path, err);
		dbfile_read_end(db);
		/* Connections are closed as soon as a file is read: a run over
		 * many inputs must not hold a descriptor per file. */
		sqlite3_close(db);
	}
	/* Without locks, what was read may mix two states of the file, or
	 * fail on that (the open included): it is read again. */
	struct rpd_error changed;
	if (dbfile_unchanged(path, &stamp, &changed))
		return 1;
	return rc ? -1 : 0;
}

int dbfile_read(const char *path, const struct dbfile_reading *r, struct rpd_error *err)
{
	int rc = 1;
	for (int attempt = 0; rc == 1 && attempt <= UNLOCKED_ATTEMPTS; attempt++) {
		if (attempt && r->again)
			r->again(r->ctx);
		rc = read_once(path, r, attempt < UNLOCKED_ATTEMPTS ? 0 : DBFILE_LOCKED, err);
	}
	return rc ? -1 : 0;
}
