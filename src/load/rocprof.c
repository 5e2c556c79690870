/* rocprof keeps each kind of activity in a table of its own, without
 * indexes, names as text. Each table is read in one pass in the order of
 * its rows, by the columns it has (sqlfile/sqltable.h: NULL stands for
 * those it lacks, every value read is checked). */
#include "config.h"
#include "load/rocprof.h"

#include <stdlib.h>
#include <string.h>

#include "load/corrlinks.h"
#include "load/progress.h"
#include "load/rpd.h" /* enum load_what */
#include "load/strcache.h"
#include "load/tabled.h"

enum { S_EMPTY, S_KERNEL, S_BARRIER, S_COPY, S_MARKER, S_NO_KERNEL, S_NO_CALL, NSTR };

struct preader {
	struct sqlsrc src;
	struct trace *t;
	const struct rocprof_file *f;
	uint32_t input;
	int ops;                  /* the ops are read (else they are t's already) */
	int apis;                 /* the API rows and links are read */
	struct op_span *span;     /* rocprof_span: the ops' span alone */
	enum rocprof_table table; /* being read */
	struct sqlrows rows;      /* of it */
	int64_t nops, napis;      /* GPU ops and API rows met: their ids */
	uint32_t str[NSTR];
	struct corrlinks links;
};

static void reader_init(struct preader *r, struct trace *t, sqlite3 *db, const char *path,
			const struct rocprof_file *f, struct rpd_error *err)
{
	static const char *const names[NSTR] = {
		"",
		"KernelExecution",
		"Barrier",
		"CopyUnknown",
		TRACE_MARKER_NAME,
		"[unknown kernel]",
		"[unknown call]",
	};
	*r = (struct preader){ .src = { db, path, "rocprof", err }, .t = t, .f = f };
	corrlinks_init(&r->links);
	for (int i = 0; i < NSTR; i++)
		r->str[i] = strtab_intern(&t->strings, names[i]);
}

/* The process a row's correlation id is within: its pid in the layout of
 * ROCm 5.1 on (__section there), else none (0). 1, 0 when it has none
 * (pid NULL), -1 with the error set. */
static int process_of(struct preader *r, sqlite3_stmt *st, int64_t *proc)
{
	*proc = 0;
	if (!rocprof_has_column(r->f, r->table, ROCPROF_SECTION))
		return 1;
	return sqlrows_int(&r->rows, st, ROCPROF_PID, proc);
}

/* A barrier as rocprof names one: its "<barrier packet>" (written with its
 * quotes), or the tracer's Barrier... */
static int is_barrier(const char *name)
{
	return strcmp(name, "\"<barrier packet>\"") == 0 || strcmp(name, "<barrier packet>") == 0 ||
	       strncmp(name, "Barrier", 7) == 0;
}

/* An op's name (desc) and type by its table and Name. */
static void op_names(struct preader *r, sqlite3_stmt *st, uint32_t *desc, uint32_t *type)
{
	const char *name = (const char *)sqlite3_column_text(st, ROCPROF_NAME + 1);
	*desc = r->str[S_EMPTY];
	if (r->table == ROCPROF_COPY) {
		*type = name ? sql_intern_column(r->t, st, ROCPROF_NAME + 1) : r->str[S_COPY];
	} else if (name && is_barrier(name)) {
		*type = strncmp(name, "Barrier", 7) == 0 ? sql_intern_column(r->t, st, ROCPROF_NAME + 1)
							 : r->str[S_BARRIER];
	} else {
		*type = r->str[S_KERNEL];
		*desc = name ? sql_intern_column(r->t, st, ROCPROF_NAME + 1) : r->str[S_NO_KERNEL];
	}
}

/* A row of OPS or COPY. */
static int op_row(void *ctx, sqlite3_stmt *st)
{
	struct preader *r = ctx;
	const struct sqlrows *rows = &r->rows;
	int64_t id = ++r->nops, start, end, device, queue, corr = 0, proc;
	if (sqlrows_times(rows, st, ROCPROF_START, ROCPROF_END, 1, &start, &end) ||
	    sqlrows_need_int(rows, st, ROCPROF_DEVICE, &device) ||
	    sqlrows_need_int(rows, st, ROCPROF_QUEUE, &queue))
		return -1;
	int has_corr = sqlrows_int(rows, st, ROCPROF_INDEX, &corr), has_proc = process_of(r, st, &proc);
	if (has_corr < 0 || has_proc < 0)
		return -1;
	progress_row();
	if (r->span) {
		op_span_add(r->span, start, end);
		return 0;
	}
	struct trace *t = r->t;
	uint32_t row;
	if (r->ops) {
		uint32_t desc, type;
		op_names(r, st, &desc, &type);
		row = trace_add_op(t, id, start, end, desc, type,
				   trace_queue(t, trace_gpu(t, r->input, device), queue));
	} else {
		row = trace_op_row(t, r->input, id);
	}
	if (r->apis && row != TRACE_NONE && has_corr && has_proc)
		corrlinks_op(&r->links, proc, corr, row);
	return 0;
}

/* A row of HIP, HSA, KFD (a call) or rocTX (a roctx range or mark). */
static int call_row(void *ctx, sqlite3_stmt *st)
{
	struct preader *r = ctx;
	const struct sqlrows *rows = &r->rows;
	int64_t start, end, pid, tid, corr = 0, proc;
	if (sqlrows_times(rows, st, ROCPROF_START, ROCPROF_END, 1, &start, &end) ||
	    sqlrows_need_int(rows, st, ROCPROF_PID, &pid) || sqlrows_need_int(rows, st, ROCPROF_TID, &tid))
		return -1;
	int has_corr = sqlrows_int(rows, st, ROCPROF_INDEX, &corr), has_proc = process_of(r, st, &proc);
	if (has_corr < 0 || has_proc < 0)
		return -1;
	progress_row();
	struct trace *t = r->t;
	int named = sqlite3_column_type(st, ROCPROF_NAME + 1) != SQLITE_NULL;
	uint32_t name = named ? sql_intern_column(t, st, ROCPROF_NAME + 1) : r->str[S_NO_CALL],
		 thread = trace_thread(t, r->input, pid, tid);
	if (r->table == ROCPROF_ROCTX) {
		trace_add_api(t, ++r->napis, start, end, r->str[S_MARKER], named ? name : TRACE_NONE, thread);
		return 0;
	}
	uint32_t row = trace_add_api(t, ++r->napis, start, end, name, TRACE_NONE, thread);
	if (r->table == ROCPROF_HIP && has_corr && has_proc)
		corrlinks_call(&r->links, proc, corr, start, row);
	return 0;
}

/* Each row of table, when the file has it, to fn. */
static int read_table(struct preader *r, enum rocprof_table table, int (*fn)(void *, sqlite3_stmt *))
{
	if (!(r->f->has >> table & 1))
		return 0;
	r->table = table;
	r->rows = (struct sqlrows){ &r->src, rocprof_table(table), r->f->cols[table] };
	return sqlrows_each(&r->rows, fn, r);
}

static int read_ops(void *ctx)
{
	struct preader *r = ctx;
	return read_table(r, ROCPROF_OPS, op_row) || read_table(r, ROCPROF_COPY, op_row);
}

/* The calls and roctx ranges, then each op to its call. */
static int read_calls(void *ctx)
{
	struct preader *r = ctx;
	static const enum rocprof_table calls[] = { ROCPROF_HIP, ROCPROF_HSA, ROCPROF_KFD, ROCPROF_ROCTX };
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (read_table(r, calls[i], call_row))
			return -1;
	corrlinks_link(&r->links, r->t);
	return 0;
}

int rocprof_read(struct trace *t, sqlite3 *db, const char *path, const struct rocprof_file *f, unsigned what,
		 struct rpd_error *err)
{
	if (!(what & LOAD_OPS)) {
		/* The API rows of an input read before. */
		long input = tabled_input_of(t, path, INPUT_ROCPROF);
		return input < 0 ? 0 : rocprof_read_apis(t, db, (uint32_t)input, f, err);
	}
	struct preader r;
	reader_init(&r, t, db, path, f, err);
	r.ops = 1;
	r.apis = (what & LOAD_APIS) != 0;
	r.input = trace_add_input(t, path, INPUT_ROCPROF, 0);
	struct tabled_reader rd = { read_ops, read_calls, &r };
	int rc = tabled_read(t, r.input, &rd, r.apis);
	corrlinks_free(&r.links);
	return rc;
}

int rocprof_read_apis(struct trace *t, sqlite3 *db, uint32_t input, const struct rocprof_file *f,
		      struct rpd_error *err)
{
	struct preader r;
	reader_init(&r, t, db, t->inputs[input].path, f, err);
	r.input = input;
	r.apis = 1;
	struct tabled_reader rd = { read_ops, read_calls, &r };
	int rc = tabled_read_apis(t, input, &rd);
	corrlinks_free(&r.links);
	return rc;
}

int rocprof_span(sqlite3 *db, const char *path, const struct rocprof_file *f, struct op_span *out,
		 struct rpd_error *err)
{
	struct trace t;
	struct preader r;
	trace_init(&t);
	memset(out, 0, sizeof(*out));
	reader_init(&r, &t, db, path, f, err);
	r.ops = 1;
	r.span = out;
	int rc = read_ops(&r);
	corrlinks_free(&r.links);
	trace_free(&t);
	return rc;
}
