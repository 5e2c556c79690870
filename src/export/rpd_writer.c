#include "config.h"
#include "export/rpd_writer.h"

#include <stdio.h>
#include <stdlib.h>

#include "export/rpd_schema.h"
#include "sqlfile/dbwriter.h"
#include "trace/strtab.h"
#include "util/xalloc.h"

enum stmt_id { ST_STRING, ST_OP, ST_API, ST_LINK, ST_KERNEL, ST_COPY, ST_META, ST_MONITOR, ST_COUNT };

static const char *const stmt_sql[ST_COUNT] = {
	[ST_STRING] = "INSERT INTO rocpd_string (id, string) VALUES (?1, ?2)",
	[ST_OP] = "INSERT INTO rocpd_op (id, gpuId, queueId, sequenceId, completionSignal, start, "
		  "end, description_id, opType_id) VALUES (?1, ?2, ?3, 0, '', ?4, ?5, ?6, ?7)",
	[ST_API] = "INSERT INTO rocpd_api (id, pid, tid, start, end, apiName_id, args_id) "
		   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_LINK] = "INSERT INTO rocpd_api_ops (api_id, op_id) VALUES (?1, ?2)",
	[ST_KERNEL] = "INSERT INTO rocpd_kernelapi (api_ptr_id, stream, gridX, gridY, gridZ, "
		      "workgroupX, workgroupY, workgroupZ, groupSegmentSize, privateSegmentSize, "
		      "kernelArgAddress, aquireFence, releaseFence, codeObject_id, kernelName_id) "
		      "VALUES (?1, '0x0', ?2, ?3, ?4, ?5, ?6, ?7, 0, 0, '0x0', '', '', 1, ?8)",
	[ST_COPY] =
		"INSERT INTO rocpd_copyapi (api_ptr_id, stream, size, width, height, kind, dst, "
		"src, dstDevice, srcDevice, sync, pinned) "
		"VALUES (?1, '0x0', ?2, 0, 0, ?3, coalesce(?7, '0x0'), coalesce(?8, '0x0'), ?4, ?5, ?6, 0)",
	[ST_META] = "INSERT INTO rocpd_metadata (tag, value) VALUES (?1, ?2)",
	[ST_MONITOR] = "INSERT INTO rocpd_monitor (deviceType, deviceId, monitorType, start, end, value) "
		       "VALUES (?4, ?1, ?5, ?2, ?3, ?6)",
};

struct rpd_writer {
	struct dbwriter db;
	struct strtab strings; /* string id in the file = strtab id + 1 */
};

static int step(struct rpd_writer *w, int i)
{
	return dbwriter_step(&w->db, i);
}

static void bind_all(struct rpd_writer *w, int i, const int64_t *v, int n)
{
	for (int k = 0; k < n; k++)
		sqlite3_bind_int64(w->db.st[i], k + 1, v[k]);
}

/* Interned, so each distinct string is written once. */
static int string_id(struct rpd_writer *w, const char *s, int64_t *id)
{
	uint32_t before = w->strings.count;
	uint32_t sid = strtab_intern(&w->strings, s ? s : "");
	*id = (int64_t)sid + 1;
	if (sid < before)
		return 0;
	sqlite3_bind_int64(w->db.st[ST_STRING], 1, *id);
	sqlite3_bind_text(w->db.st[ST_STRING], 2, s ? s : "", -1, SQLITE_TRANSIENT);
	return step(w, ST_STRING);
}

int rpd_writer_open(struct rpd_writer **out, const char *path, int force, struct rpd_error *err)
{
	struct rpd_writer *w = xcalloc(1, sizeof(*w));
	*out = NULL;
	if (dbwriter_open(&w->db, path, force, rpd_schema_tables, stmt_sql, ST_COUNT, err)) {
		free(w);
		return -1;
	}
	strtab_init(&w->strings);
	/* The string table starts with "" (id 1), which strtab_init interned. */
	sqlite3_bind_int64(w->db.st[ST_STRING], 1, 1);
	sqlite3_bind_text(w->db.st[ST_STRING], 2, "", 0, SQLITE_STATIC);
	if (step(w, ST_STRING)) {
		err_set(err, "%s: %s", path, w->db.errmsg);
		rpd_writer_abort(w);
		return -1;
	}
	*out = w;
	return 0;
}

int rpd_writer_op(struct rpd_writer *w, int64_t id, int64_t gpu, int64_t queue, int64_t start, int64_t end,
		  const char *desc, const char *type)
{
	int64_t d, t;
	if (string_id(w, desc, &d) || string_id(w, type, &t))
		return -1;
	int64_t v[] = { id, gpu, queue, start, end, d, t };
	bind_all(w, ST_OP, v, 7);
	return step(w, ST_OP);
}

int rpd_writer_api(struct rpd_writer *w, int64_t id, int64_t pid, int64_t tid, int64_t start, int64_t end,
		   const char *name, const char *args)
{
	int64_t n, a;
	if (string_id(w, name, &n) || string_id(w, args, &a))
		return -1;
	int64_t v[] = { id, pid, tid, start, end, n, a };
	bind_all(w, ST_API, v, 7);
	return step(w, ST_API);
}

int rpd_writer_link(struct rpd_writer *w, int64_t api_id, int64_t op_id)
{
	int64_t v[] = { api_id, op_id };
	bind_all(w, ST_LINK, v, 2);
	return step(w, ST_LINK);
}

int rpd_writer_kernel(struct rpd_writer *w, int64_t api_id, const struct rpd_kernel_launch *k)
{
	int64_t name;
	if (string_id(w, k->kernel, &name))
		return -1;
	int64_t v[] = { api_id,          k->grid[0],      k->grid[1],      k->grid[2],
			k->workgroup[0], k->workgroup[1], k->workgroup[2], name };
	bind_all(w, ST_KERNEL, v, 8);
	return step(w, ST_KERNEL);
}

int rpd_writer_copy(struct rpd_writer *w, int64_t api_id, const struct rpd_copy_launch *c)
{
	int64_t v[] = { api_id, c->size, c->kind, c->dst_device, c->src_device, c->sync };
	bind_all(w, ST_COPY, v, 6);
	sqlite3_bind_text(w->db.st[ST_COPY], 7, c->dst, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(w->db.st[ST_COPY], 8, c->src, -1, SQLITE_TRANSIENT);
	return step(w, ST_COPY);
}

int rpd_writer_metadata(struct rpd_writer *w, const char *tag, const char *value)
{
	sqlite3_bind_text(w->db.st[ST_META], 1, tag, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(w->db.st[ST_META], 2, value, -1, SQLITE_TRANSIENT);
	return step(w, ST_META);
}

int rpd_writer_monitor(struct rpd_writer *w, const char *device_type, int64_t device, const char *type,
		       int64_t start, int64_t end, const char *value)
{
	int64_t v[] = { device, start, end };
	bind_all(w, ST_MONITOR, v, 3);
	sqlite3_bind_text(w->db.st[ST_MONITOR], 4, device_type, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(w->db.st[ST_MONITOR], 5, type, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(w->db.st[ST_MONITOR], 6, value, -1, SQLITE_TRANSIENT);
	return step(w, ST_MONITOR);
}

const char *rpd_writer_errmsg(const struct rpd_writer *w)
{
	return w->db.errmsg;
}

void rpd_writer_abort(struct rpd_writer *w)
{
	if (!w)
		return;
	dbwriter_abort(&w->db);
	strtab_free(&w->strings);
	free(w);
}

int rpd_writer_commit(struct rpd_writer *w, struct rpd_error *err)
{
	if (rpd_writer_metadata(w, "schema_version", "2") || rpd_writer_metadata(w, "session_count", "1")) {
		err_set(err, "%s: %s", w->db.path, w->db.errmsg);
		rpd_writer_abort(w);
		return -1;
	}
	int rc = dbwriter_commit(&w->db, rpd_schema_views, err);
	strtab_free(&w->strings);
	free(w);
	return rc;
}
