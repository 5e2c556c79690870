#include "config.h"
#include "load/rpd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/progress.h"
#include "load/rpd_extras.h"
#include "load/rpd_reader.h"
#include "sqlfile/dbfile.h"
#include "sqlfile/pagescan.h"
#include "sqlfile/sqlread.h"
#include "util/i18n.h"
#include "util/idmap.h"
#include "util/search.h"

static const char *const required_tables[] = {
	"rocpd_op", "rocpd_string", "rocpd_api", "rocpd_api_ops", "rocpd_metadata",
};
#define NREQUIRED (sizeof(required_tables) / sizeof(required_tables[0]))

static int read_schema_version(const struct sqlsrc *src, int *version)
{
	char v[64];
	int rc = sql_metadata(src, "schema_version", v, sizeof(v));
	if (rc < 0)
		return -1;
	if (rc > 0)
		return err_set(src->err, _("%s: rpd trace without a schema_version in rocpd_metadata"),
			       src->path);
	char *end = NULL;
	long n = strtol(v, &end, 10);
	if (end == v || *end != '\0' || (n != 2 && n != 3))
		return err_set(src->err, _("%s: unsupported rpd schema_version '%s' (supported: 2, 3)"),
			       src->path, v);
	*version = (int)n;
	return 0;
}

int rpd_detect(sqlite3 *db, const char *path, int *version, struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "rpd", err };
	int present[NREQUIRED];
	int any = 0;
	for (size_t i = 0; i < NREQUIRED; i++) {
		int rc = sql_table_exists(db, required_tables[i], &present[i]);
		if (rc != SQLITE_OK)
			return sql_fail(&src, rc);
		any |= present[i];
	}
	if (!any)
		return err_set(
			err,
			_("%s: not a trace rpdtop reads: an SQLite file with neither an rpd trace (a "
			  "rocpd_op table), a rocpd database (a rocpd_kernel_dispatch table), an Nsight "
			  "Systems export (StringIds and CUPTI_ACTIVITY_KIND_ tables) nor a rocprof "
			  "results.db (HIP beside OPS or COPY)"),
			path);
	for (size_t i = 0; i < NREQUIRED; i++)
		if (!present[i])
			return err_set(err, _("%s: rpd trace is missing the %s table"), path,
				       required_tables[i]);
	if (read_schema_version(&src, version))
		return -1;
	if (*version == 3) {
		int ustring;
		int rc = sql_table_exists(db, "rocpd_ustring", &ustring);
		if (rc != SQLITE_OK)
			return sql_fail(&src, rc);
		if (!ustring)
			return err_set(err,
				       _("%s: rpd schema_version 3 trace is missing the rocpd_ustring table"),
				       path);
	}
	return 0;
}

#define OPS_SQL "SELECT id, gpuId, queueId, start, end, description_id, opType_id FROM rocpd_op ORDER BY id"

static int read_ops(struct rpd_reader *r)
{
	sqlite3_stmt *st;
	if (sql_prepare(&r->src, OPS_SQL, &st))
		return -1;
	/* Consecutive ops usually share a queue: remember the last lane. */
	int64_t last_gpu = 0, last_queue = 0;
	uint32_t lane = TRACE_NONE;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t gpu = sqlite3_column_int64(st, 1), queue = sqlite3_column_int64(st, 2);
		uint32_t desc, type;
		if (strcache_get(&r->strings, &r->src, r->t, sqlite3_column_int64(st, 5), &desc) ||
		    strcache_get(&r->strings, &r->src, r->t, sqlite3_column_int64(st, 6), &type)) {
			sqlite3_finalize(st);
			return -1;
		}
		if (lane == TRACE_NONE || gpu != last_gpu || queue != last_queue) {
			lane = trace_queue(r->t, trace_gpu(r->t, r->input, gpu), queue);
			last_gpu = gpu;
			last_queue = queue;
		}
		progress_row();
		trace_add_op(r->t, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 3),
			     sqlite3_column_int64(st, 4), desc, type, lane);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(&r->src, rc);
}

static int read_apis(struct rpd_reader *r)
{
	sqlite3_stmt *st;
	struct strcache *args = r->version == 3 ? &r->ustrings : &r->strings;
	if (sql_prepare(&r->src,
			"SELECT id, pid, tid, start, end, apiName_id, args_id "
			"FROM rocpd_api ORDER BY id",
			&st))
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint32_t name, text = TRACE_NONE;
		if (strcache_get(&r->strings, &r->src, r->t, sqlite3_column_int64(st, 5), &name) ||
		    (name == r->marker &&
		     strcache_get(args, &r->src, r->t, sqlite3_column_int64(st, 6), &text))) {
			sqlite3_finalize(st);
			return -1;
		}
		uint32_t thread = trace_thread(r->t, r->input, sqlite3_column_int64(st, 1),
					       sqlite3_column_int64(st, 2));
		progress_row();
		trace_add_api(r->t, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 3),
			      sqlite3_column_int64(st, 4), name, text, thread);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(&r->src, rc);
}

static int read_links(struct rpd_reader *r)
{
	sqlite3_stmt *st;
	if (sql_prepare(&r->src, "SELECT api_id, op_id FROM rocpd_api_ops", &st))
		return -1;
	const struct trace *t = r->t;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint32_t api = trace_api_find(t, r->api_base, t->apis.n, sqlite3_column_int64(st, 0));
		uint32_t op = trace_op_row(t, r->input, sqlite3_column_int64(st, 1));
		/* Links to rows that are not there are dropped, not invented. */
		if (api != TRACE_NONE && op != TRACE_NONE)
			trace_add_link(r->t, api, op);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(&r->src, rc);
}

/* The graphs of the graph launch calls the page reader met: each args id
 * is looked up once (replays of one graph share it). */
static void name_graphs(struct rpd_reader *r)
{
	struct trace *t = r->t;
	const struct raw_rows *x = &r->graph_args;
	struct idmap exec;
	idmap_init(&exec);
	sqlite3_stmt *st = NULL;
	char *sql = sqlite3_mprintf("SELECT string FROM %w WHERE id = ?",
				    r->version == 3 ? "rocpd_ustring" : "rocpd_string");
	for (size_t j = 0; j < x->n; j++) {
		uint32_t id;
		if (!idmap_get(&exec, (uint64_t)x->raw[j], &id)) {
			if (!st && (!sql || sqlite3_prepare_v2(r->src.db, sql, -1, &st, NULL) != SQLITE_OK))
				break;
			sqlite3_bind_int64(st, 1, x->raw[j]);
			char text[128];
			id = sqlite3_step(st) == SQLITE_ROW &&
					     trace_graph_exec_arg((const char *)sqlite3_column_text(st, 0),
								  text, sizeof(text))
				     ? strtab_intern(&t->strings, text)
				     : TRACE_NONE;
			sqlite3_reset(st);
			idmap_put(&exec, (uint64_t)x->raw[j], id);
		}
		if (id != TRACE_NONE)
			trace_add_graph(t, x->row[j], id);
	}
	sqlite3_finalize(st);
	sqlite3_free(sql);
	idmap_free(&exec);
}

/* The graph each graph launch call replayed, from its args: looked up by
 * id for those calls alone (other calls' args are never read). A file
 * whose tables are not as expected names no graphs: never an error. */
static void read_graphs(struct rpd_reader *r)
{
	if (r->graph_args_read) {
		name_graphs(r);
		return;
	}
	struct trace *t = r->t;
	struct graph_calls g;
	graph_calls_begin(&g, t);
	sqlite3_stmt *st = NULL;
	char *sql = sqlite3_mprintf("SELECT s.string FROM rocpd_api a JOIN %w s ON s.id = a.args_id "
				    "WHERE a.id = ?",
				    r->version == 3 ? "rocpd_ustring" : "rocpd_string");
	for (size_t i = r->api_base; i < t->apis.n; i++) {
		if (!graph_calls_named(&g, t, trace_api_name(t, i)))
			continue;
		if (!st && (!sql || sqlite3_prepare_v2(r->src.db, sql, -1, &st, NULL) != SQLITE_OK))
			break;
		sqlite3_bind_int64(st, 1, trace_api_id(t, i));
		char exec[128];
		if (sqlite3_step(st) == SQLITE_ROW &&
		    trace_graph_exec_arg((const char *)sqlite3_column_text(st, 0), exec, sizeof(exec)))
			trace_add_graph(t, (uint32_t)i, strtab_intern(&t->strings, exec));
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_free(sql);
	graph_calls_free(&g);
}

/* Each table through its pages when the file allows, else through SQL. */
static int read_table(struct rpd_reader *r, enum fastpath (*pages)(struct rpd_reader *),
		      int (*sql)(struct rpd_reader *))
{
	enum fastpath rc = pages(r);
	return rc == FAST_DECLINED ? sql(r) : rc == FAST_DONE ? 0 : -1;
}

/* Does the file hold an op? A file of none is read as before, so that it
 * still says it has no GPU ops. */
static int has_ops(struct rpd_reader *r)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(r->src.db, "SELECT 1 FROM rocpd_op LIMIT 1", -1, &st, NULL) != SQLITE_OK)
		return 0;
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW;
}

static int read_all(struct rpd_reader *r, unsigned what)
{
	/* Only the text of markers is ever shown or matched among the args:
	 * other calls' args (nearly every row of the string table) are not read. */
	r->marker = strtab_intern(&r->t->strings, "UserMarker");
	struct trace_input *in = &r->t->inputs[r->input];
	/* No op is read after: neither the ops nor the links to them are. */
	if ((what & LOAD_OPS) && (what & LOAD_OPS_UNUSED) && has_ops(r)) {
		in->ops_left_out = 1;
		in->op_first = r->op_base;
		in->op_count = 0;
		what &= ~(unsigned)LOAD_OPS;
	}
	if ((what & LOAD_OPS) && read_table(r, rpd_pages_ops, read_ops))
		return -1;
	if (what & LOAD_OPS) {
		r->op_end = r->t->ops.n;
		in->op_first = r->op_base;
		in->op_count = r->op_end - r->op_base;
	}
	if (!(what & LOAD_APIS))
		return 0;
	if (what & LOAD_NO_CALLS) {
		in->api_first = r->api_base;
		in->api_count = 0;
		rpd_read_monitor(r->t, r->src.db, r->input);
		return 0;
	}
	size_t link_first = r->t->links.n;
	enum fastpath rc = (what & LOAD_LAUNCHES) ? rpd_pages_launches(r) : FAST_DECLINED;
	if (rc == FAST_FAILED)
		return -1;
	if (rc == FAST_DECLINED && read_table(r, rpd_pages_apis, read_apis))
		return -1;
	in->api_first = r->api_base;
	in->api_count = r->t->apis.n - r->api_base;
	in->launches_only = rc == FAST_DONE;
	/* The markers alone launch nothing. */
	if (rc == FAST_DECLINED && !(what & LOAD_MARKERS_ONLY) && !in->ops_left_out &&
	    read_table(r, rpd_pages_links, read_links))
		return -1;
	/* Every call is read: they are put in order while the rest is (the
	 * links first, on every core). */
	if (rc == FAST_DECLINED && r->order)
		r->sorting = api_order_start(r->t);
	read_graphs(r);
	if (!(what & LOAD_LAUNCHES)) {
		rpd_read_monitor(r->t, r->src.db, r->input);
		rpd_read_copies(r->t, r->src.db, r->api_base, link_first);
	}
	return 0;
}

int rpd_read(struct trace *t, sqlite3 *db, uint32_t input, unsigned what, int threads, struct rpd_error *err)
{
	return rpd_read_ordered(t, db, input, what, threads, NULL, err);
}

int rpd_read_ordered(struct trace *t, sqlite3 *db, uint32_t input, unsigned what, int threads,
		     struct api_order_job **sorting, struct rpd_error *err)
{
	struct rpd_reader r = {
		.src = { db, t->inputs[input].path, "rpd", err },
		.t = t,
		.input = input,
		.version = t->inputs[input].schema_version,
		.threads = threads,
		.op_base = t->ops.n,
		.op_end = t->ops.n,
		.api_base = t->apis.n,
		.order = sorting && t->ninputs == 1,
		.keep = (what & LOAD_NO_MARKERS)     ? KEEP_NO_MARKERS
			: (what & LOAD_MARKERS_ONLY) ? KEEP_MARKERS_ONLY
						     : KEEP_EVERY_CALL,
	};
	/* API rows read later than the ops link to this input's run of ops. */
	if (!(what & LOAD_OPS)) {
		r.op_base = t->inputs[input].op_first;
		r.op_end = r.op_base + t->inputs[input].op_count;
	}
	strcache_init(&r.strings, "rocpd_string");
	strcache_init(&r.ustrings, "rocpd_ustring");
	int rc = read_all(&r, what);
	raw_rows_free(&r.graph_args);
	if (rc)
		api_order_cancel(&r.sorting);
	if (sorting)
		*sorting = r.sorting;
	strcache_free(&r.strings);
	strcache_free(&r.ustrings);
	return rc;
}

int rpd_span(sqlite3 *db, const char *path, struct op_span *out, struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "rpd", err };
	sqlite3_stmt *st;
	/* The ops' columns are there as the load reads them. */
	if (sql_prepare(&src, OPS_SQL, &st))
		return -1;
	sqlite3_finalize(st);
	if (sql_prepare(&src, "SELECT start, end FROM rocpd_op", &st))
		return -1;
	int rc;
	memset(out, 0, sizeof(*out));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		op_span_add(out, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(&src, rc);
}
