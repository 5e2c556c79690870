#include "config.h"
#include "export/rpd_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/rpd_schema.h"
#include "trace/strtab.h"
#include "util/i18n.h"
#include "util/xalloc.h"

enum stmt_id { ST_STRING, ST_OP, ST_API, ST_LINK, ST_KERNEL, ST_COPY, ST_META, ST_COUNT };

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
	[ST_COPY] = "INSERT INTO rocpd_copyapi (api_ptr_id, stream, size, width, height, kind, dst, "
		    "src, dstDevice, srcDevice, sync, pinned) "
		    "VALUES (?1, '0x0', ?2, 0, 0, ?3, '0x0', '0x0', ?4, ?5, ?6, 0)",
	[ST_META] = "INSERT INTO rocpd_metadata (tag, value) VALUES (?1, ?2)",
};

struct rpd_writer {
	sqlite3 *db;
	char *path, *tmp;
	int force;
	struct strtab strings;  /* string id in the file = strtab id + 1 */
	sqlite3_stmt *st[ST_COUNT];
	char errmsg[512];
};

static int sql_fail(struct rpd_writer *w)
{
	snprintf(w->errmsg, sizeof(w->errmsg), "%s", sqlite3_errmsg(w->db));
	return -1;
}

static int step(struct rpd_writer *w, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(w);
}

/* Interned, so each distinct string is written once. */
static int string_id(struct rpd_writer *w, const char *s, int64_t *id)
{
	uint32_t before = w->strings.count;
	uint32_t sid = strtab_intern(&w->strings, s ? s : "");
	*id = (int64_t)sid + 1;
	if (sid < before)
		return 0;
	sqlite3_stmt *st = w->st[ST_STRING];
	sqlite3_bind_int64(st, 1, *id);
	sqlite3_bind_text(st, 2, s ? s : "", -1, SQLITE_TRANSIENT);
	return step(w, st);
}

static char *temp_beside(const char *path, int *fd)
{
	size_t n = strlen(path) + 32;
	char *tmp = xmalloc(n);
	snprintf(tmp, n, "%s.tmp.XXXXXX", path);
	*fd = mkstemp(tmp);
	if (*fd < 0) {
		free(tmp);
		return NULL;
	}
	/* mkstemp makes the file private; the result is an ordinary file. */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(*fd, 0666 & ~mask) != 0) {
		int saved = errno;
		close(*fd);
		unlink(tmp);
		free(tmp);
		errno = saved;
		return NULL;
	}
	return tmp;
}

static int setup(struct rpd_writer *w, struct rpd_error *err)
{
	static const char pragmas[] =
		"PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;"
		"PRAGMA page_size = 4096; BEGIN;";
	int rc = sqlite3_open_v2(w->tmp, &w->db, SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(w->db, pragmas, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(w->db, rpd_schema_tables, NULL, NULL, NULL);
	for (int i = 0; rc == SQLITE_OK && i < ST_COUNT; i++)
		rc = sqlite3_prepare_v2(w->db, stmt_sql[i], -1, &w->st[i], NULL);
	if (rc != SQLITE_OK)
		return err_set(err, "%s: %s", w->path, w->db ? sqlite3_errmsg(w->db) : sqlite3_errstr(rc));
	/* The string table starts with "" (id 1), which strtab_init interned. */
	sqlite3_stmt *st = w->st[ST_STRING];
	sqlite3_bind_int64(st, 1, 1);
	sqlite3_bind_text(st, 2, "", 0, SQLITE_STATIC);
	return step(w, st) ? err_set(err, "%s: %s", w->path, w->errmsg) : 0;
}

int rpd_writer_open(struct rpd_writer **out, const char *path, int force, struct rpd_error *err)
{
	*out = NULL;
	if (!force && access(path, F_OK) == 0)
		return err_set(err, _("%s: already exists (use --force to replace it)"), path);
	int fd;
	char *tmp = temp_beside(path, &fd);
	if (!tmp)
		return err_set(err, _("%s: cannot create a file there: %s"), path, strerror(errno));
	close(fd);
	struct rpd_writer *w = xcalloc(1, sizeof(*w));
	w->path = xstrdup(path);
	w->tmp = tmp;
	w->force = force;
	strtab_init(&w->strings);
	if (setup(w, err)) {
		rpd_writer_abort(w);
		return -1;
	}
	*out = w;
	return 0;
}

int rpd_writer_op(struct rpd_writer *w, int64_t id, int64_t gpu, int64_t queue, int64_t start,
		  int64_t end, const char *desc, const char *type)
{
	int64_t d, t;
	if (string_id(w, desc, &d) || string_id(w, type, &t))
		return -1;
	sqlite3_stmt *st = w->st[ST_OP];
	int64_t v[] = { id, gpu, queue, start, end, d, t };
	for (int i = 0; i < 7; i++)
		sqlite3_bind_int64(st, i + 1, v[i]);
	return step(w, st);
}

int rpd_writer_api(struct rpd_writer *w, int64_t id, int64_t pid, int64_t tid, int64_t start,
		   int64_t end, const char *name, const char *args)
{
	int64_t n, a;
	if (string_id(w, name, &n) || string_id(w, args, &a))
		return -1;
	sqlite3_stmt *st = w->st[ST_API];
	int64_t v[] = { id, pid, tid, start, end, n, a };
	for (int i = 0; i < 7; i++)
		sqlite3_bind_int64(st, i + 1, v[i]);
	return step(w, st);
}

int rpd_writer_link(struct rpd_writer *w, int64_t api_id, int64_t op_id)
{
	sqlite3_bind_int64(w->st[ST_LINK], 1, api_id);
	sqlite3_bind_int64(w->st[ST_LINK], 2, op_id);
	return step(w, w->st[ST_LINK]);
}

int rpd_writer_kernel(struct rpd_writer *w, int64_t api_id, const struct rpd_kernel_launch *k)
{
	int64_t name;
	if (string_id(w, k->kernel, &name))
		return -1;
	sqlite3_stmt *st = w->st[ST_KERNEL];
	int64_t v[] = { api_id, k->grid[0], k->grid[1], k->grid[2],
			k->workgroup[0], k->workgroup[1], k->workgroup[2], name };
	for (int i = 0; i < 8; i++)
		sqlite3_bind_int64(st, i + 1, v[i]);
	return step(w, st);
}

int rpd_writer_copy(struct rpd_writer *w, int64_t api_id, const struct rpd_copy_launch *c)
{
	sqlite3_stmt *st = w->st[ST_COPY];
	int64_t v[] = { api_id, c->size, c->kind, c->dst_device, c->src_device, c->sync };
	for (int i = 0; i < 6; i++)
		sqlite3_bind_int64(st, i + 1, v[i]);
	return step(w, st);
}

int rpd_writer_metadata(struct rpd_writer *w, const char *tag, const char *value)
{
	sqlite3_bind_text(w->st[ST_META], 1, tag, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(w->st[ST_META], 2, value, -1, SQLITE_TRANSIENT);
	return step(w, w->st[ST_META]);
}

const char *rpd_writer_errmsg(const struct rpd_writer *w)
{
	return w->errmsg;
}

static void close_db(struct rpd_writer *w)
{
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(w->st[i]);
	memset(w->st, 0, sizeof(w->st));
	sqlite3_close(w->db);
	w->db = NULL;
}

static void free_writer(struct rpd_writer *w)
{
	strtab_free(&w->strings);
	free(w->path);
	free(w->tmp);
	free(w);
}

void rpd_writer_abort(struct rpd_writer *w)
{
	if (!w)
		return;
	close_db(w);
	unlink(w->tmp);
	free_writer(w);
}

/* Without --force the target is claimed with link(), which fails rather
 * than replace a file that appeared while we were writing. */
static int move_into_place(struct rpd_writer *w, struct rpd_error *err)
{
	if (w->force ? rename(w->tmp, w->path) == 0 : link(w->tmp, w->path) == 0) {
		if (!w->force)
			unlink(w->tmp);
		return 0;
	}
	if (errno == EEXIST)
		return err_set(err, _("%s: already exists (use --force to replace it)"), w->path);
	return err_set(err, "%s: %s", w->path, strerror(errno));
}

int rpd_writer_commit(struct rpd_writer *w, struct rpd_error *err)
{
	int rc = SQLITE_OK;
	if (rpd_writer_metadata(w, "schema_version", "2") ||
	    rpd_writer_metadata(w, "session_count", "1"))
		rc = SQLITE_ERROR;
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(w->db, rpd_schema_views, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(w->db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		err_set(err, "%s: %s", w->path, w->errmsg[0] ? w->errmsg : sqlite3_errmsg(w->db));
		rpd_writer_abort(w);
		return -1;
	}
	close_db(w);
	/* The data must be on disk before the name points at it. */
	int fd = open(w->tmp, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) != 0)
		rc = err_set(err, "%s: %s", w->path, strerror(errno));
	else
		rc = move_into_place(w, err);
	if (fd >= 0)
		close(fd);
	if (rc != 0)
		unlink(w->tmp);
	free_writer(w);
	return rc;
}
