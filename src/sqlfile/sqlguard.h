/* What keeps an input's names and schema from doing anything but describe
 * the input: every connection hardened, and on a connection that writes
 * an export, an authorizer that lets statements touch the output file
 * alone and lets an input's schema statement create the one object its
 * sqlite_master row names, nothing else. */
#ifndef RPDTOP_SQLGUARD_H
#define RPDTOP_SQLGUARD_H

#include <sqlite3.h>
#include <stddef.h>

#include "util/error.h"

/* Defensive mode (no writable_schema, no journal_mode=OFF, no shadow table
 * writes) and the files' schema not trusted (their views, triggers and
 * defaults call no function with side effects). For every connection the
 * program opens. Returns an SQLite code. */
int sqlguard_harden(sqlite3 *db);

struct sqlguard {
	/* Our own statement runs: transactions, ATTACH and setting the
	 * output's page size or encoding are let through. */
	int own;
	/* While an input's schema object is created: the one creation
	 * allowed (SQLITE_CREATE_TABLE, ...), its name, its table (indexes and
	 * triggers), and whether the statement asked for it. */
	int expect;
	const char *name, *table;
	int seen;
	char refused[256]; /* the first action refused, for the message */
};

/* Watch every statement prepared on db from now on (statements prepared
 * before are expired by SQLite). Triggers are switched off on db: none
 * fires while an export is written. Returns an SQLite code. */
int sqlguard_install(sqlite3 *db, struct sqlguard *g);
/* Run a script of our own with g->own set (g may be NULL: no guard).
 * Returns an SQLite code. */
int sqlguard_run_own(struct sqlguard *g, sqlite3 *db, const char *sql);

/* An object of an input's schema, as its sqlite_master row has it. */
struct schema_obj {
	char *type, *name, *table, *sql;
};

struct schema_list {
	struct schema_obj *v;
	size_t n, cap;
};

/* The objects of schema db_name ("main", or an attached input's name) of
 * db in the order they were made, SQLite's own (sqlite_*) left out.
 * Returns an SQLite code. */
int schema_list_read(sqlite3 *db, const char *db_name, struct schema_list *l);
void schema_list_add(struct schema_list *l, const struct schema_obj *o);
void schema_list_free(struct schema_list *l);

/* Create o in db's main schema with its own SQL, which must be one
 * statement creating exactly that object (of that type and name, on that
 * table) and nothing else. 0, or -1 with *err "LABEL: reason". */
int sqlguard_replay(struct sqlguard *g, sqlite3 *db, const struct schema_obj *o, const char *label,
		    struct rpd_error *err);

#endif
