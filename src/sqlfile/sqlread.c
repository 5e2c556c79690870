#include "config.h"
#include "sqlfile/sqlread.h"

#include <stdio.h>
#include <string.h>

#include "sqlfile/dbfile.h"
#include "util/i18n.h"

int sql_fail(const struct sqlsrc *src, int rc)
{
	return dbfile_error(src->db, rc, src->path, src->err);
}

int sql_prepare(const struct sqlsrc *src, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(src->db, sql, -1, st, NULL);
	if (rc == SQLITE_OK)
		return 0;
	if ((rc & 0xff) == SQLITE_ERROR)
		return err_set(src->err, _("%s: unexpected %s schema (%s)"), src->path, src->format,
			       sqlite3_errmsg(src->db));
	return sql_fail(src, rc);
}

/* Is there a schema object of name for which sql (binding it as ?1) gives a row? */
static int object_exists(sqlite3 *db, const char *sql, const char *name, int *exists)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*exists = rc == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int sql_table_exists(sqlite3 *db, const char *name, int *exists)
{
	return object_exists(db, "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?1",
			     name, exists);
}

int sql_base_table_exists(sqlite3 *db, const char *name, int *exists)
{
	return object_exists(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", name,
			     exists);
}

int sql_each_optional(sqlite3 *db, char *sql, int (*fn)(void *ctx, sqlite3_stmt *st), void *ctx)
{
	sqlite3_stmt *st = NULL;
	int rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(st);
		return 1;
	}
	int res = 0;
	while (res == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW)
		res = fn(ctx, st);
	sqlite3_finalize(st);
	return res ? res : rc == SQLITE_DONE ? 0 : 1;
}

int sql_metadata(const struct sqlsrc *src, const char *tag, char *buf, size_t size)
{
	sqlite3_stmt *st;
	if (sql_prepare(src, "SELECT value FROM rocpd_metadata WHERE tag = ?1", &st))
		return -1;
	sqlite3_bind_text(st, 1, tag, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);
		snprintf(buf, size, "%s", v ? v : "");
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? 1 : sql_fail(src, rc);
}
