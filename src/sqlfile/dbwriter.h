/* Writing a new SQLite database safely: rows go to a temporary file beside
 * the target, renamed into place only once complete and on disk. An
 * existing file is never replaced without force, and a failure leaves
 * nothing behind. */
#ifndef RPDTOP_DBWRITER_H
#define RPDTOP_DBWRITER_H

#include <sqlite3.h>

#include "sqlfile/sqlguard.h"
#include "util/error.h"

struct dbwriter {
	sqlite3 *db;
	char *path, *tmp;
	int force;
	sqlite3_stmt **st; /* prepared statements, in the order given */
	int nst;
	int verify;   /* check the file before the rename */
	char **built; /* tables whose pages were written by hand */
	size_t nbuilt;
	struct sqlguard *guard; /* on the connection, kept across suspend */
	int lock_fd;            /* holds the temporary file's lock (tempname.h) */
	char errmsg[512];
};

/* Create the temporary file, run schema (SQL text) and prepare the
 * statements. */
int dbwriter_open(struct dbwriter *w, const char *path, int force, const char *schema,
		  const char *const *statements, int nstatements, struct rpd_error *err);
/* Watch the connection with g from now on, and again after a resume: what
 * an input's names and schema may do is limited from here. */
int dbwriter_guard(struct dbwriter *w, struct sqlguard *g, struct rpd_error *err);
/* Run statement i with the values already bound; resets it. */
int dbwriter_step(struct dbwriter *w, int i);
/* Run final SQL of our own (views; NULL for none), commit, sync and move
 * the file into place. */
int dbwriter_commit(struct dbwriter *w, const char *final_sql, struct rpd_error *err);
/* Commit and close the connection, so that pages can be added to the
 * temporary file directly (btree_build), then open it again in a new
 * transaction. Prepared statements are not kept. */
int dbwriter_suspend(struct dbwriter *w, struct rpd_error *err);
int dbwriter_resume(struct dbwriter *w, struct rpd_error *err);
/* A table whose pages were written by hand (btree_build): the check
 * before the rename looks at its b-tree. SQLite's own writes are not
 * checked again; foreign keys always are. */
void dbwriter_check_table(struct dbwriter *w, const char *name);
/* Give up: the temporary file is removed and the target left untouched. */
void dbwriter_abort(struct dbwriter *w);

#endif
