/* What keeps an input's names and schema from doing anything but describe
 * the input: every connection the program opens is hardened. */
#ifndef RPDTOP_SQLGUARD_H
#define RPDTOP_SQLGUARD_H

#include <sqlite3.h>

/* Defensive mode (no writable_schema, no journal_mode=OFF, no shadow table
 * writes) and the files' schema not trusted (their views, triggers and
 * defaults call no function with side effects). For every connection the
 * program opens. Returns an SQLite code. */
int sqlguard_harden(sqlite3 *db);

#endif
