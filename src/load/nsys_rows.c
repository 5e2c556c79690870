#include "config.h"
#include "load/nsys_rows.h"

#include "sqlfile/pagescan.h"

const enum nsys_table nsys_op_tables[NSYS_NOP_TABLES] = { NSYS_KERNEL, NSYS_MEMCPY, NSYS_MEMSET };
const enum nsys_table nsys_call_tables[NSYS_NCALL_TABLES] = { NSYS_RUNTIME, NSYS_NVTX };

struct walk {
	nsys_row_fn fn;
	nsys_forget_fn forget;
	void *ctx;
	enum nsys_table table;
	int64_t before, id; /* numbers given before the table, and so far */
	int corr, nvtx;     /* what column 1 is: a correlationId, an eventType */
};

static int walk_row(void *arg, size_t row, const int64_t *v)
{
	struct walk *w = arg;
	(void)row;
	int64_t id = !w->nvtx || nsys_nvtx_is_call(v[1]) ? ++w->id : 0;
	return w->fn(w->ctx, w->table, v[0], id, w->corr ? v[1] : 0);
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
		w.table = t;
		w.before = w.id;
		w.nvtx = t == NSYS_NVTX;
		w.corr = !w.nvtx && nsys_has_column(f, t, t == NSYS_RUNTIME ? NSYS_CALL_CORR : NSYS_CORR);
		const char *cols[2] = { "rowid", w.nvtx ? nsys_column(t, NSYS_NVTX_TYPE)
							: nsys_column(t, t == NSYS_RUNTIME ? NSYS_CALL_CORR
											   : NSYS_CORR) };
		int rc = pagescan_or_sql(db, nsys_table_name(t), cols, w.nvtx || w.corr ? 2 : 1, walk_row,
					 walk_forget, &w);
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}
