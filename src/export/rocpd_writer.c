#include "config.h"
#include "export/rocpd_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/rocpd_schema.h"
#include "sqlfile/dbwriter.h"
#include "trace/strtab.h"
#include "util/idmap.h"
#include "util/xalloc.h"

/* Statements use {uuid} for the table suffix. */
enum stmt_id {
	ST_META,
	ST_STRING,
	ST_NODE,
	ST_PROCESS,
	ST_THREAD,
	ST_AGENT,
	ST_QUEUE,
	ST_CODE_OBJECT,
	ST_SYMBOL,
	ST_EVENT,
	ST_REGION,
	ST_DISPATCH,
	ST_COPY,
	ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
	[ST_META] = "INSERT INTO rocpd_metadata{uuid} (tag, value) VALUES (?1, ?2)",
	[ST_STRING] = "INSERT INTO rocpd_string{uuid} (id, guid, string) VALUES (?1, ?2, ?3)",
	[ST_NODE] = "INSERT INTO rocpd_info_node{uuid} (id, guid, hash, machine_id, system_name, hostname) "
		    "VALUES (1, ?1, ?2, ?3, 'Linux', ?4)",
	[ST_PROCESS] = "INSERT INTO rocpd_info_process{uuid} (id, guid, nid, ppid, pid, command) "
		       "VALUES (?1, ?2, 1, 1, ?3, 'train.py')",
	[ST_THREAD] = "INSERT INTO rocpd_info_thread{uuid} (id, guid, nid, ppid, pid, tid) "
		      "VALUES (?1, ?2, 1, 1, ?3, ?4)",
	[ST_AGENT] = "INSERT INTO rocpd_info_agent{uuid} (id, guid, nid, pid, type, absolute_index, "
		     "logical_index, type_index, name, product_name) VALUES (?1, ?2, 1, 1, ?3, ?4, ?4, ?5, "
		     "?6, ?7)",
	[ST_QUEUE] =
		"INSERT INTO rocpd_info_queue{uuid} (id, guid, nid, pid, name) VALUES (?1, ?2, 1, 1, ?3)",
	[ST_CODE_OBJECT] = "INSERT INTO rocpd_info_code_object{uuid} (id, guid, nid, pid, agent_id, uri, "
			   "storage_type) VALUES (1, ?1, 1, 1, 2, 'memory://generated', 'MEMORY')",
	[ST_SYMBOL] = "INSERT INTO rocpd_info_kernel_symbol{uuid} (id, guid, nid, pid, code_object_id, "
		      "kernel_name, display_name) VALUES (?1, ?2, 1, 1, 1, ?3, ?3)",
	[ST_EVENT] = "INSERT INTO rocpd_event{uuid} (id, guid, category_id, correlation_id) VALUES (?1, ?2, "
		     "?3, ?4)",
	[ST_REGION] = "INSERT INTO rocpd_region{uuid} (guid, nid, pid, tid, start, end, name_id, event_id) "
		      "VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_DISPATCH] = "INSERT INTO rocpd_kernel_dispatch{uuid} (guid, nid, pid, tid, agent_id, kernel_id, "
			"dispatch_id, queue_id, stream_id, start, end, workgroup_size_x, workgroup_size_y, "
			"workgroup_size_z, grid_size_x, grid_size_y, grid_size_z, event_id) VALUES "
			"(?1, 1, ?2, NULL, ?3, ?4, ?5, ?6, 0, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
	[ST_COPY] = "INSERT INTO rocpd_memory_copy{uuid} (guid, nid, pid, tid, start, end, name_id, "
		    "dst_agent_id, src_agent_id, size, queue_id, event_id) VALUES "
		    "(?1, 1, ?2, NULL, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
};

struct rocpd_writer {
	struct dbwriter db;
	char suffix[64], guid[40];
	struct strtab strings; /* rocpd_string id = strtab id + 1 */
	struct idmap process, thread, agent, queue, symbol;
	int64_t nprocess, nthread, nagent, nqueue, nsymbol, nevent, ndispatch;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	return x ^ (x >> 33);
}

/* The uuid is derived from the path so that the same command writes the
 * same file. */
static void make_ids(struct rocpd_writer *w, const char *path)
{
	uint64_t h = 1469598103934665603ull;
	for (const char *p = path; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	uint64_t a = mix(h), b = mix(h + 1);
	snprintf(w->guid, sizeof(w->guid), "%08x-%04x-%04x-%04x-%012llx", (unsigned)(a >> 32),
		 (unsigned)(a >> 16) & 0xffff, (unsigned)a & 0xffff, (unsigned)(b >> 48),
		 (unsigned long long)(b & 0xffffffffffffull));
	snprintf(w->suffix, sizeof(w->suffix), "_%s", w->guid);
	for (char *p = w->suffix; *p; p++)
		if (*p == '-')
			*p = '_';
}

static int step(struct rocpd_writer *w, int i)
{
	return dbwriter_step(&w->db, i);
}

static void bind_guid(struct rocpd_writer *w, int i, int col)
{
	sqlite3_bind_text(w->db.st[i], col, w->guid, -1, SQLITE_STATIC);
}

static int string_id(struct rocpd_writer *w, const char *s, int64_t *id)
{
	uint32_t before = w->strings.count;
	uint32_t sid = strtab_intern(&w->strings, s);
	*id = (int64_t)sid + 1;
	if (sid < before)
		return 0;
	sqlite3_bind_int64(w->db.st[ST_STRING], 1, *id);
	bind_guid(w, ST_STRING, 2);
	sqlite3_bind_text(w->db.st[ST_STRING], 3, s, -1, SQLITE_TRANSIENT);
	return step(w, ST_STRING);
}

/* Find or insert the row an identity maps to; *id gets its id. */
typedef int (*insert_fn)(struct rocpd_writer *w, int64_t id, const int64_t *key);

static int lookup(struct rocpd_writer *w, struct idmap *m, int64_t *count, uint64_t key,
		  const int64_t *fields, insert_fn insert, int64_t *id)
{
	uint32_t v;
	if (idmap_get(m, key, &v)) {
		*id = v;
		return 0;
	}
	*id = ++*count;
	idmap_put(m, key, (uint32_t)*id);
	return insert(w, *id, fields);
}

static int insert_process(struct rocpd_writer *w, int64_t id, const int64_t *k)
{
	sqlite3_stmt *st = w->db.st[ST_PROCESS];
	sqlite3_bind_int64(st, 1, id);
	bind_guid(w, ST_PROCESS, 2);
	sqlite3_bind_int64(st, 3, k[0]);
	return step(w, ST_PROCESS);
}

static int insert_thread(struct rocpd_writer *w, int64_t id, const int64_t *k)
{
	int64_t pid;
	if (lookup(w, &w->process, &w->nprocess, (uint64_t)k[0], k, insert_process, &pid))
		return -1;
	sqlite3_stmt *st = w->db.st[ST_THREAD];
	sqlite3_bind_int64(st, 1, id);
	bind_guid(w, ST_THREAD, 2);
	sqlite3_bind_int64(st, 3, pid);
	sqlite3_bind_int64(st, 4, k[1]);
	return step(w, ST_THREAD);
}

/* Agent 1 is the CPU; GPU n (k[0]) gets the next id. */
static int insert_agent(struct rocpd_writer *w, int64_t id, const int64_t *k)
{
	sqlite3_stmt *st = w->db.st[ST_AGENT];
	int cpu = k[0] < 0;
	sqlite3_bind_int64(st, 1, id);
	bind_guid(w, ST_AGENT, 2);
	sqlite3_bind_text(st, 3, cpu ? "CPU" : "GPU", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, id - 1);
	sqlite3_bind_int64(st, 5, cpu ? 0 : k[0]);
	sqlite3_bind_text(st, 6, cpu ? "cpu" : "gfx90a", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, cpu ? "CPU" : "Generated GPU", -1, SQLITE_STATIC);
	return step(w, ST_AGENT);
}

static int insert_queue(struct rocpd_writer *w, int64_t id, const int64_t *k)
{
	char name[64];
	snprintf(name, sizeof(name), "GPU %lld queue %lld", (long long)k[0], (long long)k[1]);
	sqlite3_stmt *st = w->db.st[ST_QUEUE];
	sqlite3_bind_int64(st, 1, id);
	bind_guid(w, ST_QUEUE, 2);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
	return step(w, ST_QUEUE);
}

static int insert_event(struct rocpd_writer *w, const char *category, int64_t correlation, int64_t *id)
{
	int64_t cat;
	if (string_id(w, category, &cat))
		return -1;
	*id = ++w->nevent;
	sqlite3_stmt *st = w->db.st[ST_EVENT];
	sqlite3_bind_int64(st, 1, *id);
	bind_guid(w, ST_EVENT, 2);
	sqlite3_bind_int64(st, 3, cat);
	if (correlation)
		sqlite3_bind_int64(st, 4, correlation);
	else
		sqlite3_bind_null(st, 4);
	return step(w, ST_EVENT);
}

static char *statement(int i, const char *suffix)
{
	return rocpd_with_suffix(stmt_sql[i], suffix);
}

static int write_node(struct rocpd_writer *w, const char *node)
{
	sqlite3_stmt *st = w->db.st[ST_NODE];
	bind_guid(w, ST_NODE, 1);
	sqlite3_bind_int64(st, 2, (int64_t)(mix((uint64_t)strlen(node) * 31 + (unsigned char)node[0]) >> 1));
	sqlite3_bind_text(st, 3, node, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, node, -1, SQLITE_TRANSIENT);
	const char *meta[][2] = { { "schema_version", "3" }, { "uuid", w->suffix + 1 }, { "guid", w->guid } };
	int rc = step(w, ST_NODE);
	for (size_t i = 0; rc == 0 && i < 3; i++) {
		sqlite3_bind_text(w->db.st[ST_META], 1, meta[i][0], -1, SQLITE_STATIC);
		sqlite3_bind_text(w->db.st[ST_META], 2, meta[i][1], -1, SQLITE_TRANSIENT);
		rc = step(w, ST_META);
	}
	int64_t cpu;
	int64_t k[1] = { -1 };
	if (rc == 0)
		rc = lookup(w, &w->agent, &w->nagent, (uint64_t)-1, k, insert_agent, &cpu);
	/* The string table starts with "" (id 1), which strtab_init interned. */
	if (rc == 0) {
		sqlite3_bind_int64(w->db.st[ST_STRING], 1, 1);
		bind_guid(w, ST_STRING, 2);
		sqlite3_bind_text(w->db.st[ST_STRING], 3, "", 0, SQLITE_STATIC);
		rc = step(w, ST_STRING);
	}
	return rc;
}

int rocpd_writer_open(struct rocpd_writer **out, const char *path, int force, const char *node,
		      struct rpd_error *err)
{
	struct rocpd_writer *w = xcalloc(1, sizeof(*w));
	*out = NULL;
	make_ids(w, path);
	char *schema = rocpd_schema_tables(w->suffix);
	char *stmts[ST_COUNT];
	for (int i = 0; i < ST_COUNT; i++)
		stmts[i] = statement(i, w->suffix);
	int rc = dbwriter_open(&w->db, path, force, schema, (const char *const *)stmts, ST_COUNT, err);
	free(schema);
	for (int i = 0; i < ST_COUNT; i++)
		free(stmts[i]);
	if (rc) {
		free(w);
		return -1;
	}
	strtab_init(&w->strings);
	struct idmap *maps[] = { &w->process, &w->thread, &w->agent, &w->queue, &w->symbol };
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		idmap_init(maps[i]);
	if (write_node(w, node && *node ? node : "localhost")) {
		err_set(err, "%s: %s", path, w->db.errmsg);
		rocpd_writer_abort(w);
		return -1;
	}
	*out = w;
	return 0;
}

int rocpd_writer_region(struct rocpd_writer *w, const struct rocpd_region_row *r)
{
	int64_t name, event, pid, tid;
	int64_t key[2] = { r->pid, r->tid };
	if (string_id(w, r->name, &name) ||
	    insert_event(w, r->marker ? "MARKER_CORE_RANGE_API" : "HIP_RUNTIME_API",
			 r->marker ? 0 : r->correlation, &event) ||
	    lookup(w, &w->process, &w->nprocess, (uint64_t)r->pid, key, insert_process, &pid) ||
	    lookup(w, &w->thread, &w->nthread, idmap_key3(2, (uint64_t)r->pid, (uint64_t)r->tid), key,
		   insert_thread, &tid))
		return -1;
	sqlite3_stmt *st = w->db.st[ST_REGION];
	bind_guid(w, ST_REGION, 1);
	int64_t v[] = { pid, tid, r->start, r->end, name, event };
	for (int i = 0; i < 6; i++)
		sqlite3_bind_int64(st, i + 2, v[i]);
	return step(w, ST_REGION);
}

static int gpu_common(struct rocpd_writer *w, const struct rocpd_gpu_row *g, int64_t *pid, int64_t *agent,
		      int64_t *queue, int64_t *event)
{
	int64_t pk[1] = { g->pid }, ak[1] = { g->gpu }, qk[2] = { g->gpu, g->queue };
	return lookup(w, &w->process, &w->nprocess, (uint64_t)g->pid, pk, insert_process, pid) ||
	       lookup(w, &w->agent, &w->nagent, (uint64_t)g->gpu, ak, insert_agent, agent) ||
	       lookup(w, &w->queue, &w->nqueue, idmap_key3(3, (uint64_t)g->gpu, (uint64_t)g->queue), qk,
		      insert_queue, queue) ||
	       insert_event(w, g->kernel ? "KERNEL_DISPATCH" : "MEMORY_COPY", g->correlation, event);
}

static int insert_symbol(struct rocpd_writer *w, int64_t id, const int64_t *k)
{
	sqlite3_stmt *st = w->db.st[ST_SYMBOL];
	sqlite3_bind_int64(st, 1, id);
	bind_guid(w, ST_SYMBOL, 2);
	sqlite3_bind_text(st, 3, strtab_get(&w->strings, (uint32_t)k[0]), -1, SQLITE_TRANSIENT);
	return step(w, ST_SYMBOL);
}

static int write_dispatch(struct rocpd_writer *w, const struct rocpd_gpu_row *g, int64_t pid, int64_t agent,
			  int64_t queue, int64_t event)
{
	int64_t name, symbol;
	if (string_id(w, g->kernel, &name))
		return -1;
	int64_t k[1] = { name - 1 };
	if (lookup(w, &w->symbol, &w->nsymbol, (uint64_t)name, k, insert_symbol, &symbol))
		return -1;
	sqlite3_stmt *st = w->db.st[ST_DISPATCH];
	bind_guid(w, ST_DISPATCH, 1);
	int64_t v[] = { pid,
			agent,
			symbol,
			++w->ndispatch,
			queue,
			g->start,
			g->end,
			g->workgroup[0],
			g->workgroup[1],
			g->workgroup[2],
			g->grid[0],
			g->grid[1],
			g->grid[2],
			event };
	for (int i = 0; i < 14; i++)
		sqlite3_bind_int64(st, i + 2, v[i]);
	return step(w, ST_DISPATCH);
}

static int write_copy(struct rocpd_writer *w, const struct rocpd_gpu_row *g, int64_t pid, int64_t agent,
		      int64_t queue, int64_t event)
{
	static const char *const names[] = { "", "MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST",
					     "MEMORY_COPY_DEVICE_TO_DEVICE" };
	int64_t name, cpu = 1;
	if (string_id(w, names[g->copy_kind & 3], &name))
		return -1;
	int64_t dst = g->copy_kind == 2 ? cpu : agent, src = g->copy_kind == 1 ? cpu : agent;
	sqlite3_stmt *st = w->db.st[ST_COPY];
	bind_guid(w, ST_COPY, 1);
	int64_t v[] = { pid, g->start, g->end, name, dst, src, g->size, queue, event };
	for (int i = 0; i < 9; i++)
		sqlite3_bind_int64(st, i + 2, v[i]);
	return step(w, ST_COPY);
}

int rocpd_writer_gpu(struct rocpd_writer *w, const struct rocpd_gpu_row *g)
{
	int64_t pid, agent, queue, event;
	if (gpu_common(w, g, &pid, &agent, &queue, &event))
		return -1;
	return g->kernel ? write_dispatch(w, g, pid, agent, queue, event)
			 : write_copy(w, g, pid, agent, queue, event);
}

const char *rocpd_writer_errmsg(const struct rocpd_writer *w)
{
	return w->db.errmsg;
}

static void free_writer(struct rocpd_writer *w)
{
	struct idmap *maps[] = { &w->process, &w->thread, &w->agent, &w->queue, &w->symbol };
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		idmap_free(maps[i]);
	strtab_free(&w->strings);
	free(w);
}

void rocpd_writer_abort(struct rocpd_writer *w)
{
	if (!w)
		return;
	dbwriter_abort(&w->db);
	free_writer(w);
}

int rocpd_writer_commit(struct rocpd_writer *w, struct rpd_error *err)
{
	char *views = rocpd_schema_views(w->suffix);
	int rc = dbwriter_commit(&w->db, views, err);
	free(views);
	free_writer(w);
	return rc;
}
