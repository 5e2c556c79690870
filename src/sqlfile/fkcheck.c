/* The foreign keys of a written database, checked in proportion to what
 * a check can find. A table of up to FK_WHOLE rows is checked whole by
 * SQLite; a larger one on about FK_SAMPLE rows spread over its rowids,
 * since its rows were chosen by one rule row after row and a broken rule
 * breaks many. A sample that meets a row breaking a key, or too few rows,
 * hands the table to SQLite's own check, which alone decides. */
#include "config.h"
#include "sqlfile/fkcheck.h"

#include <stdint.h>
#include <stdio.h>

#include "sqlfile/sqlrun.h"

#define FK_WHOLE (1 << 20)
#define FK_SAMPLE (1 << 16)

/* The first row of SQLite's check of one table: its first column (the
 * table) into problem. */
static int check_whole(sqlite3 *db, const char *table, char *problem, size_t size)
{
	char *sql = sqlite3_mprintf("PRAGMA main.foreign_key_check(\"%w\")", table);
	sqlite3_stmt *st;
	const char *why;
	int rc = sql_prepare_checked(db, sql, &st, &why);
	sqlite3_free(sql);
	if (rc)
		return SQLITE_ERROR;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && !problem[0])
		snprintf(problem, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The parent's column a key names: its own, else the parent's primary
 * key's column of that place. */
static char *parent_column(sqlite3 *db, const char *parent, const char *to, int64_t seq)
{
	if (to)
		return sqlite3_mprintf("%s", to);
	sqlite3_stmt *st;
	char *name = NULL;
	if (sqlite3_prepare_v2(db, "SELECT name FROM main.pragma_table_info(?1) WHERE pk = ?2 + 1", -1, &st,
			       NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, parent, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, seq);
	if (sqlite3_step(st) == SQLITE_ROW)
		name = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return name;
}

/* One key's test into s: its child columns all set (a NULL breaks no
 * key) and no parent row equal. The parent's column is on the left so
 * that its collation decides, as in SQLite's own check. */
static void key_test(sqlite3_str *s, const char *parent, sqlite3_str *set, sqlite3_str *match)
{
	char *a = sqlite3_str_finish(set), *b = sqlite3_str_finish(match);
	sqlite3_str_appendf(s, "%s(1%s AND NOT EXISTS (SELECT 1 FROM main.\"%w\" AS p WHERE 1%s))",
			    sqlite3_str_length(s) ? " OR " : "", a ? a : "", parent, b ? b : "");
	sqlite3_free(a);
	sqlite3_free(b);
}

/* "A row breaks a key", over c (the child row), for every key of the
 * table; NULL when a key cannot be put so (SQLite checks the table). */
static char *breaks(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT id, seq, \"table\", \"from\", \"to\" FROM main.pragma_foreign_key_list(?1) "
		    "ORDER BY id, seq",
		    -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_str *s = sqlite3_str_new(db), *set = NULL, *match = NULL;
	char *parent = NULL;
	int64_t key = -1;
	int ok = 1;
	while (ok && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0), seq = sqlite3_column_int64(st, 1);
		const char *to = (const char *)sqlite3_column_text(st, 4);
		const char *p = (const char *)sqlite3_column_text(st, 2);
		const char *from = (const char *)sqlite3_column_text(st, 3);
		if (id != key && set) {
			key_test(s, parent, set, match);
			set = match = NULL;
		}
		if (id != key) {
			sqlite3_free(parent);
			parent = p ? sqlite3_mprintf("%s", p) : NULL;
			set = sqlite3_str_new(db);
			match = sqlite3_str_new(db);
			key = id;
		}
		char *pcol = parent && from ? parent_column(db, parent, to, seq) : NULL;
		if (!pcol) {
			ok = 0;
			break;
		}
		sqlite3_str_appendf(set, " AND c.\"%w\" IS NOT NULL", from);
		sqlite3_str_appendf(match, " AND p.\"%w\" = c.\"%w\"", pcol, from);
		sqlite3_free(pcol);
	}
	sqlite3_finalize(st);
	if (set)
		key_test(s, parent, set, match);
	sqlite3_free(parent);
	char *out = sqlite3_str_finish(s);
	if (!ok || key < 0 || !out) {
		sqlite3_free(out);
		return NULL;
	}
	return out;
}

/* The largest of these primes not above n: a sample of every k-th rowid
 * by a prime k misses only ids spaced by a multiple of it. */
static int64_t prime_step(int64_t n)
{
	static const int64_t primes[] = { 2,    3,    7,    13,   31,    61,    127,   251,   509,
					  1021, 2039, 4093, 8191, 16381, 32749, 65521, 131071 };
	int64_t k = 1;
	for (size_t i = 0; i < sizeof(primes) / sizeof(primes[0]) && primes[i] <= n; i++)
		k = primes[i];
	return k;
}

/* The rows of a large table whose rowid is a multiple of a prime step,
 * about FK_SAMPLE of them: 1 when one breaks a key or too few were met,
 * 0 when none does, -1 when the sample cannot be taken. */
static int sample_breaks(sqlite3 *db, const char *table, int64_t rows)
{
	char *cond = breaks(db, table);
	if (!cond)
		return -1;
	char *sql = sqlite3_mprintf(
		"SELECT count(*), total(%s) FROM main.\"%w\" AS c WHERE c.rowid %% ?1 = 0", cond, table);
	sqlite3_free(cond);
	sqlite3_stmt *st;
	const char *why;
	int rc = sql_prepare_checked(db, sql, &st, &why);
	sqlite3_free(sql);
	if (rc)
		return -1;
	sqlite3_bind_int64(st, 1, prime_step(rows / FK_SAMPLE));
	rc = sqlite3_step(st);
	int out = -1;
	if (rc == SQLITE_ROW)
		out = sqlite3_column_int64(st, 0) < FK_SAMPLE / 4 || sqlite3_column_double(st, 1) > 0;
	sqlite3_finalize(st);
	return out;
}

static int check_table(sqlite3 *db, const char *table, char *problem, size_t size)
{
	if (sql_int_of(db, "SELECT count(*) FROM main.pragma_foreign_key_list(?1)", table, -1) == 0)
		return SQLITE_OK;
	/* SQLite counts a table's rows from its pages' headers. */
	char *sql = sqlite3_mprintf("SELECT count(*) FROM main.\"%w\"", table);
	int64_t rows = sql_int_of(db, sql, NULL, -1);
	sqlite3_free(sql);
	if (rows > FK_WHOLE && sample_breaks(db, table, rows) == 0)
		return SQLITE_OK;
	return check_whole(db, table, problem, size);
}

int fkcheck_run(sqlite3 *db, char *problem, size_t size)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(
		db,
		"SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE "
		"'sqlite\\_%' ESCAPE '\\' ORDER BY name",
		-1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	int step = SQLITE_DONE;
	while (rc == SQLITE_OK && !problem[0] && (step = sqlite3_step(st)) == SQLITE_ROW) {
		char *name = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
		rc = name ? check_table(db, name, problem, size) : SQLITE_NOMEM;
		sqlite3_free(name);
	}
	if (rc == SQLITE_OK && !problem[0] && step != SQLITE_DONE)
		rc = step;
	sqlite3_finalize(st);
	return rc;
}
