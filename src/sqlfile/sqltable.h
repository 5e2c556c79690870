/* Tables of another tool's SQLite output read by the columns they have:
 * which of the columns a reader knows a table has, whether it has those
 * the reader needs, and its rows read in the order of its rowids with
 * NULL standing for each column it lacks. Values are checked as they are
 * read: a time that is no integer, NULL where a value is needed, a row
 * that ends before it starts or a time past 2^62 ns is one line naming
 * the file, the table, the row and the column. */
#ifndef RPDTOP_SQLTABLE_H
#define RPDTOP_SQLTABLE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "sqlfile/sqlread.h"

/* Times beyond this either way are refused: differences of any two fit. */
#define SQLTABLE_TIME_LIMIT ((int64_t)1 << 62)

/* A table and the columns read of it, in the order of their numbers;
 * NULL ends them (at most 32). */
struct sqltable {
	const char *name;
	const char *const *columns;
};

/* Does db have the table (not a view)? Which of its columns (a bit each,
 * names compared without case)? SQLite codes. */
int sqltable_find(sqlite3 *db, const struct sqltable *t, int *exists, unsigned *present);

/* What a table needs: each column of all (bits), and one of the pair
 * either when it is given (column numbers, -1: none). */
struct sqltable_need {
	unsigned all;
	int either[2];
};

/* The first column a table with present needs and lacks, NULL when none:
 * its name, or "A or B" in buf. */
const char *sqltable_missing(const struct sqltable *t, unsigned present, const struct sqltable_need *n,
			     char *buf, size_t size);

/* A table's rows being read. */
struct sqlrows {
	const struct sqlsrc *src;
	const struct sqltable *table;
	unsigned present;
};

/* Each row of the table, in the order of its rowids, to fn: a statement
 * whose column 0 is the rowid and column c + 1 column c of the table (NULL
 * when it lacks it). fn's non-zero stops with -1. */
int sqlrows_each(const struct sqlrows *r, int (*fn)(void *ctx, sqlite3_stmt *st), void *ctx);
/* The row read (for messages). */
long long sqlrows_row(sqlite3_stmt *st);
/* Column col: 1 with *v when it is an integer, 0 when it is NULL or the
 * table lacks it, -1 with the error set when it is anything else. */
int sqlrows_int(const struct sqlrows *r, sqlite3_stmt *st, unsigned col, int64_t *v);
/* A column that must hold an integer: 0, or -1 with the error set. */
int sqlrows_need_int(const struct sqlrows *r, sqlite3_stmt *st, unsigned col, int64_t *v);
/* A row's start (column from) and end (column to; has_end 0: an instant
 * at its start), each within 2^62 ns, the end not before the start. */
int sqlrows_times(const struct sqlrows *r, sqlite3_stmt *st, unsigned from, unsigned to, int has_end,
		  int64_t *start, int64_t *end);

#endif
