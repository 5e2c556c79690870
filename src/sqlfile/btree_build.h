/* Building a rowid table's b-tree page by page, as SQLite's file format
 * lays it out, for rows that arrive in rising rowid order with their
 * records already encoded (copied from an input's leaves). SQLite would
 * decode and re-encode every column of every row; here a row costs a
 * memcpy, and several threads can fill leaves at once.
 *
 * Leaves hold no page numbers, so each thread writes its own to a scratch
 * file; once SQLite has written the rest of the database and closed it,
 * btree_place appends the leaves after its last page, builds the interior
 * pages above them and puts the top one at the table's root page. */
#ifndef RPDTOP_SQLFILE_BTREE_BUILD_H
#define RPDTOP_SQLFILE_BTREE_BUILD_H

#include <stddef.h>
#include <stdint.h>

/* One thread's leaves: pages in a scratch file (already unlinked). */
struct leaf_writer {
	int fd;
	uint32_t page_size;
	int max_cells;          /* per leaf, 0 for as many as fit (tests: deep trees) */
	uint8_t *buf;           /* pages not yet written to the scratch file */
	size_t nbuf, buf_pages; /* used, capacity */
	uint64_t flushed;       /* pages already in the scratch file */
	uint64_t run_first;     /* first page of the table being written */
	int ncells;             /* in the leaf being filled (the last of buf) */
	uint32_t content;       /* where its cell content starts */
	int64_t *maxkey;        /* largest rowid of each finished leaf of the run */
	size_t nkeys, cap;
	int64_t last; /* rowid of the last row added */
	int err;      /* errno of a failed write, else 0 */
};

/* The leaves one writer made for one table: pages first..first + n of its
 * scratch file; maxkey[i] is the largest rowid of leaf i (owned). */
struct leaf_run {
	const struct leaf_writer *w;
	uint64_t first;
	size_t n;
	int64_t *maxkey;
};

/* A scratch file in dir (then unlinked); -1 with errno set on failure. */
int leaf_writer_init(struct leaf_writer *w, const char *dir, uint32_t page_size);
void leaf_writer_free(struct leaf_writer *w);

/* Start a table's leaves. */
void leaf_writer_begin(struct leaf_writer *w);
/* Add one row (rowids rise). 1 when the record cannot sit on one page
 * (SQLite would spill it onto overflow pages), -1 on a write error (w->err),
 * else 0. */
int leaf_writer_add(struct leaf_writer *w, int64_t rowid, const uint8_t *record, size_t size);
/* Finish the table's leaves into run; -1 on a write error. */
int leaf_writer_end(struct leaf_writer *w, struct leaf_run *run);
/* Forget the table's leaves (it is copied another way). */
void leaf_writer_drop(struct leaf_writer *w);
void leaf_run_free(struct leaf_run *run);

/* The database file being completed, closed by SQLite meanwhile. */
struct btree_file {
	int fd;
	uint32_t page_size;
	uint32_t npages;  /* pages in the file so far */
	int max_children; /* per interior page, 0 for as many as fit */
	int err;          /* errno of a failed read or write */
};

/* Open the database file at path and read its header; -1 (errno set, or
 * EINVAL for a layout this does not write: auto-vacuum, reserved bytes). */
int btree_file_open(struct btree_file *f, const char *path);
/* The runs' leaves, in order, as the table whose root page is root (an
 * empty leaf now). -1 on a read or write error (f->err). */
int btree_place(struct btree_file *f, uint32_t root, const struct leaf_run *runs, size_t nruns);
/* Where SQLite's lock page is (its "pending byte", 2^30 unless a test
 * moved it, as sqlfile_test_knobs does for SQLite too). */
void btree_set_pending_byte(uint32_t offset);

/* Record the new page count in the header (and say it is valid), close. */
int btree_file_close(struct btree_file *f);

#endif
