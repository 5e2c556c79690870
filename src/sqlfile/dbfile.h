/* Opening an input database strictly read-only, with every way it can fail
 * turned into one short reason a person can act on. */
#ifndef RPDTOP_DBFILE_H
#define RPDTOP_DBFILE_H

#include <sqlite3.h>
#include <sys/stat.h>

#include "util/error.h"

/* What a file looked like before it was opened. A file read without
 * SQLite's locks (immutable) has nothing else to tell that a writer came
 * meanwhile: it is compared with its stamp once read (dbfile_unchanged). */
struct dbfile_stamp {
	int unlocked; /* opened immutable */
	struct stat st;
};

/* Read under SQLite's locks whatever the file (the one way to read a file
 * that changed while it was read without them). */
#define DBFILE_LOCKED 1u

/* Open path read-only (never created, never written), under SQLite's
 * locks. On failure *err holds "PATH: reason" and -1 is returned. */
int dbfile_open(const char *path, sqlite3 **db, struct rpd_error *err);
/* The same with DBFILE_* flags, the file's stamp (taken before SQLite
 * reads it) in *stamp. */
int dbfile_open_stamped(const char *path, unsigned flags, sqlite3 **db, struct dbfile_stamp *stamp,
			struct rpd_error *err);

/* Open path again as an earlier open stamped as (with locks or without):
 * the connections of one reading agree. */
int dbfile_open_as(const char *path, const struct dbfile_stamp *as, sqlite3 **db, struct rpd_error *err);

/* The read-only URI dbfile_open uses for path (checked as it checks it),
 * for ATTACH; NULL with *err set when the file is not fit. Caller frees.
 * stamp may be NULL. */
char *dbfile_uri(const char *path, unsigned flags, struct dbfile_stamp *stamp, struct rpd_error *err);

/* Is the file still as stamped (always, when it was read under locks)?
 * 0, or -1 with *err "PATH: changed while it was read". */
int dbfile_unchanged(const char *path, const struct dbfile_stamp *stamp, struct rpd_error *err);

/* Start a read transaction and take its snapshot now: everything read
 * until dbfile_read_end sees the database as it was at this moment, and
 * no writer can commit over it meanwhile. Returns an SQLite code. */
int dbfile_read_begin(sqlite3 *db);
void dbfile_read_end(sqlite3 *db);

/* Settings tests make through the environment, before any database is
 * opened: RPDTOP_TEST_PENDING_BYTE moves SQLite's lock page (and the page
 * writer's idea of it) from 1 GiB to where a small file reaches it. */
void sqlfile_test_knobs(void);

/* Describe a failed SQLite call on an open input as "PATH: reason". */
int dbfile_error(sqlite3 *db, int rc, const char *path, struct rpd_error *err);

#endif
