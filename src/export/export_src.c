/* The input of a single-input export, attached read-only to the output's
 * connection (as "src", for the INSERT ... SELECT copies), with
 * connections of its own for the reads that choose rows. Rows chosen on
 * one connection are copied on another: they must all see the input as it
 * was at one moment, while a profiler may be committing to it. */
#include "config.h"
#include "export/export_src.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sqlfile/dbfile.h"

#define BUSY_MS 2000
/* How long a writer may keep the connections from agreeing. */
#define AGREE_TRIES 500
#define AGREE_PAUSE_MS 20

static int attach(struct exporter *x, const char *path, const char *uri)
{
	/* The one ATTACH the output's guard lets through: ours. */
	sqlite3_stmt *st;
	x->guard.own = 1;
	int rc = sqlite3_prepare_v2(x->out.db, "ATTACH ?1 AS src", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		sqlite3_finalize(st);
	}
	x->guard.own = 0;
	return rc == SQLITE_OK ? 0 : export_fail(x, x->out.db, path);
}

static int data_version(sqlite3 *db, sqlite3_int64 *v)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	*v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

/* One try at read transactions on all three connections at one snapshot.
 * The first (input) waits for a writer's commit to end; the others do not
 * wait: a writer waiting for the first one's lock (rollback journal) keeps
 * new readers out, and would wait for us as we wait for it. No commit came
 * between the first transaction and the last when the first, begun again,
 * sees the same data version. */
static int agree_once(struct exporter *x, struct export_src *p)
{
	sqlite3_int64 before, after;
	int rc = dbfile_read_begin(p->input);
	if (rc == SQLITE_OK)
		rc = data_version(p->input, &before);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlguard_run_own(&x->guard, x->out.db, "SELECT count(*) FROM src.sqlite_master");
	if (rc == SQLITE_OK)
		rc = dbfile_read_begin(p->links);
	dbfile_read_end(p->input);
	if (rc == SQLITE_OK)
		rc = dbfile_read_begin(p->input);
	if (rc == SQLITE_OK)
		rc = data_version(p->input, &after);
	if (rc == SQLITE_OK && before != after)
		rc = SQLITE_BUSY;
	return rc;
}

/* Let go of every read lock on the input, the output's included (its
 * transaction holds src's until it commits). */
static int let_go(struct exporter *x, struct export_src *p)
{
	dbfile_read_end(p->input);
	dbfile_read_end(p->links);
	if (sqlguard_run_own(&x->guard, x->out.db, "COMMIT") != SQLITE_OK ||
	    sqlguard_run_own(&x->guard, x->out.db, "BEGIN") != SQLITE_OK)
		return export_fail(x, x->out.db, x->req->path);
	return 0;
}

static int agree(struct exporter *x, struct export_src *p, const char *path)
{
	int rc = SQLITE_BUSY;
	sqlite3_busy_timeout(x->out.db, 0);
	sqlite3_busy_timeout(p->links, 0);
	for (int tries = 0; tries < AGREE_TRIES; tries++) {
		rc = agree_once(x, p);
		if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
			break;
		if (let_go(x, p))
			return -1;
		struct timespec ts = { 0, AGREE_PAUSE_MS * 1000000L };
		nanosleep(&ts, NULL);
	}
	sqlite3_busy_timeout(x->out.db, BUSY_MS);
	sqlite3_busy_timeout(p->links, BUSY_MS);
	if (rc == SQLITE_OK)
		return 0;
	struct rpd_error err;
	dbfile_error(p->input, rc, path, &err);
	return err_set(x->err, "%s", err.msg);
}

int export_attach(struct exporter *x, struct export_src *p, unsigned flags)
{
	const char *path = x->req->t->inputs[0].path;
	struct rpd_error err;
	memset(p, 0, sizeof(*p));
	char *uri = dbfile_uri(path, flags, &p->stamp, &err);
	if (!uri)
		return err_set(x->err, "%s", err.msg);
	int rc = attach(x, path, uri);
	free(uri);
	if (rc)
		return -1;
	if (dbfile_open_as(path, &p->stamp, &p->input, &err) ||
	    dbfile_open_as(path, &p->stamp, &p->links, &err))
		return err_set(x->err, "%s", err.msg);
	return agree(x, p, path);
}

int export_src_unchanged(struct exporter *x, const struct export_src *p)
{
	struct rpd_error err;
	if (dbfile_unchanged(x->req->t->inputs[0].path, &p->stamp, &err) == 0)
		return 0;
	return err_set(x->err, "%s", err.msg);
}

void export_src_close(struct export_src *p)
{
	if (p->input)
		dbfile_read_end(p->input);
	if (p->links)
		dbfile_read_end(p->links);
	sqlite3_close(p->input);
	sqlite3_close(p->links);
	memset(p, 0, sizeof(*p));
}
