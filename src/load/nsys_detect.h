/* What an NVIDIA Nsight Systems SQLite export (nsys export --type sqlite)
 * holds: which of the tables rpdtop reads it has, which of their columns,
 * and the export's schema version. An export has a table only for what was
 * recorded, and its columns move from version to version: the file is
 * read by the columns it has, and what cannot be read so is refused with
 * one line naming the version, before anything is read. */
#ifndef RPDTOP_NSYS_DETECT_H
#define RPDTOP_NSYS_DETECT_H

#include <sqlite3.h>

#include "sqlfile/sqltable.h"
#include "util/error.h"

enum nsys_table {
	NSYS_KERNEL,  /* CUPTI_ACTIVITY_KIND_KERNEL */
	NSYS_MEMCPY,  /* CUPTI_ACTIVITY_KIND_MEMCPY */
	NSYS_MEMSET,  /* CUPTI_ACTIVITY_KIND_MEMSET */
	NSYS_RUNTIME, /* CUPTI_ACTIVITY_KIND_RUNTIME */
	NSYS_NVTX,    /* NVTX_EVENTS */
	NSYS_STRINGS, /* StringIds */
	NSYS_NTABLES
};

/* The columns read, by table, in the order of nsys_column(): the GPU op
 * tables begin alike. */
enum { NSYS_START, NSYS_END, NSYS_DEVICE, NSYS_STREAM, NSYS_CORR, NSYS_OP_MORE };
enum { NSYS_DEMANGLED = NSYS_OP_MORE, NSYS_SHORT };
enum { NSYS_BYTES = NSYS_OP_MORE, NSYS_COPY_KIND, NSYS_SRC_KIND, NSYS_DST_KIND };
enum { NSYS_CALL_START, NSYS_CALL_END, NSYS_CALL_TID, NSYS_CALL_CORR, NSYS_CALL_NAME_ID, NSYS_CALL_NAME };
enum { NSYS_NVTX_START, NSYS_NVTX_END, NSYS_NVTX_TYPE, NSYS_NVTX_TID, NSYS_NVTX_TEXT, NSYS_NVTX_TEXT_ID };
enum { NSYS_STRING_ID, NSYS_STRING_VALUE };

struct nsys_file {
	/* EXPORT_SCHEMA_VERSION (of META_DATA_EXPORT, or EXPORT_META_DATA in
	 * older exports), letters, digits and ._- only; "" when it has none. */
	char version[32];
	/* The machine it was recorded on (TARGET_INFO_SYSTEM_ENV's
	 * Hostname), letters, digits and ._- only; "" when it does not say. */
	char node[128];
	unsigned has;                /* a bit per enum nsys_table present */
	unsigned cols[NSYS_NTABLES]; /* a bit per column present */
	/* StringIds.id is its key: a string is looked up by it (else the
	 * table is read whole, once). */
	int strings_keyed;
};

/* Is db an Nsight Systems export (a StringIds table beside one of the
 * tables of CUDA activity, NVTX or GPUs)? 1 yes, 0 no, -1 on an error. */
int nsys_is(sqlite3 *db, const char *path, struct rpd_error *err);
/* What f says of db; -1 with one line naming the file and the version when
 * it cannot be read. */
int nsys_detect(sqlite3 *db, const char *path, struct nsys_file *f, struct rpd_error *err);

/* The table and the columns read of it. */
const struct sqltable *nsys_table(enum nsys_table table);
const char *nsys_table_name(enum nsys_table table);
/* Column col of table, NULL past the last. */
const char *nsys_column(enum nsys_table table, unsigned col);

static inline int nsys_has_column(const struct nsys_file *f, enum nsys_table table, unsigned col)
{
	return (f->cols[table] >> col) & 1;
}

#endif
