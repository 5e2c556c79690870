/* The generated trace as NVIDIA Nsight Systems exports one (nsys export
 * --type sqlite, the tables of a recent export): kernels and copies in
 * CUPTI_ACTIVITY_KIND_KERNEL and _MEMCPY on their GPU (deviceId) and
 * stream (streamId), their names ids into StringIds (a kernel's
 * demangledName, shortName and, when it has one, mangledName); the calls in
 * CUPTI_ACTIVITY_KIND_RUNTIME, their ops sharing their correlationId; roctx
 * ranges as NVTX_EVENTS, the steps start/end ranges (eventType 60) with
 * their text, the others push/pop ranges (59) with a registered string
 * (textId), marks (34) with their text and no end; each process's NVTX
 * domain and thread name (events that are no ranges). globalTid packs the
 * pid and tid as nsys does, beneath a VM id. An empty
 * CUPTI_ACTIVITY_KIND_MEMSET, a GPU per process in TARGET_INFO_GPU and the
 * schema version in META_DATA_EXPORT. Barriers have no table and are not
 * written. */
#include "config.h"
#include "demo/demo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display/names.h"
#include "sqlfile/dbwriter.h"
#include "trace/strtab.h"
#include "util/xalloc.h"

/* What nsys 2024.5 writes in META_DATA_EXPORT. */
#define NSYS_SCHEMA_VERSION "3.13.2"
/* The VM id above the pid and tid in a globalTid. */
#define GLOBAL_VM ((int64_t)1 << 48)

static const char schema[] =
	"CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);"
	"CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation "
	"TEXT, "
	"isDiscrete INTEGER, totalMemory INTEGER, smCount INTEGER, uuid TEXT, cuDevice INTEGER);"
	"CREATE TABLE ThreadNames (nameId INTEGER NOT NULL REFERENCES StringIds(id), priority INTEGER, "
	"globalTid INTEGER);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId "
	"INTEGER "
	"NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, "
	"correlationId "
	"INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL REFERENCES StringIds(id), shortName "
	"INTEGER "
	"NOT NULL REFERENCES StringIds(id), mangledName INTEGER REFERENCES StringIds(id), launchType "
	"INTEGER, "
	"cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT "
	"NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT "
	"NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL, "
	"localMemoryPerThread "
	"INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL, sharedMemoryExecuted "
	"INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId "
	"INTEGER "
	"NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, "
	"correlationId "
	"INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId "
	"INTEGER, "
	"srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, "
	"dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER, virtualAddress INTEGER);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId "
	"INTEGER "
	"NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, "
	"correlationId "
	"INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, "
	"memKind "
	"INTEGER);"
	"CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass "
	"INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL REFERENCES "
	"StringIds(id), returnValue INTEGER NOT NULL, callchainId INTEGER);"
	"CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId "
	"INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, "
	"textId "
	"INTEGER REFERENCES StringIds(id), domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, "
	"doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, "
	"jsonText TEXT);";

enum { ST_KERNEL, ST_COPY, ST_CALL, ST_NVTX, ST_STRING, ST_META, ST_GPU, ST_THREAD, ST_COUNT };

static const char *const statements[ST_COUNT] = {
	[ST_KERNEL] =
		"INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
		"correlationId, globalPid, demangledName, shortName, mangledName, launchType, cacheConfig, "
		"registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, "
		"dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES (?1, ?2, ?3, "
		"1, ?4, ?5, ?6, ?7, ?8, ?9, 0, 0, 32, ?10, ?11, ?12, ?13, ?14, ?15, 0, 0, 0, 0, ?16)",
	[ST_COPY] = "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, "
		    "correlationId, globalPid, bytes, copyKind, srcKind, dstKind, srcDeviceId, dstDeviceId) "
		    "VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	[ST_CALL] =
		"INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, "
		"nameId, returnValue) VALUES (?1, ?2, 0, ?3, ?4, ?5, 0)",
	[ST_NVTX] =
		"INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId, domainId) VALUES "
		"(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_STRING] = "INSERT INTO StringIds (id, value) VALUES (?1, ?2)",
	[ST_META] = "INSERT INTO META_DATA_EXPORT (name, value) VALUES (?1, ?2)",
	[ST_GPU] =
		"INSERT INTO TARGET_INFO_GPU (vmId, id, name, busLocation, isDiscrete, totalMemory, smCount, "
		"uuid, cuDevice) VALUES (?1, ?2, 'rpdgen GPU', ?3, 1, 85899345920, 132, ?4, ?2)",
	[ST_THREAD] = "INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (?1, 10, ?2)",
};

/* NVTX event types (ENUM_NSYS_EVENT_TYPE). */
enum { NVTX_MARK = 34, NVTX_THREAD = 39, NVTX_PUSH_POP = 59, NVTX_START_END = 60, NVTX_DOMAIN = 75 };

struct nsys_out {
	struct dbwriter w;
	struct strtab strings; /* StringIds, written at the end */
	int64_t grid_id;
};

static int64_t global_tid(int64_t pid, int64_t tid)
{
	return GLOBAL_VM | (pid & 0xFFFFFF) << 24 | (tid & 0xFFFFFF);
}

static int64_t string_id(struct nsys_out *o, const char *s)
{
	return strtab_intern(&o->strings, s);
}

/* Bind values to statement i from ?1 on: integers, or NULL where
 * null[k] is set. */
static void bind(struct nsys_out *o, int i, const int64_t *v, const int *null, int n)
{
	for (int k = 0; k < n; k++) {
		if (null && null[k])
			sqlite3_bind_null(o->w.st[i], k + 1);
		else
			sqlite3_bind_int64(o->w.st[i], k + 1, v[k]);
	}
}

/* The name before a demangled name's template arguments and parameters,
 * without its scope: what nsys keeps as shortName. */
static char *short_name(const char *name)
{
	static const char anonymous[] = "(anonymous namespace)";
	size_t end = strcspn(name, "(<");
	while (strncmp(name + end, anonymous, sizeof(anonymous) - 1) == 0)
		end += sizeof(anonymous) - 1 + strcspn(name + end + sizeof(anonymous) - 1, "(<");
	size_t start = end;
	while (start > 0 && name[start - 1] != ' ' && name[start - 1] != ':')
		start--;
	if (start == end)
		return xstrdup(name);
	char *s = xmalloc(end - start + 1);
	memcpy(s, name + start, end - start);
	s[end - start] = '\0';
	return s;
}

static int kernel_row(struct nsys_out *o, const struct gen_op *op)
{
	const char *raw = op->kernel->kernel ? op->kernel->kernel : op->desc;
	int mangled = strncmp(raw, "_Z", 2) == 0;
	char *demangled = mangled ? name_demangle(raw) : NULL;
	const char *full = demangled ? demangled : raw;
	char *brief = short_name(full);
	int64_t v[16] = { op->start,
			  op->end,
			  op->gpu,
			  op->queue,
			  op->launch,
			  global_tid(op->pid, 0),
			  string_id(o, full),
			  string_id(o, brief),
			  mangled ? string_id(o, raw) : 0,
			  op->kernel->grid[0] / (op->kernel->workgroup[0] ? op->kernel->workgroup[0] : 1),
			  op->kernel->grid[1] ? op->kernel->grid[1] : 1,
			  op->kernel->grid[2] ? op->kernel->grid[2] : 1,
			  op->kernel->workgroup[0],
			  op->kernel->workgroup[1] ? op->kernel->workgroup[1] : 1,
			  op->kernel->workgroup[2] ? op->kernel->workgroup[2] : 1,
			  ++o->grid_id };
	int null[16] = { [4] = op->launch == 0, [8] = !mangled };
	free(demangled);
	free(brief);
	bind(o, ST_KERNEL, v, null, 16);
	return dbwriter_step(&o->w, ST_KERNEL);
}

/* A copy by its hipMemcpyKind (1 H2D, 2 D2H, 3 D2D) as CUPTI's copyKind,
 * from pageable host memory or the device, to the device or pageable host
 * memory (ENUM_CUDA_MEM_KIND: 0 pageable, 2 device). */
static int copy_row(struct nsys_out *o, const struct gen_op *op)
{
	static const int64_t kinds[] = { 0, 1, 2, 8 };
	int k = op->copy->kind;
	int64_t v[12] = { op->start,      op->end,    op->gpu,
			  op->queue,      op->launch, global_tid(op->pid, 0),
			  op->copy->size, kinds[k],   k == 1 ? 0 : 2,
			  k == 2 ? 0 : 2, op->gpu,    op->gpu };
	int null[12] = { [4] = op->launch == 0, [10] = k == 1, [11] = k == 2 };
	bind(o, ST_COPY, v, null, 12);
	return dbwriter_step(&o->w, ST_COPY);
}

static int nsys_op(void *ctx, const struct gen_op *op)
{
	struct nsys_out *o = ctx;
	if (op->kernel)
		return kernel_row(o, op);
	if (op->copy && op->copy->kind >= 1 && op->copy->kind <= 3)
		return copy_row(o, op);
	return 0;
}

static int nvtx_row(struct nsys_out *o, int64_t start, const int64_t *end, int type, const char *text,
		    int64_t text_id, int64_t gtid, int64_t domain)
{
	sqlite3_stmt *st = o->w.st[ST_NVTX];
	int64_t v[7] = { start, end ? *end : 0, type, 0, gtid, text_id, domain };
	int null[7] = { [1] = !end, [3] = 1, [5] = text_id == 0, [6] = domain == 0 };
	bind(o, ST_NVTX, v, null, 7);
	if (text)
		sqlite3_bind_text(st, 4, text, -1, SQLITE_TRANSIENT);
	return dbwriter_step(&o->w, ST_NVTX);
}

/* A roctx range or mark as an NVTX event; another call as the runtime's. */
static int nsys_api(void *ctx, const struct gen_api *a)
{
	struct nsys_out *o = ctx;
	int64_t gtid = global_tid(a->pid, a->tid);
	if (strcmp(a->name, "UserMarker") == 0) {
		if (a->start == a->end)
			return nvtx_row(o, a->start, NULL, NVTX_MARK, a->args, 0, gtid, 0);
		if (strncmp(a->args, "step ", 5) == 0)
			return nvtx_row(o, a->start, &a->end, NVTX_START_END, a->args, 0, gtid, 0);
		return nvtx_row(o, a->start, &a->end, NVTX_PUSH_POP, NULL, string_id(o, a->args), gtid, 0);
	}
	int64_t v[5] = { a->start, a->end, gtid, a->id, string_id(o, a->name) };
	bind(o, ST_CALL, v, NULL, 5);
	return dbwriter_step(&o->w, ST_CALL);
}

static int nsys_link(void *ctx, int64_t api, int64_t op)
{
	(void)ctx;
	(void)api;
	(void)op;
	return 0;
}

/* A string of StringIds, a row of META_DATA_EXPORT. */
static int string_row(struct nsys_out *o, int64_t id, const char *value)
{
	sqlite3_bind_int64(o->w.st[ST_STRING], 1, id);
	sqlite3_bind_text(o->w.st[ST_STRING], 2, value, -1, SQLITE_TRANSIENT);
	return dbwriter_step(&o->w, ST_STRING);
}

static int meta_row(struct nsys_out *o, const char *name, const char *value)
{
	sqlite3_bind_text(o->w.st[ST_META], 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(o->w.st[ST_META], 2, value, -1, SQLITE_STATIC);
	return dbwriter_step(&o->w, ST_META);
}

/* Each process's GPU, NVTX domain and thread name, before the events. */
static int processes(struct nsys_out *o, const struct gen_params *p)
{
	for (unsigned i = 0; i < gen_processes(p); i++) {
		int64_t pid = gen_pid(p, i), gtid = global_tid(pid, pid);
		char bus[32], uuid[64], name[32];
		snprintf(bus, sizeof(bus), "0000:%02x:00.0", (0x18 + 0x10 * i) & 0xff);
		snprintf(uuid, sizeof(uuid), "GPU-00000000-0000-0000-0000-%012x", i);
		snprintf(name, sizeof(name), "rank %u", i);
		sqlite3_stmt *st = o->w.st[ST_GPU];
		sqlite3_bind_int64(st, 1, GLOBAL_VM);
		sqlite3_bind_int64(st, 2, i);
		sqlite3_bind_text(st, 3, bus, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 4, uuid, -1, SQLITE_TRANSIENT);
		int64_t thread[2] = { string_id(o, name), gtid };
		if (dbwriter_step(&o->w, ST_GPU))
			return -1;
		bind(o, ST_THREAD, thread, NULL, 2);
		if (dbwriter_step(&o->w, ST_THREAD) ||
		    nvtx_row(o, 0, NULL, NVTX_DOMAIN, "rpdgen", 0, gtid, 1) ||
		    nvtx_row(o, 0, NULL, NVTX_THREAD, name, 0, gtid, 0))
			return -1;
	}
	return 0;
}

int demo_write_nsys(const char *path, const struct gen_params *p, const struct demo_output *out,
		    struct rpd_error *err)
{
	struct nsys_out o = { 0 };
	if (dbwriter_open(&o.w, path, out->force, schema, statements, ST_COUNT, err))
		return -1;
	strtab_init(&o.strings);
	struct gen_sink sink = { .ctx = &o, .op = nsys_op, .api = nsys_api, .link = nsys_link };
	int rc = processes(&o, p) || gen_run(p, &sink) ||
		 meta_row(&o, "EXPORT_PRODUCT_NAME", "rpdgen (as NVIDIA Nsight Systems)") ||
		 meta_row(&o, "EXPORT_SCHEMA_VERSION", NSYS_SCHEMA_VERSION);
	for (uint32_t i = 0; rc == 0 && i < o.strings.count; i++)
		rc = string_row(&o, i, strtab_get(&o.strings, i));
	strtab_free(&o.strings);
	if (rc) {
		err_set(err, "%s: %s", path, o.w.errmsg);
		dbwriter_abort(&o.w);
		return -1;
	}
	return dbwriter_commit(&o.w, NULL, err);
}
