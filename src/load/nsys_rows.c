#include "config.h"
#include "load/nsys_rows.h"

#include "sqlfile/pagescan.h"

const enum nsys_table nsys_op_tables[NSYS_NOP_TABLES] = { NSYS_KERNEL, NSYS_MEMCPY, NSYS_MEMSET };
const enum nsys_table nsys_call_tables[NSYS_NCALL_TABLES] = { NSYS_RUNTIME, NSYS_NVTX };

/* The columns walked: rowid, start, end, then the correlationId or the
 * NVTX event type when the table has it. */
enum { W_ROWID, W_START, W_END, W_MORE };

struct walk {
	nsys_row_fn fn;
	nsys_forget_fn forget;
	void *ctx;
	enum nsys_table table;
	int64_t before, id; /* numbers given before the table, and so far */
	int corr, nvtx;     /* what W_MORE is: a correlationId, an event type */
};

static int walk_row(void *arg, size_t row, const int64_t *v)
{
	struct walk *w = arg;
	(void)row;
	struct nsys_row r = { .table = w->table, .rowid = v[W_ROWID], .start = v[W_START], .end = v[W_END] };
	r.id = !w->nvtx || nsys_nvtx_is_call(v[W_MORE]) ? ++w->id : 0;
	r.corr = w->corr ? v[W_MORE] : 0;
	return w->fn(w->ctx, &r);
}

/* The table's pages gave out: SQL reads it again from its first row. */
static void walk_forget(void *arg)
{
	struct walk *w = arg;
	w->id = w->before;
	w->forget(w->ctx, w->table);
}

int nsys_rows_each(sqlite3 *db, const struct nsys_file *f, int calls, nsys_row_fn fn, nsys_forget_fn forget,
		   void *ctx)
{
	const enum nsys_table *tables = calls ? nsys_call_tables : nsys_op_tables;
	int n = calls ? NSYS_NCALL_TABLES : NSYS_NOP_TABLES;
	struct walk w = { .fn = fn, .forget = forget, .ctx = ctx };
	for (int k = 0; k < n; k++) {
		enum nsys_table t = tables[k];
		if (!(f->has >> t & 1))
			continue;
		int call = t == NSYS_RUNTIME;
		unsigned corr = call ? NSYS_CALL_CORR : NSYS_CORR;
		w.table = t;
		w.before = w.id;
		w.nvtx = t == NSYS_NVTX;
		w.corr = !w.nvtx && nsys_has_column(f, t, corr);
		const char *cols[W_MORE + 1] = {
			"rowid",
			nsys_column(t, w.nvtx ? NSYS_NVTX_START
				       : call ? NSYS_CALL_START
					      : NSYS_START),
			nsys_column(t, w.nvtx ? NSYS_NVTX_END
				       : call ? NSYS_CALL_END
					      : NSYS_END),
			nsys_column(t, w.nvtx ? NSYS_NVTX_TYPE : corr),
		};
		int rc = pagescan_or_sql(db, nsys_table_name(t), cols, w.nvtx || w.corr ? W_MORE + 1 : W_MORE,
					 walk_row, walk_forget, &w);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}
