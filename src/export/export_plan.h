/* Internal to the exporter: how each table of an input is copied. */
#ifndef RPDTOP_EXPORT_PLAN_H
#define RPDTOP_EXPORT_PLAN_H

#include <sqlite3.h>
#include <stdint.h>

#include "export/export.h"
#include "sqlfile/dbwriter.h"
#include "sqlfile/sqlguard.h"
#include "trace/strtab.h"
#include "util/idmap.h"

/* What a column holds, which decides whether a row goes and how its value
 * is translated. */
enum col_kind {
	K_COPY,     /* copied as it is */
	K_OP_PK,    /* rocpd_op.id */
	K_API_PK,   /* rocpd_api.id */
	K_OP_REF,   /* an op id: the row goes only if that op does */
	K_API_REF,  /* an API id: likewise */
	K_STR,      /* a rocpd_string id */
	K_USTR,     /* a rocpd_ustring id */
	K_CODE_PK,  /* rocpd_kernelcodeobject.id */
	K_CODE_REF, /* a kernel code object id */
	K_ROWID,    /* a table's own row id: renumbered with several inputs */
};

struct table_plan {
	char *name;
	int ncols;
	enum col_kind *kinds;
	const char *where;    /* extra condition on the rows read, or NULL */
	int key;              /* column of the integer primary key, or -1 */
	int bind_span;        /* where takes the exported span's end and start */
	int first_input_only; /* rocpd_metadata */
	sqlite3_stmt *insert; /* on the output */
};

struct exporter {
	const struct export_request *req;
	struct rpd_error *err;
	struct dbwriter out;
	struct sqlguard guard; /* on out's connection */
	int several;           /* several inputs: ids renumbered */
	struct table_plan *plans;
	size_t nplans;
	struct schema_list late; /* the input's views, indexes, triggers: made last */
	struct strtab strings, ustrings;
	sqlite3_stmt *insert_string, *insert_ustring, *insert_code;
	int64_t next_op, next_api, next_code;
	int64_t span_start, span_end; /* of the exported ops */
	int64_t repaired;             /* code objects made up for dangling ids */
	int strings_empty_written, ustrings_empty_written;
	char *metadata_table;     /* where the export records itself (rocpd), or NULL */
	const char *metadata_key; /* the column of its names ("tag" when NULL) */
	unsigned open_flags;      /* how inputs are opened (DBFILE_*) */
};

/* An input read without locks changed while it was exported (x->err says
 * so): the export is worth another try, under locks. */
#define EXPORT_CHANGED 1

/* Plan every table of the first input's schema and create it in the
 * output; views, indexes and triggers are kept for the end. */
int export_plan(struct exporter *x, sqlite3 *first, const char *path);
/* Create a table of the input's schema (read from path) in the output, or
 * keep any other object for export_replay_late. */
int export_replay(struct exporter *x, const struct schema_obj *o, const char *path);
/* The schema of the input attached as src (export_attach): its tables
 * made now, its views, indexes and triggers kept for export_replay_late;
 * the tables made into *tables when it is not NULL (schema_list_free it,
 * whatever came of it). */
int export_replay_schema(struct exporter *x, struct schema_list *tables);
/* The views, indexes and triggers kept, once every row is written. */
int export_replay_late(struct exporter *x);
void export_plan_free(struct exporter *x);
/* Let go of the statements prepared on the output (before it is closed). */
void export_plan_finalize(struct exporter *x);
/* The path of the trace's first input (the one read in SQL). */
const char *export_input_path(const struct exporter *x);
/* Report a failed SQLite call on db as "PATH: reason", with what the
 * guard refused if it did. Returns -1. */
int export_fail(struct exporter *x, sqlite3 *db, const char *path);
/* Prepare one statement (sql_prepare_one) on the output. 0, or -1 with
 * x->err set. */
int export_prepare(struct exporter *x, const char *sql, sqlite3_stmt **st);
/* Run one statement on the output, formatted by sqlite3_mprintf (names
 * from an input go through %w inside double quotes, or %Q). 0, or -1
 * with x->err set. */
int export_runf(struct exporter *x, const char *fmt, ...);
/* The output id of a string, writing it on first use. */
int export_string(struct exporter *x, int ustring, const char *s, size_t len, int64_t *out);
/* A kernel code object for an id the input references: copied or made up. */
int export_code_object(struct exporter *x, struct idmap *map, int64_t id, int64_t *out);

#endif
