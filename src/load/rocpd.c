/* rocpd keeps GPU work in rocpd_kernel_dispatch and rocpd_memory_copy,
 * CPU calls in rocpd_region (with a duration) and rocpd_sample (without:
 * roctx marks), and who-is-who in rocpd_info_* tables; rows point at info
 * rows by id (real files use the OS pid and tid as those ids). Every row
 * has an event; an op and the call that launched it share the event's
 * stack_id, the tracer's own correlation id (correlation_id is the user's
 * external one, 0 unless kernels are renamed). roctx ranges are regions
 * named roctxThreadRangeA or roctxProcessRangeA whose text is the event's
 * {"message": ...}. Each process of a file is read from its own tables
 * with its own id maps: ids repeat across the processes of a merged file. */
#include "config.h"
#include "load/rocpd.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/progress.h"
#include "load/rocpd_text.h"
#include "load/strcache.h"
#include "util/i18n.h"
#include "util/idmap.h"
#include "util/xalloc.h"

enum agent_kind { AGENT_CPU, AGENT_GPU, AGENT_OTHER };

struct agent {
	enum agent_kind kind;
	int64_t index; /* a GPU's index among the node's GPUs */
};

/* The op rows read for one process and their launchers' ids. */
struct op_link {
	uint32_t row;
	int64_t key; /* stack id (or correlation id), 0 for none */
};

struct reader {
	struct sqlsrc src;
	struct trace *t;
	const struct rocpd_part *p;
	unsigned what;
	char strings_table[256];
	struct strcache strings;
	struct rocpd_text text; /* roctx messages out of events' extdata */
	uint32_t first_input;
	struct idmap node_input; /* rocpd_info_node.id -> trace input */
	struct idmap agent_row;  /* rocpd_info_agent.id -> agents[] */
	struct agent *agents;
	size_t nagents, agents_cap;
	struct idmap pid, tid;    /* info row id -> OS pid / tid */
	struct idmap kernel_name; /* rocpd_info_kernel_symbol.id -> string */
	struct idmap queue_name;  /* rocpd_info_queue.id -> string */
	struct idmap stream_name; /* rocpd_info_stream.id -> string */
	struct idmap *names;      /* one of the two, being read */
	struct idmap launcher;    /* stack (or correlation) id -> API row */
	int by_correlation;       /* written before stack ids were: link by correlation id */
	struct op_link *links;
	size_t nlinks, links_cap;
	uint32_t marker;
	struct op_span *span; /* the ops' span alone (rocpd_span) */
};

static const char *part_table(const struct reader *r, const char *base, char *buf, size_t size)
{
	return rocpd_table(r->p, base, buf, size);
}

/* Run the query (built with sqlite3_mprintf, freed here) and hand each row
 * to fn; stops at the first error. */
static int each_row(struct reader *r, char *sql, int (*fn)(struct reader *, sqlite3_stmt *))
{
	sqlite3_stmt *st;
	int prep = sql_prepare(&r->src, sql, &st);
	sqlite3_free(sql);
	if (prep)
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

static const char *column_text(sqlite3_stmt *st, int col, size_t *n)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	*n = s ? (size_t)sqlite3_column_bytes(st, col) : 0;
	return s ? s : "";
}

/* The process's node is the input (a node more, from files rpdtop wrote
 * with several, is another input of the same path). */
static int node_row(struct reader *r, sqlite3_stmt *st)
{
	size_t n;
	const char *host = column_text(st, 1, &n), *machine = column_text(st, 2, &n);
	uint32_t input = r->first_input;
	if (r->node_input.count > 0) {
		input = trace_add_input(r->t, r->src.path, INPUT_ROCPD,
					r->t->inputs[r->first_input].schema_version);
		trace_input_set_uuid(r->t, input, r->p->suffix, r->p->guid);
	}
	trace_input_set_node(r->t, input, *host ? host : machine);
	idmap_put(&r->node_input, (uint64_t)sqlite3_column_int64(st, 0), input);
	return 0;
}

static int agent_row(struct reader *r, sqlite3_stmt *st)
{
	size_t n;
	const char *type = column_text(st, 1, &n);
	struct agent a = { .kind = strcmp(type, "GPU") == 0   ? AGENT_GPU
				   : strcmp(type, "CPU") == 0 ? AGENT_CPU
							      : AGENT_OTHER };
	/* The GPU's index among the node's GPUs is what rpd calls gpuId. */
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

/* A kernel's symbol name without the descriptor's ".kd"; an empty one
 * (the writer keeps '' rather than NULL) gives way to the display name. */
static int kernel_row(struct reader *r, sqlite3_stmt *st)
{
	size_t n;
	const char *s = column_text(st, 1, &n);
	if (n == 0)
		s = column_text(st, 2, &n);
	if (n > 3 && strcmp(s + n - 3, ".kd") == 0)
		n -= 3;
	idmap_put(&r->kernel_name, (uint64_t)sqlite3_column_int64(st, 0),
		  strtab_intern_len(&r->t->strings, s, n));
	return 0;
}

/* id, name of a queue or a stream, into r->names. */
static int name_row(struct reader *r, sqlite3_stmt *st)
{
	size_t n;
	const char *s = column_text(st, 1, &n);
	if (n)
		idmap_put(r->names, (uint64_t)sqlite3_column_int64(st, 0),
			  strtab_intern_len(&r->t->strings, s, n));
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

/* The id an op's launcher is found by: the event's stack id, or for
 * files written before stack ids were, its correlation id. */
static int64_t link_key(const struct reader *r, sqlite3_stmt *st, int stack_col)
{
	int col = r->by_correlation ? stack_col + 1 : stack_col;
	return sqlite3_column_type(st, col) == SQLITE_NULL ? 0 : sqlite3_column_int64(st, col);
}

static void remember_link(struct reader *r, uint32_t row, int64_t key)
{
	if (key == 0)
		return;
	r->links = xgrow(r->links, &r->links_cap, r->nlinks + 1, sizeof(*r->links));
	r->links[r->nlinks++] = (struct op_link){ row, key };
}

/* A queue lane named from rocpd_info_queue (handles are no names), or for
 * work without a queue (copies) a lane per stream, numbered apart. */
static uint32_t lane(struct reader *r, uint32_t gpu, sqlite3_stmt *st, int queue_col, int stream_col)
{
	int by_queue = sqlite3_column_type(st, queue_col) != SQLITE_NULL;
	int64_t id = sqlite3_column_int64(st, by_queue ? queue_col : stream_col);
	int64_t key = by_queue ? id : -2 - id;
	uint32_t q = trace_queue(r->t, gpu, key), name;
	if (r->t->queues[q].name == TRACE_NONE &&
	    idmap_get(by_queue ? &r->queue_name : &r->stream_name, (uint64_t)id, &name))
		trace_queue_set_name(r->t, q, name);
	return q;
}

/* id, nid, agent_id, queue_id, kernel_id, start, end, stream_id, stack, corr */
static int dispatch_row(struct reader *r, sqlite3_stmt *st)
{
	const struct agent *a = agent_of(r, st, 2);
	uint32_t name;
	if (!idmap_get(&r->kernel_name, (uint64_t)sqlite3_column_int64(st, 4), &name))
		name = strtab_intern(&r->t->strings, "[unknown kernel]");
	uint32_t gpu = trace_gpu(r->t, input_of(r, st, 1), a ? a->index : -1);
	progress_row();
	uint32_t row = trace_add_op(r->t, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 5),
				    sqlite3_column_int64(st, 6), name,
				    strtab_intern(&r->t->strings, "KernelExecution"), lane(r, gpu, st, 3, 7));
	remember_link(r, row, link_key(r, st, 8));
	return 0;
}

/* CopyHostToHost is the name of host copies only (copy_row): an
 * operation saying so beside a GPU agent is named by the agents. */
const char *rocpd_copy_type(const char *op, int from_gpu, int to_gpu)
{
	static const struct {
		const char *op, *type;
	} names[] = {
		{ "MEMORY_COPY_HOST_TO_DEVICE", "CopyHostToDevice" },
		{ "MEMORY_COPY_DEVICE_TO_HOST", "CopyDeviceToHost" },
		{ "MEMORY_COPY_DEVICE_TO_DEVICE", "CopyDeviceToDevice" },
		{ "MEMORY_COPY_HOST_TO_HOST", "CopyHostToHost" },
		{ "MEMORY_COPY_PEER_TO_PEER", "CopyPeerToPeer" },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(op, names[i].op) == 0 && strcmp(names[i].type, TRACE_HOST_COPY_NAME) != 0)
			return names[i].type;
	if (from_gpu && to_gpu)
		return "CopyDeviceToDevice";
	return to_gpu ? "CopyHostToDevice" : "CopyDeviceToHost";
}

/* id, nid, start, end, src_agent_id, dst_agent_id, queue_id, stream_id,
 * stack, corr, name_id. A copy between agents that are no GPUs
 * (MEMORY_COPY_HOST_TO_HOST) is no GPU's work: not a GPU op but a host
 * copy, named CopyHostToHost whatever its operation says (its API call
 * stays a call). */
static int copy_row(struct reader *r, sqlite3_stmt *st)
{
	const struct agent *src = agent_of(r, st, 4), *dst = agent_of(r, st, 5);
	int from_gpu = src && src->kind == AGENT_GPU, to_gpu = dst && dst->kind == AGENT_GPU;
	if (!from_gpu && !to_gpu) {
		progress_row();
		trace_add_host_copy(r->t, input_of(r, st, 1), sqlite3_column_int64(st, 2),
				    sqlite3_column_int64(st, 3),
				    strtab_intern(&r->t->strings, TRACE_HOST_COPY_NAME));
		return 0;
	}
	uint32_t op = TRACE_NONE;
	if (sqlite3_column_type(st, 10) != SQLITE_NULL &&
	    strcache_get(&r->strings, &r->src, r->t, sqlite3_column_int64(st, 10), &op))
		return -1;
	const char *type = rocpd_copy_type(op == TRACE_NONE ? "" : trace_str(r->t, op), from_gpu, to_gpu);
	uint32_t gpu = trace_gpu(r->t, input_of(r, st, 1), to_gpu ? dst->index : src->index);
	progress_row();
	uint32_t row = trace_add_op(r->t, ROCPD_COPY_ID_BASE + sqlite3_column_int64(st, 0),
				    sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3), 0,
				    strtab_intern(&r->t->strings, type), lane(r, gpu, st, 6, 7));
	remember_link(r, row, link_key(r, st, 8));
	return 0;
}

/* A roctx range or mark: its category says so (MARKER_CORE_API, ...), and
 * its text is the event's message; the call's own name when it has none
 * (as in files rpdtop wrote before). */
static int add_call(struct reader *r, sqlite3_stmt *st, int64_t id, int64_t start, int64_t end, uint32_t name,
		    int marker)
{
	uint32_t pid = 0, tid = 0, text = TRACE_NONE;
	idmap_get(&r->pid, (uint64_t)sqlite3_column_int64(st, 2), &pid);
	idmap_get(&r->tid, (uint64_t)sqlite3_column_int64(st, 3), &tid);
	if (marker && rocpd_text_message(&r->text, st, 9, r->t, &text))
		return -1;
	uint32_t thread = trace_thread(r->t, input_of(r, st, 1), pid, tid);
	progress_row();
	uint32_t row = trace_add_api(r->t, id, start, end, marker ? r->marker : name,
				     marker ? (text != TRACE_NONE ? text : name) : TRACE_NONE, thread);
	int64_t key = link_key(r, st, 7);
	if (key && !marker)
		idmap_put(&r->launcher, (uint64_t)key, row);
	return 0;
}

/* id, nid, pid, tid, start, end, name_id, stack, corr, extdata, marker */
static int region_row(struct reader *r, sqlite3_stmt *st)
{
	uint32_t name;
	if (strcache_get(&r->strings, &r->src, r->t, sqlite3_column_int64(st, 6), &name))
		return -1;
	return add_call(r, st, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 4),
			sqlite3_column_int64(st, 5), name, sqlite3_column_int(st, 10));
}

/* id, nid, pid, tid, timestamp, -, track name_id, stack, corr, extdata,
 * marker: a call without a duration, named by its track (the category:
 * the call's own name is not kept). */
static int sample_row(struct reader *r, sqlite3_stmt *st)
{
	uint32_t name = strtab_intern(&r->t->strings, "[sample]");
	if (sqlite3_column_type(st, 6) != SQLITE_NULL &&
	    strcache_get(&r->strings, &r->src, r->t, sqlite3_column_int64(st, 6), &name))
		return -1;
	int64_t at = sqlite3_column_int64(st, 4);
	return add_call(r, st, ROCPD_SAMPLE_ID_BASE + sqlite3_column_int64(st, 0), at, at, name,
			sqlite3_column_int(st, 10));
}

/* The launcher keys of the ops of a trace read before (the API rows of a
 * side trace), found by their ids. */
static int op_key_row(struct reader *r, sqlite3_stmt *st)
{
	int64_t id = sqlite3_column_int64(st, 0) + sqlite3_column_int64(st, 1);
	uint32_t row = trace_op_row(r->t, r->first_input, id);
	if (row != TRACE_NONE)
		remember_link(r, row, link_key(r, st, 2));
	return 0;
}

/* Does the process have this table (samples and tracks, queue and stream
 * names: not every writer made them)? */
static int has_table(struct reader *r, const char *base, int *exists)
{
	char name[256];
	int rc = sql_table_exists(r->src.db, part_table(r, base, name, sizeof(name)), exists);
	return rc == SQLITE_OK ? 0 : sql_fail(&r->src, rc);
}

/* Run a query on the process's tables: their names are written as
 * "rocpd_region%w", the suffix (from the input) an argument (S). */
static int query(struct reader *r, int (*fn)(struct reader *, sqlite3_stmt *), const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *sql = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	return each_row(r, sql, fn);
}

#define S (r->p->suffix)

static int read_info(struct reader *r)
{
	int queues, streams;
	if (has_table(r, "rocpd_info_queue", &queues) || has_table(r, "rocpd_info_stream", &streams))
		return -1;
	if (query(r, node_row, "SELECT id, hostname, machine_id FROM \"rocpd_info_node%w\" ORDER BY id", S) ||
	    query(r, agent_row, "SELECT id, type, type_index, logical_index FROM \"rocpd_info_agent%w\"",
		  S) ||
	    query(r, kernel_row, "SELECT id, kernel_name, display_name FROM \"rocpd_info_kernel_symbol%w\"",
		  S) ||
	    query(r, pid_row, "SELECT id, pid FROM \"rocpd_info_process%w\"", S) ||
	    query(r, tid_row, "SELECT id, tid FROM \"rocpd_info_thread%w\"", S))
		return -1;
	r->names = &r->queue_name;
	if (queues && query(r, name_row, "SELECT id, name FROM \"rocpd_info_queue%w\"", S))
		return -1;
	r->names = &r->stream_name;
	if (streams && query(r, name_row, "SELECT id, name FROM \"rocpd_info_stream%w\"", S))
		return -1;
	return 0;
}

static int any_row(struct reader *r, sqlite3_stmt *st)
{
	(void)st;
	r->by_correlation = 0;
	return 0;
}

/* Files rpdtop wrote before stack ids were kept link by correlation id. */
static int choose_links(struct reader *r)
{
	r->by_correlation = 1;
	return query(r, any_row, "SELECT 1 FROM \"rocpd_event%w\" WHERE stack_id <> 0 LIMIT 1", S);
}

#define KERNELS_SQL                                                                                          \
	"SELECT K.id, K.nid, K.agent_id, K.queue_id, K.kernel_id, K.start, K.end, K.stream_id, "             \
	"E.stack_id, E.correlation_id FROM \"rocpd_kernel_dispatch%w\" K "                                   \
	"LEFT JOIN \"rocpd_event%w\" E ON E.id = K.event_id ORDER BY K.id"
#define COPIES_SQL                                                                                           \
	"SELECT M.id, M.nid, M.start, M.end, M.src_agent_id, M.dst_agent_id, M.queue_id, M.stream_id, "      \
	"E.stack_id, E.correlation_id, M.name_id FROM \"rocpd_memory_copy%w\" M "                            \
	"LEFT JOIN \"rocpd_event%w\" E ON E.id = M.event_id ORDER BY M.id"

static int read_ops(struct reader *r)
{
	return query(r, dispatch_row, KERNELS_SQL, S, S) || query(r, copy_row, COPIES_SQL, S, S);
}

/* The launchers of ops read before, for the API rows read now. */
static int read_op_keys(struct reader *r)
{
	return query(r, op_key_row,
		     "SELECT K.id, 0, E.stack_id, E.correlation_id FROM \"rocpd_kernel_dispatch%w\" K "
		     "LEFT JOIN \"rocpd_event%w\" E ON E.id = K.event_id",
		     S, S) ||
	       query(r, op_key_row,
		     "SELECT M.id, %lld, E.stack_id, E.correlation_id FROM \"rocpd_memory_copy%w\" M "
		     "LEFT JOIN \"rocpd_event%w\" E ON E.id = M.event_id",
		     (long long)ROCPD_COPY_ID_BASE, S, S);
}

/* A roctx call, by its event's category or its own name. */
#define MARKER                                                                                               \
	"(C.string LIKE 'MARKER%%' OR N.string IN ('roctxThreadRangeA', 'roctxProcessRangeA', "              \
	"'roctxMarkA'))"

/* Regions, then samples on a thread's track (calls without a duration);
 * the message column as the layout stores it, for markers only. */
static int read_calls(struct reader *r)
{
	const char *text = rocpd_text_column(r->p->layout == ROCPD_LAYOUT_LZ4);
	int samples, tracks;
	if (query(r, region_row,
		  "SELECT R.id, R.nid, R.pid, R.tid, R.start, R.end, R.name_id, E.stack_id, "
		  "E.correlation_id, "
		  "CASE WHEN " MARKER " THEN %s END, coalesce(" MARKER ", 0) FROM \"rocpd_region%w\" R "
		  "LEFT JOIN \"rocpd_event%w\" E ON E.id = R.event_id "
		  "LEFT JOIN \"rocpd_string%w\" C ON C.id = E.category_id "
		  "LEFT JOIN \"rocpd_string%w\" N ON N.id = R.name_id ORDER BY R.id",
		  text, S, S, S, S))
		return -1;
	if (has_table(r, "rocpd_sample", &samples) || has_table(r, "rocpd_track", &tracks))
		return -1;
	return samples && tracks &&
	       query(r, sample_row,
		     "SELECT SA.id, TR.nid, TR.pid, TR.tid, SA.timestamp, NULL, TR.name_id, E.stack_id, "
		     "E.correlation_id, CASE WHEN " MARKER " THEN %s END, coalesce(" MARKER ", 0) "
		     "FROM \"rocpd_sample%w\" SA JOIN \"rocpd_track%w\" TR ON TR.id = SA.track_id "
		     "LEFT JOIN \"rocpd_event%w\" E ON E.id = SA.event_id "
		     "LEFT JOIN \"rocpd_string%w\" C ON C.id = E.category_id "
		     "LEFT JOIN \"rocpd_string%w\" N ON N.id = TR.name_id WHERE TR.tid IS NOT NULL ORDER BY "
		     "SA.id",
		     text, S, S, S, S, S);
}

/* nid, agent_id, start, end, counter name, units, value: a PMC value of
 * a kernel dispatch holds over the dispatch, on the dispatch's GPU; a
 * sampled one (end NULL) from its time until the next. */
static int pmc_row(void *ctx, sqlite3_stmt *st)
{
	struct reader *r = ctx;
	int sampled = sqlite3_column_type(st, 3) == SQLITE_NULL;
	const struct agent *a = agent_of(r, st, 1);
	size_t n, nu;
	const char *name = column_text(st, 4, &n), *unit = column_text(st, 5, &nu);
	if (!a || a->kind != AGENT_GPU || n == 0 || sqlite3_column_type(st, 6) == SQLITE_NULL)
		return 0;
	struct trace *t = r->t;
	uint32_t s =
		trace_counter_series(t, input_of(r, st, 0), a->index, strtab_intern_len(&t->strings, name, n),
				     nu ? strtab_intern_len(&t->strings, unit, nu) : TRACE_NONE,
				     sampled ? COUNTER_SAMPLED : COUNTER_PMC);
	int64_t start = sqlite3_column_int64(st, 2);
	trace_add_counter(t, s, start, sampled ? start : sqlite3_column_int64(st, 3),
			  sqlite3_column_double(st, 6));
	return 0;
}

/* "GPU 1", "CPU 0": an agent of a copy, by kind and index. */
static uint32_t agent_text(struct reader *r, sqlite3_stmt *st, int col)
{
	const struct agent *a = agent_of(r, st, col);
	if (!a)
		return TRACE_NONE;
	char buf[64];
	snprintf(buf, sizeof(buf), "%s %lld",
		 a->kind == AGENT_GPU   ? "GPU"
		 : a->kind == AGENT_CPU ? "CPU"
					: "agent",
		 (long long)a->index);
	return strtab_intern(&r->t->strings, buf);
}

/* id, size, src_agent_id, dst_agent_id */
static int copy_size_row(void *ctx, sqlite3_stmt *st)
{
	struct reader *r = ctx;
	uint32_t op = trace_op_row(r->t, r->first_input, ROCPD_COPY_ID_BASE + sqlite3_column_int64(st, 0));
	if (op != TRACE_NONE && sqlite3_column_type(st, 1) == SQLITE_INTEGER)
		trace_add_copy(r->t, op, sqlite3_column_int64(st, 1), agent_text(r, st, 2),
			       agent_text(r, st, 3));
	return 0;
}

/* Counters and copies' sizes: tables a file may lack or have otherwise;
 * then it has none of them, and is read all the same. A dispatch's value
 * of a counter is the sum of its rows (one per instance or dimension), as
 * rocpd's counters_collection view sums them; so is a sample's. */
static void read_extras(struct reader *r)
{
	struct trace_counters *c = &r->t->counters;
	size_t n = c->n, nseries = c->nseries, ncopies = r->t->copies.n;
	int samples = 0;
	if (sql_each_optional(
		    r->src.db,
		    sqlite3_mprintf("SELECT K.nid, K.agent_id, K.start, K.end, I.name, max(I.units), "
				    "sum(P.value) FROM \"rocpd_pmc_event%w\" P "
				    "JOIN \"rocpd_info_pmc%w\" I ON I.id = P.pmc_id "
				    "JOIN \"rocpd_kernel_dispatch%w\" K ON K.event_id = P.event_id "
				    "GROUP BY K.id, I.name ORDER BY min(P.id)",
				    S, S, S),
		    pmc_row, r) ||
	    has_table(r, "rocpd_sample", &samples) ||
	    (samples &&
	     sql_each_optional(
		     r->src.db,
		     sqlite3_mprintf("SELECT I.nid, I.agent_id, SA.timestamp, NULL, I.name, max(I.units), "
				     "sum(P.value) FROM \"rocpd_pmc_event%w\" P "
				     "JOIN \"rocpd_info_pmc%w\" I ON I.id = P.pmc_id "
				     "JOIN \"rocpd_sample%w\" SA ON SA.event_id = P.event_id "
				     "GROUP BY SA.id, I.name ORDER BY min(P.id)",
				     S, S, S),
		     pmc_row, r))) {
		c->n = n;
		c->nseries = nseries;
	}
	trace_counters_hold(c, n);
	if (sql_each_optional(r->src.db,
			      sqlite3_mprintf("SELECT id, size, src_agent_id, dst_agent_id "
					      "FROM \"rocpd_memory_copy%w\" ORDER BY id",
					      S),
			      copy_size_row, r))
		r->t->copies.n = ncopies;
}

/* stack id, correlation id, graph_exec_id: the call that launched a
 * graph's dispatch replayed graph graph_exec_id (rocpd 3.0.2 and later;
 * older files have no such column, and so no graphs but by name). */
static int graph_row(void *ctx, sqlite3_stmt *st)
{
	struct reader *r = ctx;
	const struct trace_graphs *g = &r->t->graphs;
	int64_t key = link_key(r, st, 0);
	uint32_t api;
	if (key == 0 || sqlite3_column_type(st, 2) == SQLITE_NULL ||
	    !idmap_get(&r->launcher, (uint64_t)key, &api) || (g->n && g->api[g->n - 1] == api))
		return 0;
	char id[32];
	snprintf(id, sizeof(id), "%lld", (long long)sqlite3_column_int64(st, 2));
	trace_add_graph(r->t, api, strtab_intern(&r->t->strings, id));
	return 0;
}

static void read_graphs(struct reader *r)
{
	size_t n = r->t->graphs.n;
	if (sql_each_optional(r->src.db,
			      sqlite3_mprintf("SELECT E.stack_id, E.correlation_id, K.graph_exec_id "
					      "FROM \"rocpd_kernel_dispatch%w\" K "
					      "JOIN \"rocpd_event%w\" E ON E.id = K.event_id "
					      "WHERE K.graph_exec_id <> 0 ORDER BY K.id",
					      S, S),
			      graph_row, r))
		r->t->graphs.n = n;
}

static void add_links(struct reader *r)
{
	for (size_t i = 0; i < r->nlinks; i++) {
		uint32_t api;
		if (idmap_get(&r->launcher, (uint64_t)r->links[i].key, &api))
			trace_add_link(r->t, api, r->links[i].row);
	}
}

/* With the ops read before (a side trace), the process's input is there. */
static uint32_t find_input(const struct trace *t, const char *path, const char *suffix)
{
	for (size_t i = 0; i < t->ninputs; i++)
		if (t->inputs[i].format == INPUT_ROCPD && strcmp(t->inputs[i].path, path) == 0 &&
		    t->inputs[i].uuid && strcmp(t->inputs[i].uuid, suffix) == 0)
			return (uint32_t)i;
	return TRACE_NONE;
}

static int read_part(struct reader *r)
{
	size_t op_base = r->t->ops.n, api_base = r->t->apis.n;
	int rc = read_info(r) || choose_links(r);
	if (rc == 0 && (r->what & LOAD_OPS))
		rc = read_ops(r);
	/* A process's rows are one run, given to its first input: its ops'
	 * before the calls are read, whose extras (copies' sizes) find the
	 * ops by it. */
	struct trace_input *in = &r->t->inputs[r->first_input];
	if (r->what & LOAD_OPS) {
		in->op_first = op_base;
		in->op_count = r->t->ops.n - op_base;
	}
	if (rc == 0 && (r->what & LOAD_APIS)) {
		rc = read_calls(r);
		if (rc == 0 && !(r->what & LOAD_OPS))
			rc = read_op_keys(r);
		if (rc == 0)
			add_links(r);
		if (rc == 0)
			read_graphs(r);
		if (rc == 0)
			read_extras(r);
	}
	if (r->what & LOAD_APIS) {
		in->api_first = api_base;
		in->api_count = r->t->apis.n - api_base;
	}
	return rc ? -1 : 0;
}

static void reader_free(struct reader *r)
{
	struct idmap *maps[] = { &r->node_input,  &r->agent_row,  &r->pid,         &r->tid,
				 &r->kernel_name, &r->queue_name, &r->stream_name, &r->launcher };
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		idmap_free(maps[i]);
	strcache_free(&r->strings);
	rocpd_text_free(&r->text);
	free(r->agents);
	free(r->links);
}

static void reader_init(struct reader *r, struct trace *t, sqlite3 *db, const char *path,
			const struct rocpd_part *p, unsigned what, struct rpd_error *err)
{
	*r = (struct reader){ .src = { db, path, "rocpd", err }, .t = t, .p = p, .what = what };
	struct idmap *maps[] = { &r->node_input,  &r->agent_row,  &r->pid,         &r->tid,
				 &r->kernel_name, &r->queue_name, &r->stream_name, &r->launcher };
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		idmap_init(maps[i]);
	strcache_init(&r->strings,
		      rocpd_table(p, "rocpd_string", r->strings_table, sizeof(r->strings_table)));
	rocpd_text_init(&r->text, &r->src, p->layout == ROCPD_LAYOUT_LZ4);
	r->marker = strtab_intern(&t->strings, TRACE_MARKER_NAME);
}

static int read_one(struct trace *t, sqlite3 *db, const char *path, const struct rocpd_part *p, unsigned what,
		    struct rpd_error *err)
{
	struct reader r;
	reader_init(&r, t, db, path, p, what, err);
	if (what & LOAD_OPS) {
		r.first_input = trace_add_input(t, path, INPUT_ROCPD, atoi(p->version));
		trace_input_set_uuid(t, r.first_input, p->suffix, p->guid);
	} else {
		r.first_input = find_input(t, path, p->suffix);
	}
	int rc = r.first_input == TRACE_NONE ? 0 : read_part(&r);
	reader_free(&r);
	return rc;
}

int rocpd_read(struct trace *t, sqlite3 *db, const char *path, const struct rocpd_file *f, unsigned what,
	       struct rpd_error *err)
{
	for (size_t i = 0; i < f->n; i++)
		if (read_one(t, db, path, &f->parts[i], what, err))
			return -1;
	return 0;
}

/* start, end */
static int kernel_span_row(struct reader *r, sqlite3_stmt *st)
{
	op_span_add(r->span, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1));
	return 0;
}

/* start, end, src_agent_id, dst_agent_id: a copy is an op when a GPU took
 * part in it (copy_row). */
static int copy_span_row(struct reader *r, sqlite3_stmt *st)
{
	const struct agent *src = agent_of(r, st, 2), *dst = agent_of(r, st, 3);
	if ((src && src->kind == AGENT_GPU) || (dst && dst->kind == AGENT_GPU))
		op_span_add(r->span, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1));
	return 0;
}

/* Would the ops' queries run? Prepared as reading them prepares them. */
static int ops_readable(struct reader *r)
{
	const char *const sql[] = { KERNELS_SQL, COPIES_SQL };
	for (size_t k = 0; k < sizeof(sql) / sizeof(sql[0]); k++) {
		sqlite3_stmt *st;
		char *text = sqlite3_mprintf(sql[k], S, S);
		int rc = sql_prepare(&r->src, text, &st);
		sqlite3_free(text);
		if (rc)
			return -1;
		sqlite3_finalize(st);
	}
	return 0;
}

/* A process's info and what the ops are read with, checked as reading
 * them checks it; then their span alone. */
static int span_part(struct reader *r)
{
	return read_info(r) || choose_links(r) || ops_readable(r) ||
	       query(r, kernel_span_row, "SELECT start, end FROM \"rocpd_kernel_dispatch%w\"", S) ||
	       query(r, copy_span_row,
		     "SELECT start, end, src_agent_id, dst_agent_id FROM \"rocpd_memory_copy%w\"", S);
}

int rocpd_span(sqlite3 *db, const char *path, const struct rocpd_file *f, struct op_span *spans,
	       struct rpd_error *err)
{
	/* What the processes' info makes (inputs, names): thrown away. */
	struct trace info;
	int rc = 0;
	trace_init(&info);
	for (size_t i = 0; i < f->n && rc == 0; i++) {
		struct reader r;
		reader_init(&r, &info, db, path, &f->parts[i], LOAD_OPS, err);
		r.first_input = trace_add_input(&info, path, INPUT_ROCPD, atoi(f->parts[i].version));
		memset(&spans[i], 0, sizeof(spans[i]));
		r.span = &spans[i];
		rc = span_part(&r) ? -1 : 0;
		reader_free(&r);
	}
	trace_free(&info);
	return rc;
}
