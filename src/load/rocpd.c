/* rocpd keeps GPU work in rocpd_kernel_dispatch and rocpd_memory_copy, CPU
 * ranges in rocpd_region, and who-is-who in rocpd_info_* tables; rows
 * point at info rows by their ids (pid and tid included), and a dispatch
 * meets the API call that launched it through its event's correlation id.
 * The unsuffixed views over the per-file tables are read. */
#include "config.h"
#include "load/rocpd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/progress.h"
#include "load/strcache.h"
#include "util/i18n.h"
#include "util/idmap.h"
#include "util/xalloc.h"

static const char *const required_views[] = {
	"rocpd_metadata",
	"rocpd_string",
	"rocpd_info_node",
	"rocpd_info_process",
	"rocpd_info_thread",
	"rocpd_info_agent",
	"rocpd_info_kernel_symbol",
	"rocpd_kernel_dispatch",
	"rocpd_memory_copy",
	"rocpd_region",
	"rocpd_event",
};
#define NREQUIRED (sizeof(required_views) / sizeof(required_views[0]))

struct agent {
	int gpu;       /* a GPU (else a CPU) */
	int64_t index; /* its GPU index */
};

struct reader {
	struct sqlsrc src;
	struct trace *t;
	unsigned what;
	struct idmap node_input; /* rocpd_info_node.id -> trace input */
	struct idmap agent_row;  /* rocpd_info_agent.id -> agents[] */
	struct agent *agents;
	size_t nagents, agents_cap;
	struct idmap pid, tid;     /* info row id -> OS pid / tid */
	struct idmap kernel_name;  /* rocpd_info_kernel_symbol.id -> string */
	struct idmap event_corr;   /* rocpd_event.id -> correlation id */
	struct idmap event_marker; /* rocpd_event.id of markers -> 1 */
	struct idmap corr_api;     /* correlation id -> api row */
	struct strcache strings;
	int64_t *op_event; /* event id of each op read, for links */
	size_t op_base, nop_event, op_event_cap;
	uint32_t first_input;
};

int rocpd_is(sqlite3 *db, const char *path, struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "rocpd", err };
	int a, b;
	int rc = sql_table_exists(db, "rocpd_kernel_dispatch", &a);
	if (rc == SQLITE_OK)
		rc = sql_table_exists(db, "rocpd_info_agent", &b);
	if (rc != SQLITE_OK)
		return sql_fail(&src, rc);
	return a && b;
}

int rocpd_detect(sqlite3 *db, const char *path, int *version, struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "rocpd", err };
	for (size_t i = 0; i < NREQUIRED; i++) {
		int exists;
		int rc = sql_table_exists(db, required_views[i], &exists);
		if (rc != SQLITE_OK)
			return sql_fail(&src, rc);
		if (!exists)
			return err_set(err, _("%s: rocpd database is missing %s"), path, required_views[i]);
	}
	char v[64];
	int rc = sql_metadata(&src, "schema_version", v, sizeof(v));
	if (rc < 0)
		return -1;
	if (rc > 0)
		return err_set(err, _("%s: rocpd database without a schema_version in rocpd_metadata"), path);
	/* "3", "3.0" and "3.0.1" are all major version 3. */
	char *end;
	long major = strtol(v, &end, 10);
	if (end == v || (*end != '\0' && *end != '.') || major != 3)
		return err_set(err, _("%s: unsupported rocpd schema_version '%s' (supported: 3.x)"), path, v);
	*version = (int)major;
	return 0;
}

/* Run sql and hand each row to fn; stops at the first error. */
static int each_row(struct reader *r, const char *sql, int (*fn)(struct reader *, sqlite3_stmt *))
{
	sqlite3_stmt *st;
	if (sql_prepare(&r->src, sql, &st))
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (fn(r, st)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(&r->src, rc);
}

/* Each node is an input of its own: GPUs of two nodes are two GPUs. */
static int node_row(struct reader *r, sqlite3_stmt *st)
{
	const char *host = (const char *)sqlite3_column_text(st, 1);
	const char *machine = (const char *)sqlite3_column_text(st, 2);
	uint32_t input = r->first_input;
	if (r->node_input.count > 0)
		input = trace_add_input(r->t, r->src.path, INPUT_ROCPD,
					r->t->inputs[r->first_input].schema_version);
	trace_input_set_node(r->t, input, host && *host ? host : machine);
	idmap_put(&r->node_input, (uint64_t)sqlite3_column_int64(st, 0), input);
	return 0;
}

static int agent_row(struct reader *r, sqlite3_stmt *st)
{
	const char *type = (const char *)sqlite3_column_text(st, 1);
	struct agent a = { .gpu = type && strcmp(type, "GPU") == 0 };
	/* The GPU's index among GPUs is what rpd calls gpuId. */
	int col = sqlite3_column_type(st, 2) != SQLITE_NULL ? 2 : 3;
	a.index = sqlite3_column_int64(st, col);
	r->agents = xgrow(r->agents, &r->agents_cap, r->nagents + 1, sizeof(*r->agents));
	r->agents[r->nagents] = a;
	idmap_put(&r->agent_row, (uint64_t)sqlite3_column_int64(st, 0), (uint32_t)r->nagents++);
	return 0;
}

static int pid_row(struct reader *r, sqlite3_stmt *st)
{
	idmap_put(&r->pid, (uint64_t)sqlite3_column_int64(st, 0), (uint32_t)sqlite3_column_int64(st, 1));
	return 0;
}

static int tid_row(struct reader *r, sqlite3_stmt *st)
{
	idmap_put(&r->tid, (uint64_t)sqlite3_column_int64(st, 0), (uint32_t)sqlite3_column_int64(st, 1));
	return 0;
}

/* Symbols sometimes carry the ".kd" suffix of the kernel descriptor. */
static int kernel_row(struct reader *r, sqlite3_stmt *st)
{
	int col = sqlite3_column_type(st, 1) != SQLITE_NULL ? 1 : 2;
	const char *s = (const char *)sqlite3_column_text(st, col);
	size_t n = s ? (size_t)sqlite3_column_bytes(st, col) : 0;
	if (n > 3 && strcmp(s + n - 3, ".kd") == 0)
		n -= 3;
	idmap_put(&r->kernel_name, (uint64_t)sqlite3_column_int64(st, 0),
		  strtab_intern_len(&r->t->strings, s ? s : "", n));
	return 0;
}

/* Events: correlation ids for links, and which ones are markers. */
static int event_row(struct reader *r, sqlite3_stmt *st)
{
	uint64_t id = (uint64_t)sqlite3_column_int64(st, 0);
	if (sqlite3_column_type(st, 1) != SQLITE_NULL)
		idmap_put(&r->event_corr, id, (uint32_t)sqlite3_column_int64(st, 1));
	const char *cat = (const char *)sqlite3_column_text(st, 2);
	if (cat && strstr(cat, "MARKER"))
		idmap_put(&r->event_marker, id, 1);
	return 0;
}

static uint32_t input_of(struct reader *r, sqlite3_stmt *st, int col)
{
	uint32_t input;
	return idmap_get(&r->node_input, (uint64_t)sqlite3_column_int64(st, col), &input) ? input
											  : r->first_input;
}

static const struct agent *agent_of(struct reader *r, sqlite3_stmt *st, int col)
{
	uint32_t row;
	if (sqlite3_column_type(st, col) == SQLITE_NULL ||
	    !idmap_get(&r->agent_row, (uint64_t)sqlite3_column_int64(st, col), &row))
		return NULL;
	return &r->agents[row];
}

static void remember_event(struct reader *r, sqlite3_stmt *st, int col)
{
	r->op_event = xgrow(r->op_event, &r->op_event_cap, r->nop_event + 1, sizeof(*r->op_event));
	r->op_event[r->nop_event++] =
		sqlite3_column_type(st, col) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, col);
}

/* id, nid, agent_id, queue_id, kernel_id, start, end, event_id */
static int dispatch_row(struct reader *r, sqlite3_stmt *st)
{
	const struct agent *a = agent_of(r, st, 2);
	uint32_t name;
	if (!idmap_get(&r->kernel_name, (uint64_t)sqlite3_column_int64(st, 4), &name))
		name = strtab_intern(&r->t->strings, "[unknown kernel]");
	uint32_t gpu = trace_gpu(r->t, input_of(r, st, 1), a ? a->index : -1);
	uint32_t queue = trace_queue(r->t, gpu, sqlite3_column_int64(st, 3));
	progress_row();
	trace_add_op(r->t, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 5),
		     sqlite3_column_int64(st, 6), name, strtab_intern(&r->t->strings, "KernelExecution"),
		     queue);
	remember_event(r, st, 7);
	return 0;
}

/* The direction of a copy, from the kinds of its two agents. */
static const char *copy_type(const struct agent *src, const struct agent *dst)
{
	int from_gpu = src && src->gpu, to_gpu = dst && dst->gpu;
	if (from_gpu && to_gpu)
		return "CopyDeviceToDevice";
	if (to_gpu)
		return "CopyHostToDevice";
	if (from_gpu)
		return "CopyDeviceToHost";
	return "CopyHostToHost";
}

/* id, nid, start, end, src_agent_id, dst_agent_id, queue_id, event_id */
static int copy_row(struct reader *r, sqlite3_stmt *st)
{
	const struct agent *src = agent_of(r, st, 4), *dst = agent_of(r, st, 5);
	const struct agent *on = dst && dst->gpu ? dst : src && src->gpu ? src : NULL;
	uint32_t gpu = trace_gpu(r->t, input_of(r, st, 1), on ? on->index : -1);
	/* Copies without a queue get a lane of their own on the GPU. */
	int64_t q = sqlite3_column_type(st, 6) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 6);
	progress_row();
	trace_add_op(r->t, ROCPD_COPY_ID_BASE + sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 2),
		     sqlite3_column_int64(st, 3), 0, strtab_intern(&r->t->strings, copy_type(src, dst)),
		     trace_queue(r->t, gpu, q));
	remember_event(r, st, 7);
	return 0;
}

/* id, nid, pid, tid, start, end, name_id, event_id. A roctx range becomes
 * a UserMarker with its text as argument, as rpd records it. */
static int region_row(struct reader *r, sqlite3_stmt *st)
{
	uint32_t name, pid = 0, tid = 0, one;
	if (strcache_get(&r->strings, &r->src, r->t, sqlite3_column_int64(st, 6), &name))
		return -1;
	idmap_get(&r->pid, (uint64_t)sqlite3_column_int64(st, 2), &pid);
	idmap_get(&r->tid, (uint64_t)sqlite3_column_int64(st, 3), &tid);
	uint64_t event = (uint64_t)sqlite3_column_int64(st, 7);
	int marker = sqlite3_column_type(st, 7) != SQLITE_NULL && idmap_get(&r->event_marker, event, &one);
	uint32_t thread = trace_thread(r->t, input_of(r, st, 1), pid, tid);
	progress_row();
	uint32_t row = trace_add_api(r->t, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 4),
				     sqlite3_column_int64(st, 5),
				     marker ? strtab_intern(&r->t->strings, "UserMarker") : name,
				     marker ? name : TRACE_NONE, thread);
	uint32_t corr;
	if (!marker && sqlite3_column_type(st, 7) != SQLITE_NULL && idmap_get(&r->event_corr, event, &corr))
		idmap_put(&r->corr_api, corr, row);
	return 0;
}

/* An op is linked to the API call with the same correlation id. */
static void link_ops(struct reader *r)
{
	for (size_t i = 0; i < r->nop_event; i++) {
		uint32_t corr, api;
		if (r->op_event[i] >= 0 && idmap_get(&r->event_corr, (uint64_t)r->op_event[i], &corr) &&
		    idmap_get(&r->corr_api, corr, &api))
			trace_add_link(r->t, api, (uint32_t)(r->op_base + i));
	}
}

static int read_all(struct reader *r)
{
	if (each_row(r, "SELECT id, hostname, machine_id FROM rocpd_info_node ORDER BY id", node_row) ||
	    each_row(r, "SELECT id, type, type_index, logical_index FROM rocpd_info_agent", agent_row) ||
	    each_row(r, "SELECT id, kernel_name, display_name FROM rocpd_info_kernel_symbol", kernel_row))
		return -1;
	if (r->what & LOAD_APIS) {
		if (each_row(r, "SELECT id, pid FROM rocpd_info_process", pid_row) ||
		    each_row(r, "SELECT id, tid FROM rocpd_info_thread", tid_row) ||
		    each_row(r,
			     "SELECT E.id, E.correlation_id, S.string FROM rocpd_event E "
			     "LEFT JOIN rocpd_string S ON S.id = E.category_id",
			     event_row))
			return -1;
	}
	if ((r->what & LOAD_OPS) &&
	    (each_row(r,
		      "SELECT id, nid, agent_id, queue_id, kernel_id, start, end, event_id "
		      "FROM rocpd_kernel_dispatch ORDER BY id",
		      dispatch_row) ||
	     each_row(r,
		      "SELECT id, nid, start, end, src_agent_id, dst_agent_id, queue_id, event_id "
		      "FROM rocpd_memory_copy ORDER BY id",
		      copy_row)))
		return -1;
	if (r->what & LOAD_APIS) {
		if (each_row(r,
			     "SELECT id, nid, pid, tid, start, end, name_id, event_id "
			     "FROM rocpd_region ORDER BY id",
			     region_row))
			return -1;
		link_ops(r);
	}
	return 0;
}

int rocpd_read(struct trace *t, sqlite3 *db, const char *path, int version, unsigned what,
	       struct rpd_error *err)
{
	struct reader r = { .src = { db, path, "rocpd", err }, .t = t, .what = what, .op_base = t->ops.n };
	struct idmap *maps[] = { &r.node_input,  &r.agent_row,  &r.pid,          &r.tid,
				 &r.kernel_name, &r.event_corr, &r.event_marker, &r.corr_api };
	size_t nmaps = sizeof(maps) / sizeof(maps[0]);
	for (size_t i = 0; i < nmaps; i++)
		idmap_init(maps[i]);
	strcache_init(&r.strings, "rocpd_string");
	r.first_input = trace_add_input(t, path, INPUT_ROCPD, version);
	int rc = read_all(&r);
	/* A file's ops are one run, given to its first input. */
	t->inputs[r.first_input].op_first = r.op_base;
	t->inputs[r.first_input].op_count = t->ops.n - r.op_base;
	for (size_t i = 0; i < nmaps; i++)
		idmap_free(maps[i]);
	strcache_free(&r.strings);
	free(r.agents);
	free(r.op_event);
	return rc;
}
