#include "config.h"
#include "load/launch.h"

#include <sqlite3.h>
#include <stddef.h>

#include "sqlfile/dbfile_read.h"

static const struct trace_input *input_of(const struct trace *t, uint32_t op)
{
	for (size_t i = 0; i < t->ninputs; i++)
		if (op >= t->inputs[i].op_first && op - t->inputs[i].op_first < t->inputs[i].op_count)
			return &t->inputs[i];
	return NULL;
}

/* rpd keeps the sizes with the launching call, rocpd with the dispatch. */
static int query(const struct trace *t, uint32_t op, const struct trace_input *in, const char **sql,
		 int64_t *key)
{
	if (in->format == INPUT_ROCPD) {
		*sql = "SELECT grid_size_x, grid_size_y, grid_size_z, workgroup_size_x, workgroup_size_y, "
		       "workgroup_size_z FROM rocpd_kernel_dispatch WHERE id = ?";
		*key = trace_op_id(t, op);
		return 0;
	}
	uint32_t api = t->op_launch && op < t->op_launch_n ? t->op_launch[op] : TRACE_NONE;
	if (api == TRACE_NONE || api >= t->apis.n)
		return -1;
	*sql = "SELECT gridX, gridY, gridZ, workgroupX, workgroupY, workgroupZ FROM rocpd_kernelapi "
	       "WHERE api_ptr_id = ?";
	*key = trace_api_id(t, api);
	return 0;
}

/* One kernel's row, asked by key. */
struct dims_query {
	const char *sql;
	int64_t key;
	struct launch_dims *out;
	int found;
};

static int read_dims(void *ctx, sqlite3 *db, const char *path, struct rpd_error *err)
{
	(void)path;
	(void)err;
	struct dims_query *q = ctx;
	sqlite3_stmt *st = NULL;
	q->found = sqlite3_prepare_v2(db, q->sql, -1, &st, NULL) == SQLITE_OK &&
		   sqlite3_bind_int64(st, 1, q->key) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
	if (q->found)
		for (int i = 0; i < 3; i++) {
			q->out->grid[i] = sqlite3_column_int64(st, i);
			q->out->workgroup[i] = sqlite3_column_int64(st, i + 3);
		}
	sqlite3_finalize(st);
	return 0;
}

int load_launch_dims(const struct trace *t, uint32_t op, struct launch_dims *out)
{
	const struct trace_input *in = op < t->ops.n && t->ops.kind[op] == OP_KERNEL ? input_of(t, op) : NULL;
	struct dims_query q = { .out = out };
	/* A JSON trace's, an Nsight Systems export's or a rocprof
	 * results.db's sizes are not read. */
	if (!in || in->format == INPUT_KINETO || in->format == INPUT_NSYS || in->format == INPUT_ROCPROF ||
	    in->format == INPUT_ROCPROFV3 || query(t, op, in, &q.sql, &q.key))
		return -1;
	struct rpd_error err;
	struct dbfile_reading r = { read_dims, NULL, &q };
	return dbfile_read(in->path, &r, &err) == 0 && q.found ? 0 : -1;
}
