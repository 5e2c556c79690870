#include "config.h"
#include "sqlfile/sqltable.h"

#include <stdio.h>

#include "util/i18n.h"

int sqltable_find(sqlite3 *db, const struct sqltable *t, int *exists, unsigned *present)
{
	*present = 0;
	int rc = sql_base_table_exists(db, t->name, exists);
	if (rc != SQLITE_OK || !*exists)
		return rc;
	sqlite3_stmt *st;
	rc = sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1)", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		for (unsigned c = 0; name && t->columns[c] && c < 32; c++)
			if (sqlite3_stricmp(name, t->columns[c]) == 0)
				*present |= 1u << c;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

const char *sqltable_missing(const struct sqltable *t, unsigned present, const struct sqltable_need *n,
			     char *buf, size_t size)
{
	for (unsigned c = 0; t->columns[c]; c++)
		if ((n->all >> c & 1) && !(present >> c & 1))
			return t->columns[c];
	if (n->either[0] >= 0 && !(present >> n->either[0] & 1) && !(present >> n->either[1] & 1)) {
		snprintf(buf, size, _("%s or %s"), t->columns[n->either[0]], t->columns[n->either[1]]);
		return buf;
	}
	return NULL;
}

/* SELECT rowid and the table's columns (NULL for each it lacks), in the
 * order of its rows. */
static char *select_sql(const struct sqlrows *r)
{
	char *sql = sqlite3_mprintf("SELECT rowid");
	for (unsigned c = 0; sql && r->table->columns[c]; c++) {
		char *more = r->present >> c & 1 ? sqlite3_mprintf("%s, \"%w\"", sql, r->table->columns[c])
						 : sqlite3_mprintf("%s, NULL", sql);
		sqlite3_free(sql);
		sql = more;
	}
	char *out = sql ? sqlite3_mprintf("%s FROM \"%w\" ORDER BY rowid", sql, r->table->name) : NULL;
	sqlite3_free(sql);
	return out;
}

int sqlrows_each(const struct sqlrows *r, int (*fn)(void *ctx, sqlite3_stmt *st), void *ctx)
{
	char *sql = select_sql(r);
	sqlite3_stmt *st;
	int prep = sql ? sql_prepare(r->src, sql, &st) : sql_fail(r->src, SQLITE_NOMEM);
	sqlite3_free(sql);
	if (prep)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (fn(ctx, st)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(r->src, rc);
}

long long sqlrows_row(sqlite3_stmt *st)
{
	return (long long)sqlite3_column_int64(st, 0);
}

int sqlrows_int(const struct sqlrows *r, sqlite3_stmt *st, unsigned col, int64_t *v)
{
	switch (sqlite3_column_type(st, (int)col + 1)) {
	case SQLITE_INTEGER:
		*v = sqlite3_column_int64(st, (int)col + 1);
		return 1;
	case SQLITE_NULL:
		return 0;
	default:
		return err_set(r->src->err, _("%s: %s row %lld: %s is not an integer"), r->src->path,
			       r->table->name, sqlrows_row(st), r->table->columns[col]);
	}
}

int sqlrows_need_int(const struct sqlrows *r, sqlite3_stmt *st, unsigned col, int64_t *v)
{
	int rc = sqlrows_int(r, st, col, v);
	if (rc == 0)
		return err_set(r->src->err, _("%s: %s row %lld: %s is null"), r->src->path, r->table->name,
			       sqlrows_row(st), r->table->columns[col]);
	return rc < 0 ? -1 : 0;
}

static int check_time(const struct sqlrows *r, sqlite3_stmt *st, unsigned col, int64_t v)
{
	if (v > -SQLTABLE_TIME_LIMIT && v < SQLTABLE_TIME_LIMIT)
		return 0;
	return err_set(r->src->err, _("%s: %s row %lld: %s %lld ns is past 2^62 ns"), r->src->path,
		       r->table->name, sqlrows_row(st), r->table->columns[col], (long long)v);
}

int sqlrows_times(const struct sqlrows *r, sqlite3_stmt *st, unsigned from, unsigned to, int has_end,
		  int64_t *start, int64_t *end)
{
	if (sqlrows_need_int(r, st, from, start) || check_time(r, st, from, *start))
		return -1;
	if (!has_end) {
		*end = *start;
		return 0;
	}
	if (sqlrows_need_int(r, st, to, end) || check_time(r, st, to, *end))
		return -1;
	if (*end < *start)
		return err_set(r->src->err, _("%s: %s row %lld: ends (%lld) before it starts (%lld)"),
			       r->src->path, r->table->name, sqlrows_row(st), (long long)*end,
			       (long long)*start);
	return 0;
}
