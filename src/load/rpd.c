#include "config.h"
#include "load/rpd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/dbfile.h"
#include "util/i18n.h"
#include "util/xalloc.h"

static const char *const required_tables[] = {
	"rocpd_op", "rocpd_string", "rocpd_api", "rocpd_api_ops", "rocpd_metadata",
};

/* State of reading one input: database string ids map to interned ids. */
struct reader {
	struct trace *t;
	sqlite3 *db;
	const char *path;
	uint32_t input;
	int version;
	struct idmap strings;   /* rocpd_string id -> interned id */
	struct idmap ustrings;  /* rocpd_ustring id -> interned id (v3 args) */
	sqlite3_stmt *lookup;   /* one rocpd_string row by id */
	size_t op_base, api_base;
	struct rpd_error *err;
};

static int fail(struct reader *r, int rc)
{
	return dbfile_error(r->db, rc, r->path, r->err);
}

/* A statement that does not prepare means a table lacks a column we read. */
static int prepare(struct reader *r, const char *sql, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(r->db, sql, -1, st, NULL);
	if (rc == SQLITE_OK)
		return 0;
	if ((rc & 0xff) == SQLITE_ERROR)
		return err_set(r->err, _("%s: unexpected rpd schema (%s)"), r->path, sqlite3_errmsg(r->db));
	return fail(r, rc);
}

static int table_exists(sqlite3 *db, const char *name, int *exists)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db,
		"SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?1",
		-1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*exists = rc == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int read_schema_version(sqlite3 *db, const char *path, int *version,
			       struct rpd_error *err)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db,
		"SELECT value FROM rocpd_metadata WHERE tag = 'schema_version'", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return dbfile_error(db, rc, path, err);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		if (rc == SQLITE_DONE)
			return err_set(err, _("%s: rpd trace without a schema_version in rocpd_metadata"), path);
		return dbfile_error(db, rc, path, err);
	}
	const char *v = (const char *)sqlite3_column_text(st, 0);
	char *end = NULL;
	long n = v ? strtol(v, &end, 10) : 0;
	int ok = v && end != v && *end == '\0';
	char shown[64];
	snprintf(shown, sizeof(shown), "%s", v ? v : "");
	sqlite3_finalize(st);
	if (!ok || (n != 2 && n != 3))
		return err_set(err, _("%s: unsupported rpd schema_version '%s' (supported: 2, 3)"),
			       path, shown);
	*version = (int)n;
	return 0;
}

int rpd_detect(sqlite3 *db, const char *path, int *version, struct rpd_error *err)
{
	int present[sizeof(required_tables) / sizeof(required_tables[0])];
	int any = 0;
	for (size_t i = 0; i < sizeof(present) / sizeof(present[0]); i++) {
		int rc = table_exists(db, required_tables[i], &present[i]);
		if (rc != SQLITE_OK)
			return dbfile_error(db, rc, path, err);
		any |= present[i];
	}
	if (!any)
		return err_set(err, _("%s: not an rpd trace (no rocpd_op table)"), path);
	for (size_t i = 0; i < sizeof(present) / sizeof(present[0]); i++)
		if (!present[i])
			return err_set(err, _("%s: rpd trace is missing the %s table"), path,
				       required_tables[i]);
	if (read_schema_version(db, path, version, err))
		return -1;
	if (*version == 3) {
		int ustring;
		int rc = table_exists(db, "rocpd_ustring", &ustring);
		if (rc != SQLITE_OK)
			return dbfile_error(db, rc, path, err);
		if (!ustring)
			return err_set(err, _("%s: rpd schema_version 3 trace is missing the rocpd_ustring table"), path);
	}
	return 0;
}

static uint32_t intern_column(struct trace *t, sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	int n = sqlite3_column_bytes(st, col);
	return strtab_intern_len(&t->strings, s ? s : "", s ? (size_t)n : 0);
}

/* A reference to a string row that does not exist still gets a visible name,
 * so a damaged trace shows its ops rather than hiding them. */
static uint32_t missing_string(struct trace *t, long long id)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "[missing string %lld]", id);
	return strtab_intern(&t->strings, buf);
}

/* Resolve a rocpd_string id, reading it on first use. Ops reference few
 * distinct strings, so point lookups beat scanning a table full of args. */
static int string_id(struct reader *r, sqlite3_int64 id, uint32_t *out)
{
	if (idmap_get(&r->strings, (uint64_t)id, out))
		return 0;
	if (!r->lookup) {
		if (prepare(r, "SELECT string FROM rocpd_string WHERE id = ?1", &r->lookup))
			return -1;
	}
	sqlite3_reset(r->lookup);
	sqlite3_bind_int64(r->lookup, 1, id);
	int rc = sqlite3_step(r->lookup);
	if (rc == SQLITE_ROW)
		*out = intern_column(r->t, r->lookup, 0);
	else if (rc == SQLITE_DONE)
		*out = missing_string(r->t, (long long)id);
	else
		return fail(r, rc);
	idmap_put(&r->strings, (uint64_t)id, *out);
	return 0;
}

/* Read a whole string table into map: used when API args are wanted, since
 * nearly every row then references a string of its own. */
static int scan_strings(struct reader *r, const char *table, struct idmap *map)
{
	char sql[128];
	sqlite3_stmt *st;
	snprintf(sql, sizeof(sql), "SELECT id, string FROM %s", table);
	if (prepare(r, sql, &st))
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		idmap_put(map, (uint64_t)sqlite3_column_int64(st, 0), intern_column(r->t, st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(r, rc);
}

static int read_ops(struct reader *r)
{
	sqlite3_stmt *st;
	if (prepare(r, "SELECT id, gpuId, queueId, start, end, description_id, opType_id "
		"FROM rocpd_op ORDER BY id", &st))
		return -1;
	int rc;
	/* Consecutive ops usually share a queue: remember the last lane. */
	int64_t last_gpu = 0, last_queue = 0;
	uint32_t lane = TRACE_NONE;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t gpu = sqlite3_column_int64(st, 1), queue = sqlite3_column_int64(st, 2);
		uint32_t desc, type;
		if (string_id(r, sqlite3_column_int64(st, 5), &desc) ||
		    string_id(r, sqlite3_column_int64(st, 6), &type)) {
			sqlite3_finalize(st);
			return -1;
		}
		if (lane == TRACE_NONE || gpu != last_gpu || queue != last_queue) {
			lane = trace_queue(r->t, trace_gpu(r->t, r->input, gpu), queue);
			last_gpu = gpu;
			last_queue = queue;
		}
		trace_add_op(r->t, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 3),
			     sqlite3_column_int64(st, 4), desc, type, lane);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(r, rc);
}

static uint32_t args_id(struct reader *r, sqlite3_int64 id)
{
	uint32_t out;
	struct idmap *map = r->version == 3 ? &r->ustrings : &r->strings;
	if (idmap_get(map, (uint64_t)id, &out))
		return out;
	return missing_string(r->t, (long long)id);
}

static int read_apis(struct reader *r)
{
	sqlite3_stmt *st;
	if (prepare(r, "SELECT id, pid, tid, start, end, apiName_id, args_id FROM rocpd_api ORDER BY id", &st))
		return -1;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint32_t name;
		if (string_id(r, sqlite3_column_int64(st, 5), &name)) {
			sqlite3_finalize(st);
			return -1;
		}
		uint32_t thread = trace_thread(r->t, r->input, sqlite3_column_int64(st, 1),
					       sqlite3_column_int64(st, 2));
		trace_add_api(r->t, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 3),
			      sqlite3_column_int64(st, 4), name,
			      args_id(r, sqlite3_column_int64(st, 6)), thread);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(r, rc);
}

/* Rows were read in id order, so an id is found by binary search. */
static uint32_t find_row(const int64_t *ids, size_t lo, size_t end, int64_t id)
{
	size_t hi = end;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && ids[lo] == id ? (uint32_t)lo : TRACE_NONE;
}

static int read_links(struct reader *r)
{
	sqlite3_stmt *st;
	if (prepare(r, "SELECT api_id, op_id FROM rocpd_api_ops", &st))
		return -1;
	int rc;
	const struct trace *t = r->t;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uint32_t api = TRACE_NONE, op = TRACE_NONE;
		if (t->apis.n > r->api_base)
			api = find_row(t->apis.id, r->api_base, t->apis.n, sqlite3_column_int64(st, 0));
		if (t->ops.n > r->op_base)
			op = find_row(t->ops.id, r->op_base, t->ops.n, sqlite3_column_int64(st, 1));
		/* Links to rows that are not there are dropped, not invented. */
		if (api != TRACE_NONE && op != TRACE_NONE)
			trace_add_link(r->t, api, op);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(r, rc);
}

static int read_all(struct reader *r, unsigned what)
{
	if ((what & LOAD_APIS) && scan_strings(r, "rocpd_string", &r->strings))
		return -1;
	if ((what & LOAD_APIS) && r->version == 3 &&
	    scan_strings(r, "rocpd_ustring", &r->ustrings))
		return -1;
	if ((what & LOAD_OPS) && read_ops(r))
		return -1;
	if ((what & LOAD_APIS) && (read_apis(r) || read_links(r)))
		return -1;
	return 0;
}

int rpd_read(struct trace *t, sqlite3 *db, uint32_t input, unsigned what,
	     struct rpd_error *err)
{
	struct reader r = {
		.t = t, .db = db, .path = t->inputs[input].path, .input = input,
		.version = t->inputs[input].schema_version,
		.op_base = t->ops.n, .api_base = t->apis.n, .err = err,
	};
	idmap_init(&r.strings);
	idmap_init(&r.ustrings);
	int rc = read_all(&r, what);
	sqlite3_finalize(r.lookup);
	idmap_free(&r.strings);
	idmap_free(&r.ustrings);
	return rc;
}
