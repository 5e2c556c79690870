#include "config.h"
#include "load/strcache.h"

#include <stdio.h>
#include <string.h>

uint32_t sql_intern_column(struct trace *t, sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	int n = sqlite3_column_bytes(st, col);
	return strtab_intern_len(&t->strings, s ? s : "", s ? (size_t)n : 0);
}

void strcache_init_column(struct strcache *c, const char *table, const char *column)
{
	memset(c, 0, sizeof(*c));
	c->table = table;
	c->column = column;
	idmap_init(&c->map);
}

void strcache_init(struct strcache *c, const char *table)
{
	strcache_init_column(c, table, "string");
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
		/* The table's name may come from the input (a rocpd uuid suffix). */
		char *sql = sqlite3_mprintf("SELECT \"%w\" FROM \"%w\" WHERE id = ?1", c->column, c->table);
		int rc = sql_prepare(src, sql, &c->lookup);
		sqlite3_free(sql);
		if (rc)
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
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("SELECT id, \"%w\" FROM \"%w\"", c->column, c->table);
	int prep = sql_prepare(src, sql, &st);
	sqlite3_free(sql);
	if (prep)
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		idmap_put(&c->map, (uint64_t)sqlite3_column_int64(st, 0), sql_intern_column(t, st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(src, rc);
}
