/* An Nsight Systems export keeps each kind of activity in a table of its
 * own, without indexes, names as ids into StringIds. Each table is read in
 * one pass in the order of its rows, by the columns it has (NULL stands for
 * those it lacks), kernels and memsets from the file's pages while they
 * can be; every value read is checked: a time, device, stream or
 * thread that is no integer, a row that ends before it starts, a time past
 * 2^62 ns is one line naming the table and the row. */
#include "config.h"
#include "load/nsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/corrlinks.h"
#include "load/nsys_rows.h"
#include "load/progress.h"
#include "load/rpd.h" /* enum load_what */
#include "load/strcache.h"
#include "load/tabled.h"
#include "sqlfile/pagescan.h"
#include "sqlfile/sqlread.h"
#include "util/i18n.h"

enum {
	S_EMPTY,
	S_KERNEL,
	S_FILL,
	S_H2D,
	S_D2H,
	S_D2D,
	S_H2H,
	S_P2P,
	S_COPY,
	S_MARKER,
	S_NO_KERNEL,
	S_NO_CALL,
	NSTR
};

struct nreader {
	struct sqlsrc src;
	struct trace *t;
	const struct nsys_file *f;
	uint32_t input;
	int ops;               /* the ops are read (else they are t's already) */
	int apis;              /* the API rows, links and copies' facts are read */
	struct op_span *span;  /* nsys_span: the ops' span alone */
	enum nsys_table table; /* being read */
	struct sqlrows rows;   /* of it */
	struct strcache strings;
	int strings_read;    /* StringIds read whole (its id is no key) */
	int64_t nops, napis; /* GPU ops and API rows met: their ids */
	uint32_t str[NSTR];
	struct corrlinks links;
};

static void reader_init(struct nreader *r, struct trace *t, sqlite3 *db, const char *path,
			const struct nsys_file *f, struct rpd_error *err)
{
	static const char *const names[NSTR] = {
		"",
		"KernelExecution",
		"FillBuffer",
		"CopyHostToDevice",
		"CopyDeviceToHost",
		"CopyDeviceToDevice",
		"CopyHostToHost",
		"CopyPeerToPeer",
		"CopyUnknown",
		TRACE_MARKER_NAME,
		"[unknown kernel]",
		"[unknown call]",
	};
	*r = (struct nreader){ .src = { db, path, "Nsight Systems", err }, .t = t, .f = f };
	strcache_init_column(&r->strings, nsys_table_name(NSYS_STRINGS),
			     nsys_column(NSYS_STRINGS, NSYS_STRING_VALUE));
	corrlinks_init(&r->links);
	for (int i = 0; i < NSTR; i++)
		r->str[i] = strtab_intern(&t->strings, names[i]);
}

static void reader_free(struct nreader *r)
{
	strcache_free(&r->strings);
	corrlinks_free(&r->links);
}

/* The string of a StringIds id. */
static int string_of(struct nreader *r, int64_t id, uint32_t *out)
{
	if (!r->f->strings_keyed) {
		if (!r->strings_read && strcache_fill(&r->strings, &r->src, r->t))
			return -1;
		r->strings_read = 1;
		*out = strcache_peek(&r->strings, r->t, id);
		return 0;
	}
	return strcache_get(&r->strings, &r->src, r->t, id, out);
}

static int int_col(struct nreader *r, sqlite3_stmt *st, unsigned col, int64_t *v)
{
	return sqlrows_int(&r->rows, st, col, v);
}

static int need_int(struct nreader *r, sqlite3_stmt *st, unsigned col, int64_t *v)
{
	return sqlrows_need_int(&r->rows, st, col, v);
}

/* A kernel's name: demangledName, else shortName (ids into StringIds). */
static int kernel_name_id(struct nreader *r, sqlite3_stmt *st, int64_t *id, int *has)
{
	static const unsigned cols[] = { NSYS_DEMANGLED, NSYS_SHORT };
	*has = 0;
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		int64_t v;
		int rc = int_col(r, st, cols[i], &v);
		if (rc < 0)
			return -1;
		if (rc && !*has) {
			*has = 1;
			*id = v;
		}
	}
	return 0;
}

/* A copy's direction by its copyKind (CUpti_ActivityMemcpyKind, as rpd
 * names it: an array counts as the device, unified memory as what it
 * moved between). */
static int copy_type(int64_t kind)
{
	switch (kind) {
	case 1:  /* HtoD */
	case 3:  /* HtoA */
	case 11: /* unified HtoD */
		return S_H2D;
	case 2:  /* DtoH */
	case 4:  /* AtoH */
	case 12: /* unified DtoH */
		return S_D2H;
	case 5:  /* AtoA */
	case 6:  /* AtoD */
	case 7:  /* DtoA */
	case 8:  /* DtoD */
	case 13: /* unified DtoD */
		return S_D2D;
	case 9:
		return S_H2H;
	case 10:
		return S_P2P;
	default:
		return S_COPY;
	}
}

/* Where a copy's side is, by its memory kind (ENUM_CUDA_MEM_KIND). */
static uint32_t place(struct nreader *r, int has, int64_t kind, int64_t device)
{
	char buf[64];
	switch (has ? kind : -1) {
	case 0:
		return strtab_intern(&r->t->strings, "pageable host");
	case 1:
		return strtab_intern(&r->t->strings, "pinned host");
	case 2: /* device */
	case 3: /* array */
	case 5: /* device static */
		snprintf(buf, sizeof(buf), "GPU %lld", (long long)device);
		return strtab_intern(&r->t->strings, buf);
	case 4:
	case 6:
		return strtab_intern(&r->t->strings, "managed");
	default:
		return TRACE_NONE;
	}
}

/* What a copy's row says of it: kind, bytes and sides (has_: there). */
struct copy_row {
	int64_t kind, bytes, src, dst;
	int has_kind, has_bytes, has_src, has_dst;
};

static int copy_read(struct nreader *r, sqlite3_stmt *st, struct copy_row *c)
{
	c->has_kind = int_col(r, st, NSYS_COPY_KIND, &c->kind);
	c->has_bytes = int_col(r, st, NSYS_BYTES, &c->bytes);
	c->has_src = int_col(r, st, NSYS_SRC_KIND, &c->src);
	c->has_dst = int_col(r, st, NSYS_DST_KIND, &c->dst);
	return c->has_kind < 0 || c->has_bytes < 0 || c->has_src < 0 || c->has_dst < 0 ? -1 : 0;
}

/* What a row of a GPU op table says, checked. */
struct op_in {
	int64_t start, end, device, stream, corr, name_id;
	int has_corr, has_name;
	struct copy_row c;
};

/* An op of the table being read, into the trace (or its span): numbered
 * as load/nsys_rows.h says. */
static int op_add(struct nreader *r, const struct op_in *in)
{
	int64_t id = ++r->nops;
	uint32_t desc = r->table == NSYS_KERNEL ? r->str[S_NO_KERNEL] : r->str[S_EMPTY];
	if (in->has_name && r->ops && !r->span && string_of(r, in->name_id, &desc))
		return -1;
	progress_row();
	if (r->span) {
		op_span_add(r->span, in->start, in->end);
		return 0;
	}
	struct trace *t = r->t;
	uint32_t row;
	if (r->ops) {
		int type = r->table == NSYS_KERNEL   ? S_KERNEL
			   : r->table == NSYS_MEMSET ? S_FILL
			   : in->c.has_kind          ? copy_type(in->c.kind)
						     : S_COPY;
		row = trace_add_op(t, id, in->start, in->end, desc, r->str[type],
				   trace_queue(t, trace_gpu(t, r->input, in->device), in->stream));
	} else {
		row = trace_op_row(t, r->input, id);
	}
	if (!r->apis || row == TRACE_NONE)
		return 0;
	if (in->has_corr && in->corr != 0)
		corrlinks_op(&r->links, 0, in->corr, row);
	if (in->c.has_bytes)
		trace_add_copy(t, row, in->c.bytes, place(r, in->c.has_src, in->c.src, in->device),
			       place(r, in->c.has_dst, in->c.dst, in->device));
	return 0;
}

/* A row of a GPU op table, through SQL. */
static int op_row(struct nreader *r, sqlite3_stmt *st)
{
	struct op_in in = { 0 };
	if (sqlrows_times(&r->rows, st, NSYS_START, NSYS_END, 1, &in.start, &in.end) ||
	    need_int(r, st, NSYS_DEVICE, &in.device) || need_int(r, st, NSYS_STREAM, &in.stream))
		return -1;
	in.has_corr = int_col(r, st, NSYS_CORR, &in.corr);
	if (in.has_corr < 0 ||
	    (r->table == NSYS_KERNEL && kernel_name_id(r, st, &in.name_id, &in.has_name)) ||
	    (r->table == NSYS_MEMCPY && copy_read(r, st, &in.c)))
		return -1;
	return op_add(r, &in);
}

/* Kernels and memsets are read from the table's pages (a few varint reads
 * a row, not SQL's virtual machine) while every value is one SQL's path
 * would accept; a row that is not (a NULL, a real, a text, a time out of
 * range, an end before its start) gives the table back to SQL, which
 * reads it again and names what is wrong. Copies have more columns than a
 * page scan takes, and are few. */
struct page_ops {
	struct nreader *r;
	unsigned col[PAGESCAN_MAX_COLS]; /* the table's column of each one read */
	int ncols;
};

static int page_op(void *ctx, size_t row, const int64_t *v)
{
	struct page_ops *p = ctx;
	struct op_in in = { 0 };
	(void)row;
	for (int k = 0; k < p->ncols; k++) {
		switch (p->col[k]) {
		case NSYS_START:
			in.start = v[k];
			break;
		case NSYS_END:
			in.end = v[k];
			break;
		case NSYS_DEVICE:
			in.device = v[k];
			break;
		case NSYS_STREAM:
			in.stream = v[k];
			break;
		case NSYS_CORR:
			in.corr = v[k];
			in.has_corr = 1;
			break;
		default: /* demangledName, then shortName */
			if (!in.has_name)
				in.name_id = v[k];
			in.has_name = 1;
		}
	}
	if (in.start <= -SQLTABLE_TIME_LIMIT || in.start >= SQLTABLE_TIME_LIMIT ||
	    in.end <= -SQLTABLE_TIME_LIMIT || in.end >= SQLTABLE_TIME_LIMIT || in.end < in.start)
		return 1;
	return op_add(p->r, &in) ? 1 : 0;
}

/* FAST_DONE when the table was read from its pages; else nothing of it
 * is kept. */
static int page_table(struct nreader *r, enum nsys_table table)
{
	struct page_ops p = { .r = r };
	const char *names[PAGESCAN_MAX_COLS];
	for (unsigned c = 0; nsys_column(table, c); c++) {
		if (!nsys_has_column(r->f, table, c))
			continue;
		if (p.ncols == PAGESCAN_MAX_COLS)
			return FAST_DECLINED;
		p.col[p.ncols] = c;
		names[p.ncols++] = nsys_column(table, c);
	}
	struct pagescan ps;
	if (table == NSYS_MEMCPY || pagescan_begin(&ps, r->src.db))
		return FAST_DECLINED;
	struct pagescan_table tab;
	int rc = pagescan_open_table(&ps, nsys_table_name(table), names, p.ncols, &tab);
	if (rc == FAST_DONE) {
		struct pagescan_part part;
		size_t rows, ops = r->t->ops.n, noted = r->links.nops;
		int64_t nops = r->nops;
		struct op_span span = r->span ? *r->span : (struct op_span){ 0 };
		void *ctx = &p;
		for (int k = 0; k < p.ncols; k++)
			if (p.col[k] != NSYS_CORR)
				tab.null_declines |= 1u << k;
		rc = pagescan_count(&ps, &tab, 1, &part, &rows);
		if (rc == FAST_DONE && r->ops && !r->span)
			trace_reserve_ops(r->t, rows);
		if (rc == FAST_DONE)
			rc = pagescan_decode(&ps, &tab, 1, &part, page_op, &ctx);
		if (rc == FAST_DONE) {
			pagescan_taken();
		} else {
			if (r->ops && !r->span)
				r->t->ops.n = ops;
			if (r->span)
				*r->span = span;
			r->nops = nops;
			corrlinks_ops_back(&r->links, noted);
		}
		pagescan_table_free(&tab);
	}
	pagescan_end(&ps);
	return rc;
}

static uint32_t thread_of(struct nreader *r, int64_t global_tid)
{
	uint64_t g = (uint64_t)global_tid;
	return trace_thread(r->t, r->input, (int64_t)((g >> 24) & 0xFFFFFF), (int64_t)(g & 0xFFFFFF));
}

/* A call of the CUDA runtime. */
static int call_row(struct nreader *r, sqlite3_stmt *st)
{
	int64_t start, end, tid, corr = 0, name_id = 0;
	if (sqlrows_times(&r->rows, st, NSYS_CALL_START, NSYS_CALL_END, 1, &start, &end) ||
	    need_int(r, st, NSYS_CALL_TID, &tid))
		return -1;
	int has_corr = int_col(r, st, NSYS_CALL_CORR, &corr),
	    has_id = int_col(r, st, NSYS_CALL_NAME_ID, &name_id);
	if (has_corr < 0 || has_id < 0)
		return -1;
	uint32_t name = r->str[S_NO_CALL];
	if (has_id) {
		if (string_of(r, name_id, &name))
			return -1;
	} else if (sqlite3_column_type(st, NSYS_CALL_NAME + 1) != SQLITE_NULL) {
		name = sql_intern_column(r->t, st, NSYS_CALL_NAME + 1);
	}
	progress_row();
	struct trace *t = r->t;
	uint32_t row = trace_add_api(t, ++r->napis, start, end, name, TRACE_NONE, thread_of(r, tid));
	/* The op's call is the one that starts first (an older export records
	 * some calls twice, the second inside the first). */
	if (has_corr && corr != 0)
		corrlinks_call(&r->links, 0, corr, start, row);
	return 0;
}

/* An NVTX range or mark: a UserMarker call with its text. */
static int nvtx_row(struct nreader *r, sqlite3_stmt *st)
{
	int64_t type, start, end = 0, tid, text_id = 0;
	if (need_int(r, st, NSYS_NVTX_TYPE, &type))
		return -1;
	if (!nsys_nvtx_is_call(type))
		return 0;
	int has_end = type == NSYS_NVTX_MARK ? 0 : int_col(r, st, NSYS_NVTX_END, &end);
	if (has_end < 0 ||
	    sqlrows_times(&r->rows, st, NSYS_NVTX_START, NSYS_NVTX_END, has_end, &start, &end) ||
	    need_int(r, st, NSYS_NVTX_TID, &tid))
		return -1;
	int has_id = int_col(r, st, NSYS_NVTX_TEXT_ID, &text_id);
	if (has_id < 0)
		return -1;
	uint32_t text = TRACE_NONE;
	if (sqlite3_column_type(st, NSYS_NVTX_TEXT + 1) != SQLITE_NULL)
		text = sql_intern_column(r->t, st, NSYS_NVTX_TEXT + 1);
	else if (has_id && string_of(r, text_id, &text))
		return -1;
	progress_row();
	trace_add_api(r->t, ++r->napis, start, end, r->str[S_MARKER], text, thread_of(r, tid));
	return 0;
}

/* A row of the table being read to its reader. */
struct row_fn {
	struct nreader *r;
	int (*fn)(struct nreader *, sqlite3_stmt *);
};

static int row_to(void *ctx, sqlite3_stmt *st)
{
	struct row_fn *f = ctx;
	return f->fn(f->r, st);
}

/* Each row of table, when the export has it, to fn. */
static int read_table(struct nreader *r, enum nsys_table table, int (*fn)(struct nreader *, sqlite3_stmt *))
{
	if (!(r->f->has >> table & 1))
		return 0;
	r->table = table;
	r->rows = (struct sqlrows){ &r->src, nsys_table(table), r->f->cols[table] };
	struct row_fn f = { r, fn };
	return sqlrows_each(&r->rows, row_to, &f);
}

static int read_op_table(struct nreader *r, enum nsys_table table)
{
	if (!(r->f->has >> table & 1))
		return 0;
	r->table = table;
	return page_table(r, table) == FAST_DONE ? 0 : read_table(r, table, op_row);
}

/* The op tables in the order that numbers their rows. */
static int read_ops(void *ctx)
{
	struct nreader *r = ctx;
	for (int k = 0; k < NSYS_NOP_TABLES; k++)
		if (read_op_table(r, nsys_op_tables[k]))
			return -1;
	return 0;
}

/* The calls and NVTX ranges, in the order that numbers them, then each op
 * to its call. */
static int read_calls(void *ctx)
{
	struct nreader *r = ctx;
	for (int k = 0; k < NSYS_NCALL_TABLES; k++)
		if (read_table(r, nsys_call_tables[k],
			       nsys_call_tables[k] == NSYS_NVTX ? nvtx_row : call_row))
			return -1;
	corrlinks_link(&r->links, r->t);
	return 0;
}

int nsys_read(struct trace *t, sqlite3 *db, const char *path, const struct nsys_file *f, unsigned what,
	      struct rpd_error *err)
{
	if (!(what & LOAD_OPS)) {
		/* The API rows of an input read before. */
		long input = tabled_input_of(t, path, INPUT_NSYS);
		return input < 0 ? 0 : nsys_read_apis(t, db, (uint32_t)input, f, err);
	}
	struct nreader r;
	reader_init(&r, t, db, path, f, err);
	r.ops = 1;
	r.apis = (what & LOAD_APIS) != 0;
	r.input = trace_add_input(t, path, INPUT_NSYS, atoi(f->version));
	trace_input_set_node(t, r.input, f->node);
	struct tabled_reader rd = { read_ops, read_calls, &r };
	int rc = tabled_read(t, r.input, &rd, r.apis);
	reader_free(&r);
	return rc;
}

int nsys_read_apis(struct trace *t, sqlite3 *db, uint32_t input, const struct nsys_file *f,
		   struct rpd_error *err)
{
	struct nreader r;
	reader_init(&r, t, db, t->inputs[input].path, f, err);
	r.input = input;
	r.apis = 1;
	struct tabled_reader rd = { read_ops, read_calls, &r };
	int rc = tabled_read_apis(t, input, &rd);
	reader_free(&r);
	return rc;
}

int nsys_span(sqlite3 *db, const char *path, const struct nsys_file *f, struct op_span *out,
	      struct rpd_error *err)
{
	struct trace t;
	struct nreader r;
	trace_init(&t);
	memset(out, 0, sizeof(*out));
	reader_init(&r, &t, db, path, f, err);
	r.ops = 1;
	r.span = out;
	int rc = read_ops(&r);
	reader_free(&r);
	trace_free(&t);
	return rc;
}
