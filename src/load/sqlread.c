#include "config.h"
#include "load/sqlread.h"

#include <stdio.h>
#include <string.h>

#include "load/dbfile.h"
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

int sql_table_exists(sqlite3 *db, const char *name, int *exists)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(
		db, "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?1", -1, &st,
		NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*exists = rc == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
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

uint32_t sql_intern_column(struct trace *t, sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	int n = sqlite3_column_bytes(st, col);
	return strtab_intern_len(&t->strings, s ? s : "", s ? (size_t)n : 0);
}

void strcache_init(struct strcache *c, const char *table)
{
	memset(c, 0, sizeof(*c));
	c->table = table;
	idmap_init(&c->map);
}

void strcache_free(struct strcache *c)
{
	sqlite3_finalize(c->lookup);
	idmap_free(&c->map);
}

/* A reference to a string row that does not exist still gets a visible name,
 * so a damaged trace shows its rows rather than hiding them. */
static uint32_t missing_string(struct trace *t, long long id)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "[missing string %lld]", id);
	return strtab_intern(&t->strings, buf);
}

uint32_t strcache_peek(struct strcache *c, struct trace *t, sqlite3_int64 id)
{
	uint32_t out;
	return idmap_get(&c->map, (uint64_t)id, &out) ? out : missing_string(t, (long long)id);
}

int strcache_get(struct strcache *c, const struct sqlsrc *src, struct trace *t, sqlite3_int64 id,
		 uint32_t *out)
{
	if (idmap_get(&c->map, (uint64_t)id, out))
		return 0;
	if (!c->lookup) {
		char sql[128];
		snprintf(sql, sizeof(sql), "SELECT string FROM %s WHERE id = ?1", c->table);
		if (sql_prepare(src, sql, &c->lookup))
			return -1;
	}
	sqlite3_reset(c->lookup);
	sqlite3_bind_int64(c->lookup, 1, id);
	int rc = sqlite3_step(c->lookup);
	if (rc == SQLITE_ROW)
		*out = sql_intern_column(t, c->lookup, 0);
	else if (rc == SQLITE_DONE)
		*out = missing_string(t, (long long)id);
	else
		return sql_fail(src, rc);
	idmap_put(&c->map, (uint64_t)id, *out);
	return 0;
}

int strcache_fill(struct strcache *c, const struct sqlsrc *src, struct trace *t)
{
	char sql[128];
	sqlite3_stmt *st;
	snprintf(sql, sizeof(sql), "SELECT id, string FROM %s", c->table);
	if (sql_prepare(src, sql, &st))
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		idmap_put(&c->map, (uint64_t)sqlite3_column_int64(st, 0), sql_intern_column(t, st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(src, rc);
}
