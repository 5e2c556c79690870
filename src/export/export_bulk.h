/* Internal to the exporter: the tables of a single rpd input that are keyed
 * by op, API or link ids (rocpd_op, rocpd_api, rocpd_api_ops,
 * rocpd_kernelapi, ...: nearly every row of an export) copied as stored.
 * Their kept records are read from the input's leaves on two threads and
 * laid into new leaves (btree_build); SQLite writes everything else, and
 * the leaves join the file after it has closed it. A table this cannot
 * read (text where an id should be, a record spilling off its page) is
 * left to SQL, which copies it as before. */
#ifndef RPDTOP_EXPORT_BULK_H
#define RPDTOP_EXPORT_BULK_H

#include <sqlite3.h>

#include "export/export_plan.h"
#include "export/export_select.h"
#include "export/idset.h"
#include "sqlfile/btree_build.h"
#include "util/fastpath.h"

#define BULK_THREADS 2

struct bulk_table {
	char *name;
	uint32_t root; /* in the output */
	struct leaf_run runs[BULK_THREADS];
	uint64_t rows;
	int64_t max_rowid;
	int scanned; /* keyed by no set: SQL would have run its INSERT anyway */
};

struct export_bulk {
	struct leaf_writer w[BULK_THREADS];
	int nthreads;
	int ready;         /* writers and marks made */
	uint32_t encoding; /* the output's text (SQLITE_UTF8...) */
	struct bulk_table *tables;
	size_t ntables, cap;
	struct idset marks[BULK_THREADS][2]; /* strings, ustrings the rows name */
};

/* Ready to copy, with scratch files beside the output; strings and
 * ustrings are the ranges of the input's string ids. 1 when this way is
 * not open (RPDTOP_PAGESCAN=0, no scratch file), then SQL does it all. */
int export_bulk_init(struct exporter *x, struct export_bulk *b, const struct idset *strings,
		     const struct idset *ustrings);
/* Copy the kept rows of p, whose rowids are the ids of sets->set[key]
 * (key -1: a table of its own rowids, whose op and API ids are tested).
 * FAST_DECLINED leaves the table to SQL; FAST_FAILED with x->err set. */
enum fastpath export_bulk_table(struct exporter *x, struct export_bulk *b, sqlite3 *input,
				const struct table_plan *p, const struct export_sets *sets, int key);
/* Add the string ids (ustring: rocpd_ustring) the copied rows hold to s. */
void export_bulk_marks(const struct export_bulk *b, int ustring, struct idset *s);
/* With SQLite's work committed and the output closed (dbwriter_suspend):
 * put the tables' pages in place. -1 on error (x->err). */
int export_bulk_place(struct exporter *x, struct export_bulk *b);
void export_bulk_free(struct export_bulk *b);

#endif
