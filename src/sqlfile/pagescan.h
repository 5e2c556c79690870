/* Reading a rowid table's numeric columns straight from the database
 * file's b-tree pages, several threads at once. A full scan through SQL
 * spends most of its time decoding each column in the virtual machine;
 * here a row costs a few varint reads. The reader follows SQLite's
 * documented file format and steps aside (returns FAST_DECLINED) for
 * anything it does not expect, so the caller falls back to plain SQL,
 * which then reports real damage in its own words. */
#ifndef RPDTOP_SQLFILE_PAGESCAN_H
#define RPDTOP_SQLFILE_PAGESCAN_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "util/fastpath.h"

#define PAGESCAN_ROWID (-1) /* a column index meaning the row's rowid */
#define PAGESCAN_MAX_COLS 8
#define PAGESCAN_MAX_THREADS 8

struct pagescan {
	sqlite3 *db;
	sqlite3_file *file; /* the connection's own handle: its locks hold */
	uint32_t page_size, usable, npages;
	uint32_t encoding;        /* text encoding: 1 is UTF-8 */
	void (*thread_end)(void); /* optional: run by each decoding thread as it ends */
	/* Optional: is the row of this rowid wanted? Rows it declines are
	 * counted but not decoded (a scan that keeps a few rows by id). */
	int (*want)(void *ctx, int64_t rowid);
	int shared_reads; /* the file may be read from several threads */
	int in_txn;
	/* The file opened again to map the leaves' headers while counting
	 * (a system call per leaf read through the VFS), or -1; its size then. */
	int fd;
	int64_t fd_size;
	int map_fails; /* RPDTOP_TEST_MAP_FAIL: mapping fails, as it may */
};

/* The leaves of one table in rowid order; no rowid of leaf i exceeds
 * upper[i], and every rowid of leaf i + 1 does. */
struct pagescan_table {
	uint32_t *leaf;
	int64_t *upper;
	size_t nleaves, cap, upper_cap;
	int cols[PAGESCAN_MAX_COLS]; /* record index of each wanted column */
	int ncols;
	/* The record index of a lone INTEGER PRIMARY KEY, or -1. Whether it
	 * is the rowid is read from the first stored row: SQLite stores an
	 * alias of the rowid as NULL, and "PRIMARY KEY DESC" is no alias. */
	int key_col;
	int key_is_rowid; /* then every row must store it as NULL */
	/* Bit k: a NULL in wanted column k is no 0 but a row for SQL to judge
	 * (the caller then tells a missing value from a zero). */
	unsigned null_declines;
};

/* Called for each row with its wanted columns; row counts from 0 over the
 * whole table. A non-zero return stops the scan (FAST_DECLINED). */
typedef int (*pagescan_row_fn)(void *ctx, size_t row, const int64_t *v);

/* A row as stored: its rowid, its record (header and body, all on the
 * leaf: rows spilling onto overflow pages are refused) and the wanted
 * columns decoded. */
struct pagescan_cell {
	int64_t rowid;
	const uint8_t *record;
	size_t size;
	const int64_t *v;
};
typedef int (*pagescan_cell_fn)(void *ctx, const struct pagescan_cell *cell);

/* The rows one thread handled: [first, first + count). */
struct pagescan_part {
	size_t first, count;
};

/* Start reading db's main file directly: holds a read transaction so that
 * no writer changes it meanwhile. FAST_DECLINED when the file cannot be read
 * this way (write-ahead log in use, unusual page layout). */
int pagescan_begin(struct pagescan *ps, sqlite3 *db);
void pagescan_end(struct pagescan *ps);

/* Find table's leaves and the record positions of the named columns
 * ("rowid", and a column that is an alias of it, read as the rowid). */
int pagescan_open_table(struct pagescan *ps, const char *table, const char *const *cols, int ncols,
			struct pagescan_table *out);
void pagescan_table_free(struct pagescan_table *tab);
/* Keep only the leaves that may hold rowids lo..hi. */
void pagescan_clip(struct pagescan_table *tab, int64_t lo, int64_t hi);
/* Keep only the leaves that may hold one of the nkeys rowids keys (rising):
 * a few rows wanted among many are read without the pages around them. */
void pagescan_keep_keys(struct pagescan_table *tab, const int64_t *keys, size_t nkeys);

/* Count the rows, split in nthreads runs of leaves: parts[k] tells the
 * rows of run k, *rows the table's total. */
int pagescan_count(const struct pagescan *ps, const struct pagescan_table *tab, int nthreads,
		   struct pagescan_part *parts, size_t *rows);
/* Decode the counted rows, run k on its own thread calling fn(ctx[k], row,
 * values) in rowid order, rows numbered as counted. The counts bound the
 * rows handed over, whatever the pages hold by now: a run that finds more
 * or fewer rows than it counted stops (FAST_DECLINED). */
int pagescan_decode(const struct pagescan *ps, const struct pagescan_table *tab, int nthreads,
		    struct pagescan_part *parts, pagescan_row_fn fn, void *const *ctx);
/* The same, handing each row over as stored. */
int pagescan_decode_cells(const struct pagescan *ps, const struct pagescan_table *tab, int nthreads,
			  struct pagescan_part *parts, pagescan_cell_fn fn, void *const *ctx);

/* Forget every row fn was given so far (the scan starts over). */
typedef void (*pagescan_reset_fn)(void *ctx);

/* Every row of a table on this thread, from its pages when it can be
 * read so, else through SQL (the same values: sqlite3_column_int64), all
 * in one snapshot. When the pages give out half-way, reset(ctx) forgets
 * what fn was given and SQL starts over, so that fn sees each row once.
 * Returns an SQLite code; a non-zero fn return stops the scan
 * (SQLITE_ABORT). */
int pagescan_or_sql(sqlite3 *db, const char *table, const char *const *cols, int ncols, pagescan_row_fn fn,
		    pagescan_reset_fn reset, void *ctx);

/* Is table's lone INTEGER PRIMARY KEY its rowid, as its first stored row
 * says (an alias is stored as NULL)? 0 when it is not, when the table has
 * no such key, or when that cannot be told (then ids are not taken for
 * rowids: the slow way is the safe one). An empty table: 1. */
int pagescan_rowid_alias(sqlite3 *db, const char *table);

/* The caller keeps what a decode gave (a table read this way). */
void pagescan_taken(void);
/* Tables read this way so far (tests check which path was taken). */
unsigned long pagescan_tables_read(void);

#endif
