/* Rows as rocprofv3's rocpd writer places them: info rows keyed by the
 * ids the system gives (process id = pid, thread id = tid, agent id = its
 * node id, queue and stream ids = their handles), every region, sample,
 * dispatch and copy with an event whose stack id is the tracer's
 * correlation id (an op's is its launching call's), correlation_id 0, and
 * "" a string of its own (a dispatch's region name when not renamed). */
#include "config.h"
#include "export/rocpd_writer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display/names.h"
#include "export/rocpd_schema.h"
#include "sqlfile/dbwriter.h"
#include "sqlfile/sqlrun.h"
#include "trace/strtab.h"
#include "util/idmap.h"
#include "util/xalloc.h"

/* The node's CPU agents (two sockets) come before its GPUs. */
#define CPU_AGENTS 2

enum stmt_id {
	ST_META,
	ST_STRING,
	ST_NODE,
	ST_PROCESS,
	ST_TIMES,
	ST_THREAD,
	ST_AGENT,
	ST_QUEUE,
	ST_STREAM,
	ST_CODE_OBJECT,
	ST_SYMBOL,
	ST_TRACK,
	ST_EVENT,
	ST_ARG,
	ST_REGION,
	ST_SAMPLE,
	ST_DISPATCH,
	ST_COPY,
	ST_GRAPH,
	ST_COUNT
};

/* Integer values first, text last, so that each row is bound in order. */
static const char *const stmt_sql[ST_COUNT] = {
	[ST_META] = "INSERT INTO \"rocpd_metadata{uuid}\" (tag, value) VALUES (?1, ?2)",
	[ST_STRING] = "INSERT INTO \"rocpd_string{uuid}\" (id, string) VALUES (?1, ?2)",
	[ST_NODE] = "INSERT INTO \"rocpd_info_node{uuid}\" (id, hash, machine_id, hostname, system_name, "
		    "release, version, hardware_name, domain_name) VALUES (?1, ?2, ?3, ?4, 'Linux', "
		    "'6.8.0-generated', '#1 SMP PREEMPT_DYNAMIC', 'x86_64', '(none)')",
	[ST_PROCESS] = "INSERT INTO \"rocpd_info_process{uuid}\" (id, nid, ppid, pid, command) VALUES "
		       "(?1, ?2, ?3, ?1, ?4)",
	[ST_TIMES] = "UPDATE \"rocpd_info_process{uuid}\" SET init = ?2, start = ?2, fini = ?3, end = ?3 "
		     "WHERE id = ?1",
	[ST_THREAD] = "INSERT INTO \"rocpd_info_thread{uuid}\" (id, nid, ppid, pid, tid) VALUES "
		      "(?1, ?2, ?3, ?4, ?1)",
	[ST_AGENT] = "INSERT INTO \"rocpd_info_agent{uuid}\" (id, nid, pid, type_index, uuid, type, "
		     "absolute_index, logical_index, name, model_name, vendor_name, product_name, user_name, "
		     "extdata) VALUES (?1, ?2, ?3, ?4, ?5, ?7, ?1, ?1, ?8, ?9, ?10, ?11, ?11, "
		     "json_object('node_id', ?1, 'logical_node_id', ?1, 'logical_node_type_id', ?4, 'type', "
		     "?6, 'name', ?8, 'product_name', ?11))",
	[ST_QUEUE] = "INSERT INTO \"rocpd_info_queue{uuid}\" (id, nid, pid, name) VALUES (?1, ?2, ?3, ?4)",
	[ST_STREAM] = "INSERT INTO \"rocpd_info_stream{uuid}\" (id, nid, pid, name) VALUES (?1, ?2, ?3, ?4)",
	[ST_CODE_OBJECT] = "INSERT INTO \"rocpd_info_code_object{uuid}\" (id, nid, pid, agent_id, load_base, "
			   "load_size, load_delta, uri) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7)",
	[ST_SYMBOL] = "INSERT INTO \"rocpd_info_kernel_symbol{uuid}\" (id, nid, pid, code_object_id, "
		      "kernel_object, kernarg_segment_size, kernarg_segment_alignment, group_segment_size, "
		      "private_segment_size, sgpr_count, arch_vgpr_count, accum_vgpr_count, kernel_name, "
		      "display_name) VALUES (?1, ?2, ?3, ?4, ?5, 32, 8, 0, 0, 16, 32, 0, ?6, ?7)",
	[ST_TRACK] = "INSERT INTO \"rocpd_track{uuid}\" (id, nid, pid, tid, name_id) VALUES "
		     "(?1, ?2, ?3, ?4, ?5)",
	[ST_EVENT] = "INSERT INTO \"rocpd_event{uuid}\" (id, category_id, stack_id, parent_stack_id, "
		     "correlation_id, extdata) VALUES (?1, ?2, ?3, ?4, 0, CASE WHEN ?5 IS NULL THEN '{}' "
		     "ELSE json_object('message', ?5) END)",
	[ST_ARG] = "INSERT INTO \"rocpd_arg{uuid}\" (event_id, position, type, name, value) VALUES "
		   "(?1, ?2, ?3, ?4, ?5)",
	[ST_REGION] = "INSERT INTO \"rocpd_region{uuid}\" (id, nid, pid, tid, start, end, name_id, event_id) "
		      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[ST_SAMPLE] = "INSERT INTO \"rocpd_sample{uuid}\" (id, track_id, timestamp, event_id) VALUES "
		      "(?1, ?2, ?3, ?4)",
	[ST_DISPATCH] =
		"INSERT INTO \"rocpd_kernel_dispatch{uuid}\" (id, nid, pid, tid, agent_id, kernel_id, "
		"dispatch_id, queue_id, stream_id, start, end, private_segment_size, "
		"group_segment_size, workgroup_size_x, workgroup_size_y, workgroup_size_z, "
		"grid_size_x, grid_size_y, grid_size_z, region_name_id, event_id) VALUES (?1, ?2, ?3, "
		"?4, ?5, ?6, ?1, ?7, ?8, ?9, ?10, 0, 0, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
	[ST_COPY] = "INSERT INTO \"rocpd_memory_copy{uuid}\" (id, nid, pid, tid, start, end, name_id, "
		    "dst_agent_id, dst_address, src_agent_id, src_address, size, stream_id, event_id) VALUES "
		    "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
	/* Only in a file whose dispatches have the column (job.graphs). */
	[ST_GRAPH] = "UPDATE \"rocpd_kernel_dispatch{uuid}\" SET graph_exec_id = ?2 WHERE id = ?1",
};

/* One process: its uuid, tables, statements and the ids handed out. */
struct proc {
	int64_t pid;
	int64_t nid;      /* its node's id */
	const char *node; /* its node's host name */
	int64_t *gpus;    /* its node's GPUs' numbers */
	size_t ngpus;
	char suffix[48], guid[40];
	sqlite3_stmt *st[ST_COUNT];
	struct strtab strings; /* rocpd_string id = strtab id + 1: "" is 1 */
	struct idmap threads, queues, streams, code_objects, symbols, tracks;
	int64_t nqueues, nstreams, ncode_objects, nsymbols, ntracks, nevents, ndispatches, ncopies;
	int64_t first, last; /* span of its rows, for the process's times */
	int any;
};

struct rocpd_writer {
	struct dbwriter db;
	struct rocpd_job job;
	char path_hash[24];
	struct proc *procs;
	size_t nprocs;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static uint64_t hash_text(const char *s, uint64_t seed)
{
	uint64_t h = 1469598103934665603ull ^ seed;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return mix(h);
}

/* Bind the values from column 1 on, 'i' an int64_t and 't' a string
 * (NULL binds NULL), then run the statement. */
static int row(struct rocpd_writer *w, struct proc *p, int i, const char *types, ...)
{
	sqlite3_stmt *st = p->st[i];
	va_list ap;
	va_start(ap, types);
	int rc = SQLITE_OK;
	for (int k = 0; rc == SQLITE_OK && types[k]; k++) {
		if (types[k] == 'i') {
			rc = sqlite3_bind_int64(st, k + 1, va_arg(ap, int64_t));
		} else {
			const char *s = va_arg(ap, const char *);
			rc = s ? sqlite3_bind_text(st, k + 1, s, -1, SQLITE_TRANSIENT)
			       : sqlite3_bind_null(st, k + 1);
		}
	}
	va_end(ap);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_DONE && sqlite3_reset(st) == SQLITE_OK)
		return 0;
	snprintf(w->db.errmsg, sizeof(w->db.errmsg), "%s", sqlite3_errmsg(w->db.db));
	sqlite3_reset(st);
	return -1;
}

static int string_id(struct rocpd_writer *w, struct proc *p, const char *s, int64_t *id)
{
	uint32_t before = p->strings.count;
	uint32_t sid = strtab_intern(&p->strings, s);
	*id = (int64_t)sid + 1;
	return sid < before ? 0 : row(w, p, ST_STRING, "it", *id, s);
}

/* The id key has in m, or the next one of *count, handed out now: then
 * *fresh says that its row is to be written. */
static int64_t lookup(struct idmap *m, uint64_t key, int64_t *count, int *fresh)
{
	uint32_t v;
	*fresh = !idmap_get(m, key, &v);
	if (*fresh) {
		*count += 1;
		v = (uint32_t)*count;
		idmap_put(m, key, v);
	}
	return v;
}

static struct proc *proc_of(struct rocpd_writer *w, int64_t pid)
{
	for (size_t i = 0; i < w->nprocs; i++)
		if (w->procs[i].pid == pid)
			return &w->procs[i];
	snprintf(w->db.errmsg, sizeof(w->db.errmsg), "process %lld is not one of the file's", (long long)pid);
	return NULL;
}

static void note_time(struct proc *p, int64_t start, int64_t end)
{
	if (!p->any || start < p->first)
		p->first = start;
	if (!p->any || end > p->last)
		p->last = end;
	p->any = 1;
}

static int thread_row(struct rocpd_writer *w, struct proc *p, int64_t tid)
{
	uint32_t seen;
	if (idmap_get(&p->threads, (uint64_t)tid, &seen))
		return 0;
	idmap_put(&p->threads, (uint64_t)tid, 1);
	return row(w, p, ST_THREAD, "iiii", tid, p->nid, w->job.ppid, p->pid);
}

/* Queues and streams are keyed by their handles, made up here: the
 * process's own, distinct, and as large as real ones. */
static int64_t queue_handle(const struct proc *p, int64_t n)
{
	return 0x7f3a00000000ll + ((p->pid & 0xffff) << 24) + (n + 1) * 0x100000;
}

static int64_t stream_handle(const struct proc *p, int64_t n)
{
	return 0x55d100000000ll + ((p->pid & 0xffff) << 20) + (n + 1) * 0x5a0;
}

/* The handle of the process's queue (or stream) index; the default
 * stream (-1) is 0, a row rocprofv3 writes before any other. */
static int64_t lane_row(struct rocpd_writer *w, struct proc *p, int stream, int64_t index, const char *named,
			int *rc)
{
	*rc = 0;
	if (index < 0)
		return 0;
	int fresh;
	int64_t n = lookup(stream ? &p->streams : &p->queues, (uint64_t)index,
			   stream ? &p->nstreams : &p->nqueues, &fresh) -
		    1;
	int64_t handle = stream ? stream_handle(p, n) : queue_handle(p, n);
	if (fresh) {
		char name[32];
		snprintf(name, sizeof(name), "%s %lld", stream ? "Stream" : "Queue", (long long)n);
		*rc = row(w, p, stream ? ST_STREAM : ST_QUEUE, "iiit", handle, p->nid, p->pid,
			  named ? named : name);
	}
	return handle;
}

static int64_t gpu_agent(int64_t gpu)
{
	return CPU_AGENTS + gpu;
}

static int agent_rows(struct rocpd_writer *w, struct proc *p)
{
	for (int64_t a = 0; a < CPU_AGENTS + (int64_t)p->ngpus; a++) {
		int gpu = a >= CPU_AGENTS;
		int64_t type_index = gpu ? p->gpus[a - CPU_AGENTS] : a;
		int64_t uuid = gpu ? (int64_t)(mix((uint64_t)p->nid + (uint64_t)a) >> 1) : 0;
		if (row(w, p, ST_AGENT, "iiiiiittttt", a, p->nid, p->pid, type_index, uuid,
			(int64_t)(gpu ? 2 : 1), gpu ? "GPU" : "CPU",
			gpu ? "gfx90a" : "AMD EPYC 7A53 64-Core Processor", gpu ? "aldebaran" : "",
			gpu ? "AMD" : "CPU", gpu ? "AMD Instinct MI250X" : "AMD EPYC 7A53 64-Core Processor"))
			return -1;
	}
	return 0;
}

/* A process's uuid is made from the path and its pid, so that the same
 * command writes the same file while two files (or two processes) never
 * share one: readers take a uuid met twice for one process read twice.
 * It has UUIDv7's shape, as rocprofv3's have. */
static void make_ids(struct rocpd_writer *w, struct proc *p)
{
	/* A pid met before (of another node) is told apart by its place. */
	uint64_t seed = (uint64_t)p->pid;
	for (struct proc *q = w->procs; q < p; q++)
		if (q->pid == p->pid)
			seed = mix(seed ^ (uint64_t)(p - w->procs + 1));
	uint64_t a = hash_text(w->path_hash, seed), b = mix(a + (uint64_t)p->pid);
	snprintf(p->guid, sizeof(p->guid), "%08x-%04x-7%03x-%04x-%012llx", (unsigned)(a >> 32),
		 (unsigned)(a >> 16) & 0xffff, (unsigned)a & 0xfff, (unsigned)(0x8000 | ((b >> 48) & 0x3fff)),
		 (unsigned long long)(b & 0xffffffffffffull));
	snprintf(p->suffix, sizeof(p->suffix), "_%s", p->guid);
	for (char *c = p->suffix; *c; c++)
		if (*c == '-')
			*c = '_';
}

static int prepare(struct rocpd_writer *w, struct proc *p)
{
	/* The suffix and guid go into SQL text: they are ours, and hex. */
	if (!rocpd_name_ok(p->suffix) || !rocpd_name_ok(p->guid)) {
		snprintf(w->db.errmsg, sizeof(w->db.errmsg), "bad uuid %s", p->suffix);
		return -1;
	}
	char *schema = rocpd_schema_tables(p->suffix, p->guid);
	int rc = sql_run_script(w->db.db, schema);
	free(schema);
	if (rc == SQLITE_OK && w->job.graphs) {
		char *sql = rocpd_with_suffix("ALTER TABLE \"rocpd_kernel_dispatch{uuid}\" ADD COLUMN "
					      "graph_exec_id INTEGER NOT NULL DEFAULT 0",
					      p->suffix);
		rc = sql_run_script(w->db.db, sql);
		free(sql);
	}
	for (int i = 0; rc == SQLITE_OK && i < ST_COUNT; i++) {
		if (i == ST_GRAPH && !w->job.graphs)
			continue;
		char *sql = rocpd_with_suffix(stmt_sql[i], p->suffix);
		rc = sqlite3_prepare_v2(w->db.db, sql, -1, &p->st[i], NULL);
		free(sql);
	}
	if (rc == SQLITE_OK)
		return 0;
	snprintf(w->db.errmsg, sizeof(w->db.errmsg), "%s", sqlite3_errmsg(w->db.db));
	return -1;
}

/* Tables, metadata, "" (string 1), the node, the process, the default
 * queue and stream, and every agent of the node. */
static int start_process(struct rocpd_writer *w, struct proc *p)
{
	/* The node's ids as rocprofv3 derives them: a hash of its machine
	 * id, and the id from that. */
	const char *node = p->node;
	char machine[40];
	uint64_t m = hash_text(node, 1);
	snprintf(machine, sizeof(machine), "%016llx%016llx", (unsigned long long)m,
		 (unsigned long long)mix(m));
	int64_t hash = (int64_t)(hash_text(machine, 0) % INT64_MAX);
	p->nid = hash % UINT32_MAX;
	make_ids(w, p);
	/* strtab starts with "" (its id 0, string 1): it is written here. */
	strtab_init(&p->strings);
	return prepare(w, p) || row(w, p, ST_META, "tt", "schema_version", "3") ||
	       row(w, p, ST_META, "tt", "uuid", p->suffix) || row(w, p, ST_META, "tt", "guid", p->guid) ||
	       row(w, p, ST_STRING, "it", (int64_t)1, "") ||
	       row(w, p, ST_NODE, "iitt", p->nid, hash, machine, node) ||
	       row(w, p, ST_PROCESS, "iiit", p->pid, p->nid, w->job.ppid, w->job.command) ||
	       row(w, p, ST_QUEUE, "iiit", (int64_t)0, p->nid, p->pid, "Default Queue") ||
	       row(w, p, ST_STREAM, "iiit", (int64_t)0, p->nid, p->pid, "Default Stream") || agent_rows(w, p);
}

int rocpd_writer_open(struct rocpd_writer **out, const char *path, int force, const struct rocpd_job *job,
		      struct rpd_error *err)
{
	*out = NULL;
	/* A file without a process would have no tables to read. */
	if (job->nprocs == 0)
		return err_set(err, "%s: no process to write", path);
	struct rocpd_writer *w = xcalloc(1, sizeof(*w));
	w->job = *job;
	snprintf(w->path_hash, sizeof(w->path_hash), "%016llx", (unsigned long long)hash_text(path, 0));
	if (dbwriter_open(&w->db, path, force, "", NULL, 0, err)) {
		free(w);
		return -1;
	}
	/* The checks before the rename: every foreign key holds, as in a
	 * file rocprofv3 wrote with foreign_keys on. */
	w->db.verify = 1;
	const char *node = job->node && *job->node ? job->node : "localhost";
	w->procs = xcalloc(job->nprocs, sizeof(*w->procs));
	for (size_t i = 0; i < job->nprocs; i++) {
		struct proc *p = &w->procs[w->nprocs++];
		const struct rocpd_process *given = job->procs ? &job->procs[i] : NULL;
		p->pid = given ? given->pid : job->pids[i];
		p->node = given && given->node && *given->node ? given->node : node;
		p->ngpus = given && given->gpus ? given->ngpus : job->gpus;
		p->gpus = xmalloc_array(p->ngpus ? p->ngpus : 1, sizeof(*p->gpus));
		for (size_t k = 0; k < p->ngpus; k++)
			p->gpus[k] = given && given->gpus ? given->gpus[k] : (int64_t)k;
		struct idmap *maps[] = { &p->threads,      &p->queues,  &p->streams,
					 &p->code_objects, &p->symbols, &p->tracks };
		for (size_t k = 0; k < sizeof(maps) / sizeof(maps[0]); k++)
			idmap_init(maps[k]);
		if (start_process(w, p)) {
			err_set(err, "%s: %s", path, w->db.errmsg);
			rocpd_writer_abort(w);
			return -1;
		}
	}
	*out = w;
	return 0;
}

static int event_row(struct rocpd_writer *w, struct proc *p, const char *category, int64_t stack,
		     int64_t parent, const char *message, int64_t *event)
{
	int64_t cat;
	*event = ++p->nevents;
	return string_id(w, p, category, &cat) ||
	       row(w, p, ST_EVENT, "iiiit", *event, cat, stack, parent, message);
}

/* A call without a duration goes on its thread's track of its category. */
static int sample_row(struct rocpd_writer *w, struct proc *p, const struct rocpd_call_row *c, int64_t event)
{
	int64_t cat;
	int fresh;
	if (string_id(w, p, c->category, &cat))
		return -1;
	uint64_t key = (uint64_t)(uint32_t)c->tid << 32 | (uint64_t)(uint32_t)cat;
	int64_t track = lookup(&p->tracks, key, &p->ntracks, &fresh);
	if (fresh && row(w, p, ST_TRACK, "iiiii", track, p->nid, p->pid, c->tid, cat))
		return -1;
	return row(w, p, ST_SAMPLE, "iiii", c->id, track, c->start, event);
}

static int call_row(struct rocpd_writer *w, struct proc *p, const struct rocpd_call_row *c)
{
	int64_t event, name;
	if (!p || thread_row(w, p, c->tid) || event_row(w, p, c->category, c->id, 0, c->message, &event))
		return -1;
	note_time(p, c->start, c->end);
	for (size_t i = 0; i < c->nargs; i++)
		if (row(w, p, ST_ARG, "iittt", event, (int64_t)c->args[i].position, c->args[i].type,
			c->args[i].name, c->args[i].value))
			return -1;
	if (c->start == c->end && !c->region)
		return sample_row(w, p, c, event);
	return string_id(w, p, c->name, &name) ||
	       row(w, p, ST_REGION, "iiiiiiii", c->id, p->nid, p->pid, c->tid, c->start, c->end, name, event);
}

int rocpd_writer_call(struct rocpd_writer *w, const struct rocpd_call_row *c)
{
	return call_row(w, proc_of(w, c->pid), c);
}

static struct proc *proc_at(struct rocpd_writer *w, size_t proc)
{
	if (proc < w->nprocs)
		return &w->procs[proc];
	snprintf(w->db.errmsg, sizeof(w->db.errmsg), "process %zu is not one of the file's", proc);
	return NULL;
}

int rocpd_writer_call_in(struct rocpd_writer *w, size_t proc, const struct rocpd_call_row *c)
{
	return call_row(w, proc_at(w, proc), c);
}

/* A kernel's symbol, in the code object loaded on its GPU. */
static int symbol_row(struct rocpd_writer *w, struct proc *p, const struct rocpd_gpu_row *g, int64_t *symbol)
{
	int fresh;
	int64_t agent = gpu_agent(g->gpu), base = 0x7f5e00000000ll + (g->gpu << 32);
	int64_t code = lookup(&p->code_objects, (uint64_t)g->gpu, &p->ncode_objects, &fresh);
	if (fresh && row(w, p, ST_CODE_OBJECT, "iiiiiit", code, p->nid, p->pid, agent, base, (int64_t)1 << 24,
			 "file:///opt/train/lib/libkernels.so#offset=12288&size=16777216"))
		return -1;
	int64_t name;
	if (string_id(w, p, *g->kernel_name ? g->kernel_name : g->display_name, &name))
		return -1;
	*symbol = lookup(&p->symbols, (uint64_t)g->gpu << 32 | (uint64_t)name, &p->nsymbols, &fresh);
	if (fresh && row(w, p, ST_SYMBOL, "iiiiitt", *symbol, p->nid, p->pid, code, base + *symbol * 256,
			 g->kernel_name, g->display_name))
		return -1;
	return 0;
}

static int dispatch_row(struct rocpd_writer *w, struct proc *p, const struct rocpd_gpu_row *g, int64_t event)
{
	int64_t symbol;
	int rc_q, rc_s;
	int64_t queue = lane_row(w, p, 0, g->queue, g->queue_name, &rc_q),
		stream = lane_row(w, p, 1, g->stream, NULL, &rc_s);
	if (rc_q || rc_s || symbol_row(w, p, g, &symbol))
		return -1;
	if (row(w, p, ST_DISPATCH, "iiiiiiiiiiiiiiiiii", ++p->ndispatches, p->nid, p->pid, g->tid,
		gpu_agent(g->gpu), symbol, queue, stream, g->start, g->end, g->workgroup[0], g->workgroup[1],
		g->workgroup[2], g->grid[0], g->grid[1], g->grid[2], (int64_t)1, event))
		return -1;
	return w->job.graphs && g->graph_exec ? row(w, p, ST_GRAPH, "ii", p->ndispatches, g->graph_exec) : 0;
}

/* A copy has a stream but no queue; its host side is the first CPU. */
static int copy_row(struct rocpd_writer *w, struct proc *p, const struct rocpd_gpu_row *g, int64_t event)
{
	static const char *const names[] = { "MEMORY_COPY_HOST_TO_HOST", "MEMORY_COPY_HOST_TO_DEVICE",
					     "MEMORY_COPY_DEVICE_TO_HOST", "MEMORY_COPY_DEVICE_TO_DEVICE",
					     "MEMORY_COPY_PEER_TO_PEER" };
	int kind = g->copy_kind >= ROCPD_H2H && g->copy_kind <= ROCPD_P2P ? g->copy_kind : ROCPD_D2D, rc;
	int64_t name, stream = lane_row(w, p, 1, g->stream, NULL, &rc);
	if (rc || string_id(w, p, names[kind], &name))
		return -1;
	int64_t gpu = gpu_agent(g->gpu), host = 0;
	int64_t dst = kind == ROCPD_D2H || kind == ROCPD_H2H ? host : gpu;
	int64_t src = kind == ROCPD_H2D || kind == ROCPD_H2H ? host : gpu;
	/* Addresses as the runtime hands them out: device memory high, host
	 * memory in the heap. */
	int64_t dev_addr = 0x7f1c00000000ll + ((g->gpu > 0 ? g->gpu : 0) << 36), host_addr = 0x7ffd12300000ll;
	return row(w, p, ST_COPY, "iiiiiiiiiiiiii", ++p->ncopies, p->nid, p->pid, g->tid, g->start, g->end,
		   name, dst, dst == host ? host_addr : dev_addr, src, src == host ? host_addr : dev_addr,
		   g->size, stream, event);
}

static int gpu_row(struct rocpd_writer *w, struct proc *p, const struct rocpd_gpu_row *g)
{
	int64_t event;
	/* A copy between host memories runs on no GPU. */
	int host = !g->kernel_name && g->copy_kind == ROCPD_H2H;
	if (!p || (!host && (g->gpu < 0 || g->gpu >= (int64_t)p->ngpus))) {
		if (p)
			snprintf(w->db.errmsg, sizeof(w->db.errmsg), "GPU %lld is not one of the node's",
				 (long long)g->gpu);
		return -1;
	}
	if (thread_row(w, p, g->tid) || event_row(w, p, g->kernel_name ? "KERNEL_DISPATCH" : "MEMORY_COPY",
						  g->launch, g->launch, NULL, &event))
		return -1;
	note_time(p, g->start, g->end);
	return g->kernel_name ? dispatch_row(w, p, g, event) : copy_row(w, p, g, event);
}

int rocpd_writer_gpu(struct rocpd_writer *w, const struct rocpd_gpu_row *g)
{
	return gpu_row(w, proc_of(w, g->pid), g);
}

int rocpd_writer_gpu_in(struct rocpd_writer *w, size_t proc, const struct rocpd_gpu_row *g)
{
	return gpu_row(w, proc_at(w, proc), g);
}

int rocpd_writer_metadata(struct rocpd_writer *w, const char *tag, const char *value)
{
	return row(w, &w->procs[0], ST_META, "tt", tag, value);
}

void rocpd_kernel_names(const char *name, char **symbol, char **display)
{
	size_t len = strlen(name);
	int mangled = strncmp(name, "_Z", 2) == 0;
	int c_symbol = strcspn(name, " ()<>:,") == len;
	/* A name ending in ".kd" keeps it only behind a symbol's own. */
	int kd = len >= 3 && strcmp(name + len - 3, ".kd") == 0;
	*symbol = xmalloc(len + 4);
	if (mangled || c_symbol || kd)
		snprintf(*symbol, len + 4, "%s.kd", name);
	else
		(*symbol)[0] = '\0';
	*display = mangled ? name_demangle(name) : NULL;
	if (!*display)
		*display = xstrdup(name);
}

const char *rocpd_writer_errmsg(const struct rocpd_writer *w)
{
	return w->db.errmsg;
}

/* Statements go before the connection can close. */
static void free_procs(struct rocpd_writer *w)
{
	for (size_t i = 0; i < w->nprocs; i++) {
		struct proc *p = &w->procs[i];
		for (int k = 0; k < ST_COUNT; k++)
			sqlite3_finalize(p->st[k]);
		struct idmap *maps[] = { &p->threads,      &p->queues,  &p->streams,
					 &p->code_objects, &p->symbols, &p->tracks };
		for (size_t k = 0; k < sizeof(maps) / sizeof(maps[0]); k++)
			idmap_free(maps[k]);
		strtab_free(&p->strings);
		free(p->gpus);
	}
	free(w->procs);
	w->procs = NULL;
	w->nprocs = 0;
}

void rocpd_writer_abort(struct rocpd_writer *w)
{
	if (!w)
		return;
	free_procs(w);
	dbwriter_abort(&w->db);
	free(w);
}

int rocpd_writer_commit(struct rocpd_writer *w, struct rpd_error *err)
{
	for (size_t i = 0; i < w->nprocs; i++) {
		struct proc *p = &w->procs[i];
		if (p->any && row(w, p, ST_TIMES, "iii", p->pid, p->first, p->last)) {
			err_set(err, "%s: %s", w->db.path, w->db.errmsg);
			rocpd_writer_abort(w);
			return -1;
		}
	}
	const char **suffixes = xmalloc_array(w->nprocs, sizeof(*suffixes));
	for (size_t i = 0; i < w->nprocs; i++)
		suffixes[i] = w->procs[i].suffix;
	char *views = rocpd_schema_views(suffixes, w->nprocs);
	free(suffixes);
	free_procs(w);
	int rc = dbwriter_commit(&w->db, views, err);
	free(views);
	free(w);
	return rc;
}
