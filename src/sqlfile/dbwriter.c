#include "config.h"
#include "sqlfile/dbwriter.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sqlfile/sqlrun.h"
#include "sqlfile/tempname.h"
#include "util/i18n.h"
#include "util/interrupt.h"
#include "util/xalloc.h"

#define BUSY_MS 2000

/* The temporary file being written, removed at exit if the program ends
 * before it was moved into place (out of memory, say). */
static char *pending_tmp;

static void remove_pending(void)
{
	if (pending_tmp)
		unlink(pending_tmp);
}

static void set_pending(char *tmp)
{
	static int registered;
	if (!registered && atexit(remove_pending) == 0)
		registered = 1;
	pending_tmp = tmp;
}

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
	set_pending(tmp);
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
	if (pending_tmp == w->tmp)
		pending_tmp = NULL;
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

/* Without force the target is claimed with link(), which fails rather than
 * replace a file that appeared while we were writing. */
static int move_into_place(struct dbwriter *w, struct rpd_error *err)
{
	if (w->force ? rename(w->tmp, w->path) == 0 : link(w->tmp, w->path) == 0) {
		if (!w->force)
			unlink(w->tmp);
		return 0;
	}
	if (errno == EEXIST)
		return err_set(err, _("%s: already exists (use --force to replace it)"), w->path);
	return err_set(err, "%s: %s", w->path, strerror(errno));
}

#define SYNC_STOPPED (-1)
#define SYNC_POLL_NS 20000000L

/* RPDTOP_TEST_SYNC_PAUSE=MS: the sync waits first, as on a slow disk. */
static void test_sync_pause(void)
{
	const char *v = getenv("RPDTOP_TEST_SYNC_PAUSE");
	long ms = v ? strtol(v, NULL, 10) : 0;
	if (ms > 0 && ms <= 60000) {
		struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

/* Wait for the syncing child: its status, or SYNC_STOPPED when an
 * interrupt came first (the child is left to end on its own). */
static int wait_sync(pid_t child)
{
	struct timespec ts = { 0, SYNC_POLL_NS };
	for (;;) {
		int status;
		pid_t got = waitpid(child, &status, WNOHANG);
		if (got == child)
			return WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
		if (got < 0 && errno != EINTR)
			return errno;
		if (interrupt_pending()) {
			kill(child, SIGKILL);
			return SYNC_STOPPED;
		}
		nanosleep(&ts, NULL);
	}
}

/* fsync the file at path: 0, an errno, or SYNC_STOPPED when an interrupt
 * came first. A large file's fsync on a slow disk takes many seconds and
 * cannot be interrupted, nor can a process end while one of its threads
 * is in it: a child process syncs, so that Ctrl-C acts at once (the file
 * is unlinked, and the child ends when the disk is done with it). */
static int sync_file(const char *path, int lock_fd)
{
	if (interrupt_pending())
		return SYNC_STOPPED;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	pid_t child = fork();
	if (child == 0) {
		/* The parent's lock on the file is not the child's to keep: a
		 * parent killed meanwhile leaves the file stale at once. */
		if (lock_fd >= 0)
			close(lock_fd);
		test_sync_pause();
		_exit(fsync(fd) == 0 ? 0 : errno & 0xff);
	}
	int rc;
	if (child < 0) /* no process to spare: sync here */
		rc = fsync(fd) == 0 ? 0 : errno;
	else
		rc = wait_sync(child);
	close(fd);
	/* A Ctrl-C during the sync still wins over the rename. */
	return rc == 0 && interrupt_pending() ? SYNC_STOPPED : rc;
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
 * before that, the whole file), and every foreign key. */
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
	if (rc == SQLITE_OK)
		rc = check(w->db, "PRAGMA main.foreign_key_check", problem, sizeof(problem));
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
	rc = sync_file(w->tmp, w->lock_fd);
	if (rc == SYNC_STOPPED)
		rc = err_set(err, "%s: %s", w->path, sqlite3_errstr(SQLITE_INTERRUPT));
	else if (rc != 0)
		rc = err_set(err, "%s: %s", w->path, strerror(rc));
	else
		rc = move_into_place(w, err);
	if (rc != 0)
		unlink(w->tmp);
	release(w);
	return rc;
}
