#include "config.h"
#include "sqlfile/dbwriter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sqlfile/fkcheck.h"
#include "sqlfile/outfile.h"
#include "sqlfile/sqlrun.h"
#include "sqlfile/tempname.h"
#include "util/i18n.h"
#include "util/interrupt.h"
#include "util/xalloc.h"

#define BUSY_MS 2000

/* SQLite asks every so often whether to go on: not after an interrupt. */
static int keep_going(void *ctx)
{
	(void)ctx;
	return interrupt_pending();
}

/* Open the temporary file for writing, in one exclusive transaction with
 * no journal: a failure throws the whole file away anyway. Defensive mode
 * refuses journal_mode=OFF, so it comes after our own pragmas; a guard
 * (the export's) watches the connection before anything else runs. The
 * pragmas name main: without it they would hold for an input attached
 * later too (a WAL input locked exclusively cannot be read beside its
 * writer, and a rollback-journal one would keep its writer out). An
 * attached input's lock is waited for as an input's is. */
static int connect(struct dbwriter *w)
{
	static const char pragmas[] =
		"PRAGMA main.journal_mode = OFF; PRAGMA main.synchronous = OFF;"
		"PRAGMA main.locking_mode = EXCLUSIVE; PRAGMA main.page_size = 4096; BEGIN;";
	/* URIs, so that an input can be attached read-only. */
	int rc = sqlite3_open_v2(w->tmp, &w->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(w->db, BUSY_MS);
		sqlite3_progress_handler(w->db, 10000, keep_going, NULL);
		rc = sql_run_script(w->db, pragmas);
	}
	if (rc == SQLITE_OK)
		rc = sqlguard_harden(w->db);
	if (rc == SQLITE_OK && w->guard)
		rc = sqlguard_install(w->db, w->guard);
	return rc;
}

static int setup(struct dbwriter *w, const char *schema, const char *const *statements, struct rpd_error *err)
{
	int rc = connect(w);
	if (rc == SQLITE_OK)
		rc = sql_run_script(w->db, schema);
	for (int i = 0; rc == SQLITE_OK && i < w->nst; i++)
		rc = sqlite3_prepare_v2(w->db, statements[i], -1, &w->st[i], NULL);
	if (rc != SQLITE_OK)
		return err_set(err, "%s: %s", w->path, w->db ? sqlite3_errmsg(w->db) : sqlite3_errstr(rc));
	return 0;
}

int dbwriter_open(struct dbwriter *w, const char *path, int force, const char *schema,
		  const char *const *statements, int nstatements, struct rpd_error *err)
{
	memset(w, 0, sizeof(*w));
	w->lock_fd = -1;
	if (!force && access(path, F_OK) == 0)
		return err_set(err, _("%s: already exists (use --force to replace it)"), path);
	/* Ours, left by an export that was killed: they would stay forever. */
	tempname_remove_stale(path);
	char *tmp = tempname_create(path, &w->lock_fd);
	if (!tmp)
		return err_set(err, _("%s: cannot create a file there: %s"), path, strerror(errno));
	w->path = xstrdup(path);
	w->tmp = tmp;
	outfile_pending(tmp);
	w->force = force;
	w->nst = nstatements;
	w->st = xcalloc((size_t)nstatements, sizeof(*w->st));
	if (setup(w, schema, statements, err)) {
		dbwriter_abort(w);
		return -1;
	}
	return 0;
}

int dbwriter_guard(struct dbwriter *w, struct sqlguard *g, struct rpd_error *err)
{
	w->guard = g;
	if (sqlguard_install(w->db, g) != SQLITE_OK)
		return err_set(err, "%s: %s", w->path, sqlite3_errmsg(w->db));
	return 0;
}

int dbwriter_step(struct dbwriter *w, int i)
{
	int rc = sqlite3_step(w->st[i]);
	sqlite3_reset(w->st[i]);
	if (rc == SQLITE_DONE)
		return 0;
	snprintf(w->errmsg, sizeof(w->errmsg), "%s", sqlite3_errmsg(w->db));
	return -1;
}

/* Statements still open would keep the connection (and its lock): they
 * go first. The connection stays if SQLite would not close it. */
static int close_db(struct dbwriter *w)
{
	for (int i = 0; i < w->nst; i++) {
		sqlite3_finalize(w->st[i]);
		w->st[i] = NULL;
	}
	int rc = sqlite3_close(w->db);
	if (rc == SQLITE_OK)
		w->db = NULL;
	return rc;
}

static void release(struct dbwriter *w)
{
	outfile_done(w->tmp);
	if (w->lock_fd >= 0)
		close(w->lock_fd);
	free(w->st);
	free(w->path);
	free(w->tmp);
	for (size_t i = 0; i < w->nbuilt; i++)
		free(w->built[i]);
	free(w->built);
	memset(w, 0, sizeof(*w));
}

int dbwriter_suspend(struct dbwriter *w, struct rpd_error *err)
{
	if (sqlguard_run_own(w->guard, w->db, "COMMIT") != SQLITE_OK)
		return err_set(err, "%s: %s", w->path, sqlite3_errmsg(w->db));
	if (close_db(w) != SQLITE_OK)
		return err_set(err, "%s: %s", w->path, sqlite3_errmsg(w->db));
	return 0;
}

int dbwriter_resume(struct dbwriter *w, struct rpd_error *err)
{
	int rc = connect(w);
	if (rc != SQLITE_OK)
		return err_set(err, "%s: %s", w->path, w->db ? sqlite3_errmsg(w->db) : sqlite3_errstr(rc));
	return 0;
}

void dbwriter_abort(struct dbwriter *w)
{
	if (!w->tmp)
		return;
	close_db(w);
	unlink(w->tmp);
	release(w);
}

/* The first row of an integrity pragma that is not "ok" into problem. */
static int check(sqlite3 *db, const char *pragma, char *problem, size_t size)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, pragma, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		if (v && strcmp(v, "ok") != 0 && !problem[0])
			snprintf(problem, size, "%s", v);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

void dbwriter_check_table(struct dbwriter *w, const char *name)
{
	w->built = xrealloc_array(w->built, w->nbuilt + 1, sizeof(*w->built));
	w->built[w->nbuilt++] = xstrdup(name);
}

/* The b-trees of the tables built by hand (SQLite 3.33 checks one table;
 * before that, the whole file), and the foreign keys (of a large table,
 * a sample of its rows: fkcheck.c). */
static int verify(struct dbwriter *w, struct rpd_error *err)
{
	char problem[256] = "";
	int rc = SQLITE_OK;
	if (w->nbuilt && sqlite3_libversion_number() < 3033000)
		rc = check(w->db, "PRAGMA main.integrity_check", problem, sizeof(problem));
	for (size_t i = 0; rc == SQLITE_OK && i < w->nbuilt && sqlite3_libversion_number() >= 3033000; i++) {
		char *sql = sqlite3_mprintf("PRAGMA main.integrity_check(\"%w\")", w->built[i]);
		rc = sql ? check(w->db, sql, problem, sizeof(problem)) : SQLITE_NOMEM;
		sqlite3_free(sql);
	}
	if (rc == SQLITE_OK && !problem[0])
		rc = fkcheck_run(w->db, problem, sizeof(problem));
	if (rc != SQLITE_OK)
		return err_set(err, "%s: %s", w->path, sqlite3_errmsg(w->db));
	if (problem[0])
		return err_set(err, _("%s: the written database fails its check (%s)"), w->path, problem);
	return 0;
}

int dbwriter_commit(struct dbwriter *w, const char *final_sql, struct rpd_error *err)
{
	int rc = final_sql ? sql_run_script(w->db, final_sql) : SQLITE_OK;
	if (rc == SQLITE_OK)
		rc = sqlguard_run_own(w->guard, w->db, "COMMIT");
	if (rc != SQLITE_OK || (w->verify && verify(w, err))) {
		if (rc != SQLITE_OK)
			err_set(err, "%s: %s", w->path, sqlite3_errmsg(w->db));
		dbwriter_abort(w);
		return -1;
	}
	close_db(w);
	/* The data must be on disk before the name points at it. */
	rc = outfile_sync(w->tmp, w->lock_fd);
	if (rc == OUTFILE_STOPPED)
		rc = err_set(err, "%s: %s", w->path, sqlite3_errstr(SQLITE_INTERRUPT));
	else if (rc != 0)
		rc = err_set(err, "%s: %s", w->path, strerror(rc));
	else
		rc = outfile_move(w->tmp, w->path, w->force, err);
	if (rc != 0)
		unlink(w->tmp);
	release(w);
	return rc;
}
