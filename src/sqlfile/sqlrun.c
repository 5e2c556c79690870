#include "config.h"
#include "sqlfile/sqlrun.h"

#include <string.h>

#include "util/i18n.h"

/* What may follow the statement: white space, comments and empty
 * statements. Anything else would be a second statement; it is never
 * prepared, so that nothing in it reaches SQLite at all. */
static int tail_is_empty(const char *p)
{
	while (*p) {
		if (strchr(" \t\n\v\f\r;", *p)) {
			p++;
		} else if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			p = end ? end + 2 : p + strlen(p);
		} else {
			return 0;
		}
	}
	return 1;
}

int sql_prepare_checked(sqlite3 *db, const char *sql, sqlite3_stmt **st, const char **why)
{
	const char *tail = NULL;
	*st = NULL;
	if (!sql) {
		*why = sqlite3_errstr(SQLITE_NOMEM);
		return -1;
	}
	if (sqlite3_prepare_v2(db, sql, -1, st, &tail) != SQLITE_OK) {
		*why = sqlite3_errmsg(db);
		return -1;
	}
	if (*st && tail_is_empty(tail))
		return 0;
	sqlite3_finalize(*st);
	*st = NULL;
	*why = _("its SQL is not exactly one statement");
	return -1;
}

int64_t sql_int_of(sqlite3 *db, const char *sql, const char *arg, int64_t none)
{
	sqlite3_stmt *st;
	const char *why;
	int64_t v = none;
	if (sql_prepare_checked(db, sql, &st, &why))
		return none;
	if (arg)
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

int sql_prepare_one(sqlite3 *db, const char *sql, sqlite3_stmt **st, const char *label, struct rpd_error *err)
{
	const char *why;
	if (sql_prepare_checked(db, sql, st, &why))
		return err_set(err, "%s: %s", label, why);
	return 0;
}

int sql_run_one(sqlite3 *db, const char *sql, const char *label, struct rpd_error *err)
{
	sqlite3_stmt *st;
	if (sql_prepare_one(db, sql, &st, label, err))
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	if (rc != SQLITE_DONE)
		err_set(err, "%s: %s", label, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int sql_run_script(sqlite3 *db, const char *sql)
{
	const char *next = sql;
	while (next && *next) {
		sqlite3_stmt *st;
		int rc = sqlite3_prepare_v2(db, next, -1, &st, &next);
		if (rc != SQLITE_OK)
			return rc;
		if (!st)
			continue; /* white space or a comment */
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			;
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return rc;
	}
	return SQLITE_OK;
}
