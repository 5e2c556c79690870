/* The generated trace as rocprof writes a results.db (rocprof --hip-trace
 * --roctx-trace, the tables of ROCm 5.1 to 6): kernels in OPS named by
 * their names, copies in COPY named by their type, each on its GPU (dev-id)
 * and queue (queue-id) with the process and thread that launched it; the
 * HIP calls in HIP, their ops sharing their Index (the correlation id);
 * roctx ranges in rocTX with their text, marks as rocprof records them, a
 * range of 1 ns; an empty KERN. Every table has __section and __lane (the
 * JSON timeline's section and lane), the op and call tables DurationNs, as
 * tblextr.py adds them. Barriers have no table and are not written. */
#include "config.h"
#include "demo/demo.h"

#include <string.h>

#include "sqlfile/dbwriter.h"

/* The sections of rocprof's JSON timeline (tblextr.py). */
enum { SECTION_ROCTX = 0, SECTION_COPY = 1, SECTION_HIP = 2, SECTION_GPU = 6 };

static const char schema[] =
	"CREATE TABLE rocTX (\"BeginNs\" INTEGER, \"EndNs\" INTEGER, \"pid\" INTEGER, \"tid\" INTEGER, "
	"\"Name\" TEXT, \"Index\" INTEGER, \"__section\" INTEGER, \"__lane\" INTEGER);"
	"CREATE TABLE HIP (\"BeginNs\" INTEGER, \"EndNs\" INTEGER, \"pid\" INTEGER, \"tid\" INTEGER, "
	"\"Name\" TEXT, \"args\" TEXT, \"Index\" INTEGER, \"Data\" TEXT, \"__section\" INTEGER, \"__lane\" "
	"INTEGER, \"DurationNs\" INTEGER);"
	"CREATE TABLE OPS (\"BeginNs\" INTEGER, \"EndNs\" INTEGER, \"dev-id\" INTEGER, \"queue-id\" INTEGER, "
	"\"Name\" TEXT, \"pid\" INTEGER, \"tid\" INTEGER, \"roctx-range\" TEXT, \"stream-id\" INTEGER, "
	"\"Index\" INTEGER, \"Data\" TEXT, \"__section\" INTEGER, \"__lane\" INTEGER, \"DurationNs\" "
	"INTEGER);"
	"CREATE TABLE COPY (\"BeginNs\" INTEGER, \"EndNs\" INTEGER, \"dev-id\" INTEGER, \"queue-id\" "
	"INTEGER, "
	"\"Name\" TEXT, \"pid\" INTEGER, \"tid\" INTEGER, \"roctx-range\" TEXT, \"stream-id\" INTEGER, "
	"\"Index\" INTEGER, \"Data\" TEXT, \"__section\" INTEGER, \"__lane\" INTEGER, \"DurationNs\" "
	"INTEGER);"
	"CREATE TABLE KERN (\"Index\" INTEGER, \"KernelName\" TEXT);";

enum { ST_ROCTX, ST_HIP, ST_OPS, ST_COPY, ST_COUNT };

#define OP_INSERT(table)                                                                                     \
	"INSERT INTO " table                                                                                 \
	" (\"BeginNs\", \"EndNs\", \"dev-id\", \"queue-id\", \"Name\", \"pid\", \"tid\", "                   \
	"\"roctx-range\", \"stream-id\", \"Index\", \"Data\", \"__section\", \"__lane\", \"DurationNs\") "   \
	"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?5, ?8, ?9, '', ?10, ?8, ?2 - ?1)"

static const char *const statements[ST_COUNT] = {
	[ST_ROCTX] = "INSERT INTO rocTX (\"BeginNs\", \"EndNs\", \"pid\", \"tid\", \"Name\", \"Index\", "
		     "\"__section\", \"__lane\") VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?4)",
	[ST_HIP] =
		"INSERT INTO HIP (\"BeginNs\", \"EndNs\", \"pid\", \"tid\", \"Name\", \"args\", \"Index\", "
		"\"Data\", \"__section\", \"__lane\", \"DurationNs\") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
		"'', "
		"2, ?4, ?2 - ?1)",
	[ST_OPS] = OP_INSERT("OPS"),
	[ST_COPY] = OP_INSERT("COPY"),
};

struct rocprof_out {
	struct dbwriter w;
	int64_t roctx; /* rocTX's Index: its rows from 0 */
};

static int op_row(void *ctx, const struct gen_op *op)
{
	struct rocprof_out *o = ctx;
	int copy = op->copy != NULL;
	if (!op->kernel && !copy)
		return 0;
	int i = copy ? ST_COPY : ST_OPS;
	sqlite3_stmt *st = o->w.st[i];
	int64_t v[] = { op->start, op->end, op->gpu, op->queue };
	for (int k = 0; k < 4; k++)
		sqlite3_bind_int64(st, k + 1, v[k]);
	sqlite3_bind_text(st, 5, copy ? op->type : op->desc, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, op->pid);
	sqlite3_bind_int64(st, 7, op->tid);
	/* rocprof numbers the streams from 1 (0: the null stream). */
	sqlite3_bind_int64(st, 8, op->queue + 1);
	if (op->launch)
		sqlite3_bind_int64(st, 9, op->launch);
	else
		sqlite3_bind_null(st, 9);
	sqlite3_bind_int64(st, 10, copy ? SECTION_COPY : SECTION_GPU + op->gpu);
	return dbwriter_step(&o->w, i);
}

/* A roctx range or mark in rocTX (a mark ends 1 ns after it starts, as
 * rocprof records one); another call in HIP. */
static int api_row(void *ctx, const struct gen_api *a)
{
	struct rocprof_out *o = ctx;
	int roctx = strcmp(a->name, "UserMarker") == 0, i = roctx ? ST_ROCTX : ST_HIP;
	sqlite3_stmt *st = o->w.st[i];
	sqlite3_bind_int64(st, 1, a->start);
	sqlite3_bind_int64(st, 2, roctx && a->end == a->start ? a->start + 1 : a->end);
	sqlite3_bind_int64(st, 3, a->pid);
	sqlite3_bind_int64(st, 4, a->tid);
	if (roctx) {
		sqlite3_bind_text(st, 5, a->args, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 6, o->roctx++);
	} else {
		sqlite3_bind_text(st, 5, a->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, a->args, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 7, a->id);
	}
	return dbwriter_step(&o->w, i);
}

static int link_row(void *ctx, int64_t api, int64_t op)
{
	(void)ctx;
	(void)api;
	(void)op;
	return 0;
}

int demo_write_rocprof(const char *path, const struct gen_params *p, const struct demo_output *out,
		       struct rpd_error *err)
{
	struct rocprof_out o = { 0 };
	if (dbwriter_open(&o.w, path, out->force, schema, statements, ST_COUNT, err))
		return -1;
	struct gen_sink sink = { .ctx = &o, .op = op_row, .api = api_row, .link = link_row };
	if (gen_run(p, &sink)) {
		err_set(err, "%s: %s", path, o.w.errmsg);
		dbwriter_abort(&o.w);
		return -1;
	}
	return dbwriter_commit(&o.w, NULL, err);
}
