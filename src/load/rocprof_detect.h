/* What a rocprof results.db holds (rocprof --hip-trace and the like, the
 * SQLite file rocprofiler's tblextr.py writes, ROCm 3 to 6): which of the
 * tables rpdtop reads it has, and which of their columns. The layout moved
 * between releases: the file is read by the columns it has, and what
 * cannot be read so is refused with one line before anything is read. */
#ifndef RPDTOP_ROCPROF_DETECT_H
#define RPDTOP_ROCPROF_DETECT_H

#include <sqlite3.h>

#include "sqlfile/sqltable.h"
#include "util/error.h"

enum rocprof_table {
	ROCPROF_OPS,   /* kernels (and barriers) of the HIP ops trace */
	ROCPROF_COPY,  /* its copies and fills */
	ROCPROF_HIP,   /* HIP calls */
	ROCPROF_HSA,   /* HSA calls */
	ROCPROF_KFD,   /* KFD calls (ROCm 3 and 4) */
	ROCPROF_ROCTX, /* roctx ranges and marks (table rocTX) */
	ROCPROF_NTABLES
};

/* The columns read, by table, in the order of rocprof_table(). The
 * GPU op tables (OPS, COPY) and the call tables (HIP, HSA, KFD, rocTX)
 * each begin alike. __section is not read: it tells the layout of ROCm 5.1
 * on, in which pid is the process (before, pid named a section of the
 * JSON timeline). */
enum { ROCPROF_START, ROCPROF_END, ROCPROF_NAME, ROCPROF_PID, ROCPROF_INDEX, ROCPROF_SECTION, ROCPROF_MORE };
enum { ROCPROF_DEVICE = ROCPROF_MORE, ROCPROF_QUEUE };
enum { ROCPROF_TID = ROCPROF_MORE };

struct rocprof_file {
	unsigned has;                   /* a bit per enum rocprof_table present */
	unsigned cols[ROCPROF_NTABLES]; /* a bit per column present */
};

/* Is db a rocprof results.db (a HIP table beside an OPS or COPY table)?
 * 1 yes, 0 no, -1 on an error. */
int rocprof_is(sqlite3 *db, const char *path, struct rpd_error *err);
/* What f says of db; -1 with one line naming the file, the table and the
 * column it lacks when it cannot be read. */
int rocprof_detect(sqlite3 *db, const char *path, struct rocprof_file *f, struct rpd_error *err);

/* The table and the columns read of it. */
const struct sqltable *rocprof_table(enum rocprof_table table);

static inline int rocprof_has_column(const struct rocprof_file *f, enum rocprof_table table, unsigned col)
{
	return (f->cols[table] >> col) & 1;
}

#endif
