/* How the rows of an Nsight Systems export become a trace's ops and calls:
 * the one numbering the reader (load/nsys.c) gives them and the export
 * (export/export_nsys.c) finds their rows by.
 *
 * - GPU ops are numbered from 1 over the tables of nsys_op_tables, in that
 *   order, each table that is there read whole in the order of its rowids:
 *   every row is an op.
 * - Calls are numbered from 1 the same way over nsys_call_tables: every row
 *   of CUPTI_ACTIVITY_KIND_RUNTIME, then the rows of NVTX_EVENTS that are
 *   ranges or marks (nsys_nvtx_is_call); its other rows (domains,
 *   categories, thread names) are no calls and get no number. */
#ifndef RPDTOP_NSYS_ROWS_H
#define RPDTOP_NSYS_ROWS_H

#include <sqlite3.h>
#include <stdint.h>

#include "load/nsys_detect.h"

#define NSYS_NOP_TABLES 3
#define NSYS_NCALL_TABLES 2

extern const enum nsys_table nsys_op_tables[NSYS_NOP_TABLES];
extern const enum nsys_table nsys_call_tables[NSYS_NCALL_TABLES];

/* NVTX event types (ENUM_NSYS_EVENT_TYPE) read as calls. */
enum { NSYS_NVTX_MARK = 34, NSYS_NVTX_PUSH_POP = 59, NSYS_NVTX_START_END = 60 };

static inline int nsys_nvtx_is_call(int64_t event_type)
{
	return event_type == NSYS_NVTX_MARK || event_type == NSYS_NVTX_PUSH_POP ||
	       event_type == NSYS_NVTX_START_END;
}

/* A row of one of the tables as the walk gives it: its rowid, the number
 * the reader gives it (0 for an NVTX row that is no call), its start and
 * end (0 for a NULL), and its correlationId (0 when it has none, and for
 * NVTX rows). */
struct nsys_row {
	enum nsys_table table;
	int64_t rowid, id, start, end, corr;
};

/* Non-zero stops the walk. */
typedef int (*nsys_row_fn)(void *ctx, const struct nsys_row *row);
/* The rows of table given so far are to be forgotten: they come again. */
typedef void (*nsys_forget_fn)(void *ctx, enum nsys_table table);

/* Each row of the op tables (calls 0) or of the call tables (calls 1) that
 * f says db has, in the reader's order, to fn. Returns an SQLite code
 * (SQLITE_ABORT when fn stopped it). */
int nsys_rows_each(sqlite3 *db, const struct nsys_file *f, int calls, nsys_row_fn fn, nsys_forget_fn forget,
		   void *ctx);

#endif
