#include "config.h"
#include "sqlfile/sqlguard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfile/sqlrun.h"
#include "util/i18n.h"
#include "util/xalloc.h"

int sqlguard_harden(sqlite3 *db)
{
	int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
	return rc;
}

static const struct {
	int code;
	const char *name;
} actions[] = {
	{ SQLITE_CREATE_INDEX, "CREATE INDEX" },
	{ SQLITE_CREATE_TABLE, "CREATE TABLE" },
	{ SQLITE_CREATE_TEMP_INDEX, "CREATE TEMP INDEX" },
	{ SQLITE_CREATE_TEMP_TABLE, "CREATE TEMP TABLE" },
	{ SQLITE_CREATE_TEMP_TRIGGER, "CREATE TEMP TRIGGER" },
	{ SQLITE_CREATE_TEMP_VIEW, "CREATE TEMP VIEW" },
	{ SQLITE_CREATE_TRIGGER, "CREATE TRIGGER" },
	{ SQLITE_CREATE_VIEW, "CREATE VIEW" },
	{ SQLITE_DELETE, "DELETE" },
	{ SQLITE_DROP_INDEX, "DROP INDEX" },
	{ SQLITE_DROP_TABLE, "DROP TABLE" },
	{ SQLITE_DROP_TEMP_INDEX, "DROP TEMP INDEX" },
	{ SQLITE_DROP_TEMP_TABLE, "DROP TEMP TABLE" },
	{ SQLITE_DROP_TEMP_TRIGGER, "DROP TEMP TRIGGER" },
	{ SQLITE_DROP_TEMP_VIEW, "DROP TEMP VIEW" },
	{ SQLITE_DROP_TRIGGER, "DROP TRIGGER" },
	{ SQLITE_DROP_VIEW, "DROP VIEW" },
	{ SQLITE_INSERT, "INSERT" },
	{ SQLITE_PRAGMA, "PRAGMA" },
	{ SQLITE_READ, "READ" },
	{ SQLITE_SELECT, "SELECT" },
	{ SQLITE_TRANSACTION, "TRANSACTION" },
	{ SQLITE_UPDATE, "UPDATE" },
	{ SQLITE_ATTACH, "ATTACH" },
	{ SQLITE_DETACH, "DETACH" },
	{ SQLITE_ALTER_TABLE, "ALTER TABLE" },
	{ SQLITE_REINDEX, "REINDEX" },
	{ SQLITE_ANALYZE, "ANALYZE" },
	{ SQLITE_CREATE_VTABLE, "CREATE VIRTUAL TABLE" },
	{ SQLITE_DROP_VTABLE, "DROP VIRTUAL TABLE" },
	{ SQLITE_FUNCTION, "FUNCTION" },
	{ SQLITE_SAVEPOINT, "SAVEPOINT" },
	{ SQLITE_RECURSIVE, "RECURSIVE" },
};

static int same(const char *a, const char *b)
{
	return a && b && sqlite3_stricmp(a, b) == 0;
}

/* The output's own schemas; an attached input is only ever read. */
static int local(const char *db)
{
	return same(db, "main") || same(db, "temp");
}

static int schema_table(const char *name)
{
	return same(name, "sqlite_master") || same(name, "sqlite_schema") ||
	       same(name, "sqlite_temp_master") || same(name, "sqlite_temp_schema");
}

/* The pragmas an export asks: reading a table's columns and keys, the
 * checks of the written file, and its page size and encoding (set by our
 * own statements only). */
static int pragma_allowed(const struct sqlguard *g, const char *name, const char *arg)
{
	static const char *const reading[] = { "table_info", "table_xinfo", "foreign_key_list",
					       "integrity_check", "foreign_key_check" };
	for (size_t i = 0; i < sizeof(reading) / sizeof(reading[0]); i++)
		if (same(name, reading[i]))
			return 1;
	if (same(name, "page_size") || same(name, "encoding"))
		return !arg || g->own;
	return 0;
}

/* While an input's object is created: that creation, the row SQLite
 * writes for it in main's schema, and what the creation itself reads
 * (constraints and index expressions over main's tables). A table's
 * UNIQUE and PRIMARY KEY indexes and the sequence of an AUTOINCREMENT come
 * with it. */
static int replay_allows(struct sqlguard *g, int code, const char *a1, const char *a2, const char *db)
{
	int in_main = same(db, "main");
	if (code == g->expect && in_main && same(a1, g->name) && (!g->table || same(a2, g->table))) {
		g->seen = 1;
		return 1;
	}
	switch (code) {
	case SQLITE_INSERT:
	case SQLITE_UPDATE:
		return in_main && schema_table(a1);
	case SQLITE_READ:
		return in_main;
	case SQLITE_FUNCTION:
		return 1; /* ours are SQLITE_DIRECTONLY, others harmless in an untrusted schema */
	case SQLITE_REINDEX:
		return in_main && g->expect == SQLITE_CREATE_INDEX && same(a1, g->name);
	case SQLITE_CREATE_INDEX:
		return in_main && g->expect == SQLITE_CREATE_TABLE && same(a2, g->name) && a1 &&
		       sqlite3_strnicmp(a1, "sqlite_autoindex_", 17) == 0;
	case SQLITE_CREATE_TABLE:
		return in_main && g->expect == SQLITE_CREATE_TABLE && same(a1, "sqlite_sequence");
	default:
		return 0;
	}
}

/* Our own statements: read anything, write the output (main, temp) only,
 * make temporary tables; transactions and ATTACH when we say so. Inside a
 * view or a trigger, reading only: no trigger fires during an export. */
static int allows(const struct sqlguard *g, int code, const char *a1, const char *a2, const char *db,
		  const char *inner)
{
	if (code == SQLITE_READ || code == SQLITE_SELECT || code == SQLITE_FUNCTION ||
	    code == SQLITE_RECURSIVE)
		return 1;
	if (inner)
		return 0;
	switch (code) {
	case SQLITE_INSERT:
	case SQLITE_UPDATE:
	case SQLITE_DELETE:
		return local(db);
	case SQLITE_CREATE_TEMP_TABLE:
	case SQLITE_DROP_TEMP_TABLE:
		return same(db, "temp");
	case SQLITE_TRANSACTION:
	case SQLITE_SAVEPOINT:
	case SQLITE_ATTACH:
		return g->own;
	case SQLITE_PRAGMA:
		return pragma_allowed(g, a1, a2);
	default:
		return 0;
	}
}

static void note_refusal(struct sqlguard *g, int code, const char *a1, const char *a2, const char *db,
			 const char *inner)
{
	const char *action = "?";
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (actions[i].code == code)
			action = actions[i].name;
	/* A function's name is its second argument; a pragma's value too. */
	const char *what = code == SQLITE_FUNCTION ? a2 : a1;
	snprintf(g->refused, sizeof(g->refused), "%s%s%s%s%s%s%s%s", action, what ? " " : "",
		 db && what && code != SQLITE_PRAGMA ? db : "",
		 db && what && code != SQLITE_PRAGMA ? "." : "", what ? what : "", inner ? " (in " : "",
		 inner ? inner : "", inner ? ")" : "");
}

static int authorize(void *ctx, int code, const char *a1, const char *a2, const char *db, const char *inner)
{
	struct sqlguard *g = ctx;
	int ok =
		g->expect ? !inner && replay_allows(g, code, a1, a2, db) : allows(g, code, a1, a2, db, inner);
	if (ok)
		return SQLITE_OK;
	if (!g->refused[0])
		note_refusal(g, code, a1, a2, db, inner);
	return SQLITE_DENY;
}

int sqlguard_install(sqlite3 *db, struct sqlguard *g)
{
	int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_set_authorizer(db, authorize, g);
	return rc;
}

int sqlguard_run_own(struct sqlguard *g, sqlite3 *db, const char *sql)
{
	if (g)
		g->own = 1;
	int rc = sql_run_script(db, sql);
	if (g)
		g->own = 0;
	return rc;
}

void schema_list_add(struct schema_list *l, const struct schema_obj *o)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	struct schema_obj *c = &l->v[l->n++];
	c->type = xstrdup(o->type);
	c->name = xstrdup(o->name);
	c->table = xstrdup(o->table);
	c->sql = xstrdup(o->sql);
}

void schema_list_free(struct schema_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].type);
		free(l->v[i].name);
		free(l->v[i].table);
		free(l->v[i].sql);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static const char *text(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	return s ? s : "";
}

int schema_list_read(sqlite3 *db, const char *db_name, struct schema_list *l)
{
	memset(l, 0, sizeof(*l));
	char *sql = sqlite3_mprintf("SELECT type, name, tbl_name, sql FROM \"%w\".sqlite_master "
				    "WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%%' ORDER BY rowid",
				    db_name);
	if (!sql)
		return SQLITE_NOMEM;
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct schema_obj o = { (char *)text(st, 0), (char *)text(st, 1), (char *)text(st, 2),
					(char *)text(st, 3) };
		schema_list_add(l, &o);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return SQLITE_OK;
	schema_list_free(l);
	return rc;
}

static int creation_of(const char *type)
{
	if (strcmp(type, "table") == 0)
		return SQLITE_CREATE_TABLE;
	if (strcmp(type, "index") == 0)
		return SQLITE_CREATE_INDEX;
	if (strcmp(type, "view") == 0)
		return SQLITE_CREATE_VIEW;
	if (strcmp(type, "trigger") == 0)
		return SQLITE_CREATE_TRIGGER;
	return 0;
}

/* After the statement: the object is in main's schema, as the row says. */
static int created(sqlite3 *db, const struct schema_obj *o)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(
		    db, "SELECT 1 FROM main.sqlite_master WHERE type = ?1 AND name = ?2 AND tbl_name = ?3",
		    -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, o->type, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, o->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, o->table, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int sqlguard_replay(struct sqlguard *g, sqlite3 *db, const struct schema_obj *o, const char *label,
		    struct rpd_error *err)
{
	int code = creation_of(o->type);
	if (!code)
		return err_set(
			err,
			_("%s: cannot recreate %s \"%s\" of its schema: not a table, index, view or trigger"),
			label, o->type, o->name);
	g->expect = code;
	g->name = o->name;
	g->table = code == SQLITE_CREATE_INDEX || code == SQLITE_CREATE_TRIGGER ? o->table : NULL;
	g->seen = 0;
	g->refused[0] = '\0';
	sqlite3_stmt *st;
	const char *why = NULL;
	char reason[512];
	if (sql_prepare_checked(db, o->sql, &st, &why) == 0) {
		/* Prepared means allowed; it must also have asked for the object. */
		if (!g->seen)
			why = _("its SQL does not create it");
		else if (sqlite3_step(st) != SQLITE_DONE)
			why = sqlite3_errmsg(db);
		if (why)
			snprintf(reason, sizeof(reason), "%s", why);
		sqlite3_finalize(st);
	} else {
		snprintf(reason, sizeof(reason), "%s", why);
	}
	g->expect = 0;
	g->name = g->table = NULL;
	if (!why) {
		int found = created(db, o);
		if (found < 0)
			snprintf(reason, sizeof(reason), "%s", sqlite3_errmsg(db));
		else if (!found)
			snprintf(reason, sizeof(reason), "%s", _("its SQL does not create it"));
		if (found == 1)
			return 0;
	}
	if (g->refused[0])
		return err_set(err, _("%s: cannot recreate %s \"%s\" of its schema: %s (refused: %s)"), label,
			       o->type, o->name, reason, g->refused);
	return err_set(err, _("%s: cannot recreate %s \"%s\" of its schema: %s"), label, o->type, o->name,
		       reason);
}
