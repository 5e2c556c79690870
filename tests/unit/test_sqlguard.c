/* The guard of a connection that writes an export: an input's schema
 * object is created only by one statement that creates exactly it (type,
 * name, table), and nothing else; our own statements write the output
 * alone; ATTACH, transactions and most pragmas only when we say so. And
 * statements are run one per prepare. */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "sqlfile/sqlguard.h"
#include "sqlfile/sqlrun.h"

static struct sqlguard guard;

static sqlite3 *guarded(void)
{
	sqlite3 *db;
	CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
	CHECK(sqlguard_harden(db) == SQLITE_OK);
	CHECK(sql_run_script(db,
			     "CREATE TABLE t (a integer PRIMARY KEY, b text); INSERT INTO t VALUES (1, 'x');"
			     "ATTACH ':memory:' AS other; CREATE TABLE other.o (a);") == SQLITE_OK);
	memset(&guard, 0, sizeof(guard));
	CHECK(sqlguard_install(db, &guard) == SQLITE_OK);
	return db;
}

/* Replay o; expect success (want NULL) or a message containing want. */
static void replay(sqlite3 *db, const char *type, const char *name, const char *table, const char *sql,
		   const char *want)
{
	struct schema_obj o = { (char *)type, (char *)name, (char *)table, (char *)sql };
	struct rpd_error err = { { 0 } };
	int rc = sqlguard_replay(&guard, db, &o, "in.rpd", &err);
	if (!want) {
		CHECK_INT(rc, 0);
		if (rc)
			fprintf(stderr, "  %s: %s\n", sql, err.msg);
		return;
	}
	CHECK_INT(rc, -1);
	if (!strstr(err.msg, want)) {
		fprintf(stderr, "%s: [%s], expected [%s]\n", sql, err.msg, want);
		check_failures++;
	}
}

static int64_t count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t n = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void check_replay(void)
{
	sqlite3 *db = guarded();
	replay(db, "table", "a\"b", "a\"b",
	       "CREATE TABLE \"a\"\"b\" (x UNIQUE, y integer PRIMARY KEY AUTOINCREMENT)", NULL);
	replay(db, "index", "i", "t", "CREATE INDEX i ON t (lower(b)) WHERE a > 0", NULL);
	replay(db, "view", "v", "v", "CREATE VIEW v AS SELECT count(*) FROM t", NULL);
	replay(db, "trigger", "g", "t", "CREATE TRIGGER g AFTER INSERT ON t BEGIN DELETE FROM t; END", NULL);
	/* Comments and empty statements may follow; another statement not. */
	replay(db, "table", "c", "c", "CREATE TABLE c (a); -- done\n;/* end */", NULL);
	replay(db, "table", "d", "d", "CREATE TABLE d (a); DELETE FROM t", "not exactly one statement");
	replay(db, "table", "e", "e", "CREATE TABLE e (a); ATTACH 'x.db' AS v", "not exactly one statement");
	replay(db, "view", "w", "w", "", "not exactly one statement");
	/* What the row says: type, name, table. */
	replay(db, "table", "f", "f", "CREATE TABLE other_name (a)", "refused: CREATE TABLE main.other_name");
	replay(db, "table", "h", "h", "CREATE VIEW h AS SELECT 1", "refused: CREATE VIEW main.h");
	replay(db, "index", "j", "t", "CREATE INDEX j ON c (a)", "refused: CREATE INDEX main.j");
	replay(db, "trigger", "k", "t", "CREATE TEMP TRIGGER k AFTER INSERT ON t BEGIN SELECT 1; END",
	       "refused: CREATE TEMP TRIGGER temp.k");
	replay(db, "view", "l", "l", "CREATE TEMP VIEW l AS SELECT 1",
	       "refused: INSERT temp.sqlite_temp_master");
	replay(db, "table", "m", "m", "CREATE TABLE other.m (a)", "refused: INSERT other.sqlite_master");
	replay(db, "table", "n", "n", "CREATE TABLE n AS SELECT * FROM t", "refused: SELECT");
	replay(db, "table", "p", "p", "CREATE VIRTUAL TABLE p USING fts5(a)",
	       "refused: CREATE VIRTUAL TABLE");
	replay(db, "table", "q", "q", "INSERT INTO t VALUES (2, 'y')", "refused: INSERT main.t");
	/* Prepared but asking to create nothing: never stepped. */
	replay(db, "table", "r", "r", "VACUUM", "does not create it");
	replay(db, "table", "s", "s", "PRAGMA writable_schema = 1", "refused: PRAGMA writable_schema");
	replay(db, "index", "i", "t", "CREATE INDEX IF NOT EXISTS i ON t (b)", "does not create it");
	replay(db, "sequence", "u", "u", "CREATE TABLE u (a)", "not a table, index, view or trigger");
	CHECK_INT(count(db, "SELECT count(*) FROM t"), 1);
	CHECK_INT(count(db,
			"SELECT count(*) FROM sqlite_master WHERE name IN ('d', 'e', 'f', 'other_name', 'h', "
			"'j', 'm', 'n', 'p', 'q', 'r', 's', 'u')"),
		  0);
	sqlite3_close(db);
}

/* Our own statements: the output only; ATTACH and transactions when own. */
static void check_own(void)
{
	sqlite3 *db = guarded();
	struct rpd_error err;
	CHECK(sql_run_one(db, "INSERT INTO main.t VALUES (2, 'y')", "out", &err) == 0);
	CHECK(sql_run_one(db, "CREATE TEMP TABLE x (a)", "out", &err) == 0);
	CHECK(sql_run_one(db, "INSERT INTO temp.x VALUES (1)", "out", &err) == 0);
	CHECK(sql_run_one(db, "SELECT name FROM pragma_table_info('t')", "out", &err) == 0);
	CHECK(sql_run_one(db, "PRAGMA main.integrity_check", "out", &err) == 0);
	CHECK(sql_run_one(db, "PRAGMA main.page_size", "out", &err) == 0);
	CHECK(sql_run_one(db, "INSERT INTO other.o VALUES (1)", "out", &err) == -1);
	CHECK(strstr(guard.refused, "INSERT other.o") != NULL);
	CHECK(sql_run_one(db, "DELETE FROM other.o", "out", &err) == -1);
	CHECK(sql_run_one(db, "ATTACH ':memory:' AS v", "out", &err) == -1);
	CHECK(sql_run_one(db, "DETACH other", "out", &err) == -1);
	CHECK(sql_run_one(db, "COMMIT", "out", &err) == -1);
	CHECK(sql_run_one(db, "CREATE TABLE main.y (a)", "out", &err) == -1);
	CHECK(sql_run_one(db, "PRAGMA main.page_size = 1024", "out", &err) == -1);
	CHECK(sql_run_one(db, "PRAGMA writable_schema = 1", "out", &err) == -1);
	CHECK(sql_run_one(db, "PRAGMA journal_mode = OFF", "out", &err) == -1);
	CHECK(sql_run_one(db, "INSERT INTO t VALUES (3, 'z'); DELETE FROM t", "out", &err) == -1);
	CHECK(strstr(err.msg, "not exactly one statement") != NULL);
	CHECK_INT(count(db, "SELECT count(*) FROM t"), 2);
	CHECK(sqlguard_run_own(&guard, db, "BEGIN; ATTACH ':memory:' AS v; COMMIT") == SQLITE_OK);
	CHECK(guard.own == 0);
	/* A trigger never fires on a guarded connection. */
	replay(db, "trigger", "g", "t", "CREATE TRIGGER g AFTER INSERT ON t BEGIN DELETE FROM t; END", NULL);
	CHECK(sql_run_one(db, "INSERT INTO t VALUES (4, 'w')", "out", &err) == 0);
	CHECK_INT(count(db, "SELECT count(*) FROM t"), 3);
	sqlite3_close(db);
}

int main(void)
{
	check_replay();
	check_own();
	return check_done();
}
