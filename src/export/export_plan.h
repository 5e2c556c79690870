/* Internal to the exporter: how each table of an input is copied. */
#ifndef RPDTOP_EXPORT_PLAN_H
#define RPDTOP_EXPORT_PLAN_H

#include <sqlite3.h>
#include <stdint.h>

#include "export/export.h"
#include "sqlfile/dbwriter.h"
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
	int several; /* several inputs: ids renumbered */
	struct table_plan *plans;
	size_t nplans;
	char *views; /* the inputs' views and indexes, last */
	struct strtab strings, ustrings;
	sqlite3_stmt *insert_string, *insert_ustring, *insert_code;
	int64_t next_op, next_api, next_code;
	int64_t span_start, span_end; /* of the exported ops */
	int64_t repaired;             /* code objects made up for dangling ids */
	int strings_empty_written, ustrings_empty_written;
	char metadata_table[128]; /* where the export records itself */
};

/* Plan every table of the first input's schema and create it in the
 * output; views and indexes are kept for the end. */
int export_plan(struct exporter *x, sqlite3 *first, const char *path);
void export_plan_free(struct exporter *x);
/* Let go of the statements prepared on the output (before it is closed). */
void export_plan_finalize(struct exporter *x);
/* The output id of a string, writing it on first use. */
int export_string(struct exporter *x, int ustring, const char *s, size_t len, int64_t *out);
/* A kernel code object for an id the input references: copied or made up. */
int export_code_object(struct exporter *x, struct idmap *map, int64_t id, int64_t *out);

#endif
