/* Export of rpd inputs. Each input is read again, read-only, and its rows
 * copied table by table: a row goes out when every op and API id it holds
 * is exported; op and API ids are kept (one input) or renumbered (several);
 * strings are written as they are referenced, once each. Tables rpdtop does
 * not know (ext_autogradapi, ...) are judged by their foreign keys. */
#include "config.h"
#include "export/export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "export/export_kineto.h"
#include "export/export_nsys.h"
#include "export/export_path.h"
#include "export/export_plan.h"
#include "export/export_rocpd.h"
#include "export/export_sql.h"
#include "sqlfile/dbfile.h"
#include "sqlfile/dbwriter.h"
#include "sqlfile/sqlrun.h"
#include "util/i18n.h"
#include "util/search.h"
#include "util/sort.h"
#include "util/xalloc.h"

struct input_state {
	sqlite3 *db;
	const char *path;
	int version;
	const int64_t *ops; /* exported op ids, sorted */
	size_t nops;
	struct idmap apis;          /* exported API ids -> output ids */
	int64_t api_lo, api_hi;     /* range of the exported API ids */
	int64_t links_lo, links_hi; /* rowids of the rocpd_api_ops rows that go */
	int any_api, any_link;
	struct idmap op_out;            /* several inputs: op id -> output id */
	struct idmap code_out;          /* kernel code objects -> output ids */
	struct idmap str_out, ustr_out; /* string ids -> output string ids */
	sqlite3_stmt *str_lookup, *ustr_lookup;
};

/* The content of string id in one of the input's string tables, written
 * to the output's table on first use; *out gets its output id. */
static int out_string(struct exporter *x, struct input_state *in, int ustring, int64_t id, int64_t *out)
{
	struct idmap *cache = ustring ? &in->ustr_out : &in->str_out;
	uint32_t v;
	if (idmap_get(cache, (uint64_t)id, &v)) {
		*out = v;
		return 0;
	}
	sqlite3_stmt **lookup = ustring ? &in->ustr_lookup : &in->str_lookup;
	if (!*lookup && sqlite3_prepare_v2(in->db,
					   ustring ? "SELECT string FROM rocpd_ustring WHERE id = ?1"
						   : "SELECT string FROM rocpd_string WHERE id = ?1",
					   -1, lookup, NULL) != SQLITE_OK)
		return export_fail(x, in->db, in->path);
	sqlite3_reset(*lookup);
	sqlite3_bind_int64(*lookup, 1, id);
	int rc = sqlite3_step(*lookup);
	const char *s = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(*lookup, 0) : NULL;
	size_t len = s ? (size_t)sqlite3_column_bytes(*lookup, 0) : 0;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return export_fail(x, in->db, in->path);
	if (export_string(x, ustring, s ? s : "", len, out))
		return -1;
	idmap_put(cache, (uint64_t)id, (uint32_t)*out);
	return 0;
}

/* Translate one column of a row; *keep becomes 0 when the row must not go. */
static int translate(struct exporter *x, struct input_state *in, enum col_kind k, sqlite3_stmt *src, int col,
		     sqlite3_stmt *dst, int *keep)
{
	if (k == K_COPY || sqlite3_column_type(src, col) == SQLITE_NULL) {
		sqlite3_bind_value(dst, col + 1, sqlite3_column_value(src, col));
		return 0;
	}
	int64_t v = sqlite3_column_int64(src, col), out = v;
	uint32_t m;
	switch (k) {
	case K_OP_PK:
	case K_OP_REF:
		*keep &= sorted_has_i64(in->ops, in->nops, v);
		if (*keep && x->several) {
			if (!idmap_get(&in->op_out, (uint64_t)v, &m)) {
				m = (uint32_t)++x->next_op;
				idmap_put(&in->op_out, (uint64_t)v, m);
			}
			out = m;
		}
		break;
	case K_API_PK:
	case K_API_REF:
		*keep &= idmap_get(&in->apis, (uint64_t)v, &m);
		if (*keep && x->several) {
			if (m == 1) {
				m = (uint32_t)++x->next_api + 1;
				idmap_put(&in->apis, (uint64_t)v, m);
			}
			out = m - 1;
		}
		break;
	case K_STR:
	case K_USTR:
		if (*keep && out_string(x, in, k == K_USTR, v, &out))
			return -1;
		break;
	case K_CODE_PK:
		idmap_put(&in->code_out, (uint64_t)v, (uint32_t)v);
		break;
	case K_CODE_REF:
		if (idmap_get(&in->code_out, (uint64_t)v, &m))
			out = m;
		else if (*keep && export_code_object(x, &in->code_out, v, &out))
			return -1;
		break;
	case K_ROWID:
		if (x->several) {
			sqlite3_bind_null(dst, col + 1);
			return 0;
		}
		break;
	default:
		break;
	}
	sqlite3_bind_int64(dst, col + 1, out);
	return 0;
}

/* Tables keyed by an op or API id are read only over the range of the
 * exported ids (the key is the rowid, so this is a seek, not a scan);
 * rocpd_api_ops over the rows its first pass found. */
static int key_range(const struct input_state *in, const struct table_plan *p, int64_t *lo, int64_t *hi)
{
	if (strcmp(p->name, "rocpd_api_ops") == 0 && p->key >= 0) {
		*lo = in->any_link ? in->links_lo : 1;
		*hi = in->any_link ? in->links_hi : 0;
		return 1;
	}
	if (p->key < 0)
		return 0;
	enum col_kind k = p->kinds[p->key];
	if (k == K_OP_PK || k == K_OP_REF) {
		*lo = in->nops ? in->ops[0] : 1;
		*hi = in->nops ? in->ops[in->nops - 1] : 0;
		return 1;
	}
	if (k == K_API_PK || k == K_API_REF) {
		*lo = in->any_api ? in->api_lo : 1;
		*hi = in->any_api ? in->api_hi : 0;
		return 1;
	}
	return 0;
}

/* Copy the rows of one table that pass, translating their ids. */
static int copy_table(struct exporter *x, struct input_state *in, const struct table_plan *p,
		      uint64_t *copied)
{
	sqlite3_stmt *src;
	int64_t lo, hi;
	char *sql =
		key_range(in, p, &lo, &hi)
			? sqlite3_mprintf("SELECT * FROM main.\"%w\" WHERE rowid BETWEEN %lld AND %lld",
					  p->name, (long long)lo, (long long)hi)
			: sqlite3_mprintf("SELECT * FROM main.\"%w\"%s", p->name, p->where ? p->where : "");
	int rc = sql_prepare_one(in->db, sql, &src, in->path, x->err);
	sqlite3_free(sql);
	if (rc)
		return -1;
	if (sqlite3_column_count(src) != p->ncols) {
		sqlite3_finalize(src);
		return err_set(x->err,
			       _("%s: table %s differs from the first input's; export the inputs separately"),
			       in->path, p->name);
	}
	if (p->where && p->bind_span) {
		sqlite3_bind_int64(src, 1, x->span_end);
		sqlite3_bind_int64(src, 2, x->span_start);
	}
	while ((rc = sqlite3_step(src)) == SQLITE_ROW) {
		int keep = 1;
		for (int c = 0; c < p->ncols && keep; c++)
			if (p->kinds[c] == K_OP_PK || p->kinds[c] == K_OP_REF || p->kinds[c] == K_API_PK ||
			    p->kinds[c] == K_API_REF)
				translate(x, in, p->kinds[c], src, c, p->insert, &keep);
		for (int c = 0; c < p->ncols && keep; c++)
			if (translate(x, in, p->kinds[c], src, c, p->insert, &keep)) {
				sqlite3_finalize(src);
				return -1;
			}
		if (!keep) {
			sqlite3_clear_bindings(p->insert);
			continue;
		}
		if (sqlite3_step(p->insert) != SQLITE_DONE) {
			sqlite3_reset(p->insert);
			sqlite3_finalize(src);
			return export_fail(x, x->out.db, x->req->path);
		}
		sqlite3_reset(p->insert);
		(*copied)++;
	}
	sqlite3_finalize(src);
	return rc == SQLITE_DONE ? 0 : export_fail(x, in->db, in->path);
}

/* The ids of the exported ops of one input, sorted (ops were read in id
 * order, but a merge keeps each input's run as it was). */
static int64_t *exported_ops(const struct export_request *r, uint32_t input, size_t *n, int64_t *lo,
			     int64_t *hi, int *any)
{
	const struct trace *t = r->t;
	const struct trace_input *in = &t->inputs[input];
	int64_t *ids = xmalloc_array(in->op_count, sizeof(*ids));
	*n = 0;
	for (size_t i = in->op_first; i < in->op_first + in->op_count; i++) {
		if (!selected_op(r->sel, i))
			continue;
		ids[(*n)++] = t->ops.id ? t->ops.id[i] : in->op_id0 + (int64_t)(i - in->op_first);
		if (!*any || t->ops.start[i] < *lo)
			*lo = t->ops.start[i];
		if (!*any || t->ops.end[i] > *hi)
			*hi = t->ops.end[i];
		*any = 1;
	}
	for (size_t i = 1; i < *n; i++) {
		if (ids[i - 1] > ids[i]) {
			sort_int64(ids, *n);
			break;
		}
	}
	return ids;
}

static void keep_api(struct input_state *in, int64_t id)
{
	uint32_t v;
	if (!idmap_get(&in->apis, (uint64_t)id, &v))
		idmap_put(&in->apis, (uint64_t)id, 1);
	if (!in->any_api || id < in->api_lo)
		in->api_lo = id;
	if (!in->any_api || id > in->api_hi)
		in->api_hi = id;
	in->any_api = 1;
}

/* API calls that go: with a filter or window, those the session's
 * selection keeps (the rule of session/select.h); else all of them. The
 * links that reach exported ops go too. */
static int select_apis(struct exporter *x, struct input_state *in, uint32_t input)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(in->db, "SELECT api_id, op_id, rowid FROM rocpd_api_ops", -1, &st, NULL) !=
	    SQLITE_OK)
		return export_fail(x, in->db, in->path);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!sorted_has_i64(in->ops, in->nops, sqlite3_column_int64(st, 1)))
			continue;
		keep_api(in, sqlite3_column_int64(st, 0));
		int64_t row = sqlite3_column_int64(st, 2);
		if (!in->any_link || row < in->links_lo)
			in->links_lo = row;
		if (!in->any_link || row > in->links_hi)
			in->links_hi = row;
		in->any_link = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return export_fail(x, in->db, in->path);
	const struct export_request *r = x->req;
	if (r->sel && r->sel->filtered) {
		const struct trace_input *ti = &r->t->inputs[input];
		for (size_t i = ti->api_first; i < ti->api_first + ti->api_count; i++)
			if (selected_api(r->sel, i))
				keep_api(in, trace_api_id(r->t, i));
		return 0;
	}
	if (sqlite3_prepare_v2(in->db, "SELECT id FROM rocpd_api", -1, &st, NULL) != SQLITE_OK)
		return export_fail(x, in->db, in->path);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		keep_api(in, sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : export_fail(x, in->db, in->path);
}

static uint64_t count_apis(const struct idmap *m)
{
	return m->count;
}

static void free_input(struct input_state *in)
{
	sqlite3_finalize(in->str_lookup);
	sqlite3_finalize(in->ustr_lookup);
	sqlite3_close(in->db);
	idmap_free(&in->apis);
	idmap_free(&in->op_out);
	idmap_free(&in->code_out);
	idmap_free(&in->str_out);
	idmap_free(&in->ustr_out);
	free((void *)in->ops);
	memset(in, 0, sizeof(*in));
}

/* Did an input read without locks change meanwhile (*err says so)? */
static int changed(const char *path, const struct dbfile_stamp *stamp, struct rpd_error *err)
{
	return dbfile_unchanged(path, stamp, err) != 0;
}

/* Copy every planned table of one input. */
static int export_input(struct exporter *x, uint32_t input, int first, uint64_t *apis)
{
	const struct trace_input *ti = &x->req->t->inputs[input];
	struct input_state in = { .path = ti->path, .version = ti->schema_version };
	struct rpd_error open_err;
	struct dbfile_stamp stamp = { 0 };
	if (dbfile_open_stamped(ti->path, x->open_flags, &in.db, &stamp, &open_err))
		return changed(ti->path, &stamp, x->err) ? EXPORT_CHANGED
							 : err_set(x->err, "%s", open_err.msg);
	/* Its tables are read in one snapshot. */
	int rc = dbfile_read_begin(in.db);
	if (rc != SQLITE_OK) {
		dbfile_error(in.db, rc, ti->path, x->err);
		sqlite3_close(in.db);
		return -1;
	}
	idmap_init(&in.apis);
	idmap_init(&in.op_out);
	idmap_init(&in.code_out);
	idmap_init(&in.str_out);
	idmap_init(&in.ustr_out);
	int64_t lo = 0, hi = 0;
	int any = 0;
	in.ops = exported_ops(x->req, input, &in.nops, &lo, &hi, &any);
	rc = select_apis(x, &in, input);
	*apis += count_apis(&in.apis);
	for (size_t i = 0; rc == 0 && i < x->nplans; i++) {
		uint64_t copied = 0;
		if (x->plans[i].first_input_only && !first)
			continue;
		rc = copy_table(x, &in, &x->plans[i], &copied);
	}
	dbfile_read_end(in.db);
	free_input(&in);
	/* Whatever came of it: a file torn by a writer may fail to read. */
	if (changed(ti->path, &stamp, x->err))
		rc = EXPORT_CHANGED;
	return rc;
}

static int check_inputs(const struct export_request *r, struct rpd_error *err)
{
	const struct trace *t = r->t;
	for (size_t i = 0; i < t->ninputs; i++) {
		if (i > 0 && (t->inputs[i].format == INPUT_NSYS || t->inputs[0].format == INPUT_NSYS))
			return err_set(err, _("%s: Nsight Systems exports are exported one at a time, alone"),
				       t->inputs[i].path);
		if (t->inputs[i].format == INPUT_ROCPROF)
			return err_set(err,
				       _("%s: rocprof results.db files are exported only as rpd or rocpd "
					 "(--export-format)"),
				       t->inputs[i].path);
		if (t->inputs[i].format == INPUT_ROCPROFV3)
			return err_set(err,
				       _("%s: rocprofv3 JSON traces are exported only as rpd or rocpd "
					 "(--export-format)"),
				       t->inputs[i].path);
		if (t->inputs[i].format != t->inputs[0].format)
			return err_set(err,
				       _("%s: rpd and rocpd inputs cannot go into one export; export them "
					 "separately"),
				       t->inputs[i].path);
		if (t->inputs[i].format == INPUT_ROCPD && strcmp(t->inputs[i].path, t->inputs[0].path) != 0)
			return err_set(err, _("%s: rocpd databases are exported one at a time"),
				       t->inputs[i].path);
		if (t->inputs[i].schema_version != t->inputs[0].schema_version)
			return err_set(
				err,
				_("%s: rpd schema_version %d differs from %s's (%d); export them separately"),
				t->inputs[i].path, t->inputs[i].schema_version, t->inputs[0].path,
				t->inputs[0].schema_version);
	}
	return 0;
}

static int add_metadata(struct exporter *x, const char *tag, const char *value)
{
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("INSERT INTO main.\"%w\" (\"%w\", value) VALUES (?1, ?2)",
				    x->metadata_table ? x->metadata_table : "rocpd_metadata",
				    x->metadata_key ? x->metadata_key : "tag");
	int rc = export_prepare(x, sql, &st);
	sqlite3_free(sql);
	if (rc)
		return -1;
	sqlite3_bind_text(st, 1, tag, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : export_fail(x, x->out.db, x->req->path);
	sqlite3_finalize(st);
	return rc;
}

/* What was exported from where, recorded in the file itself. */
static int record(struct exporter *x, const struct export_result *res)
{
	const struct export_request *r = x->req;
	char buf[512];
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < r->t->ninputs; i++)
		rc = add_metadata(x, "rpdtop::exported_from", r->t->inputs[i].path);
	filter_describe(r->filter, buf, sizeof(buf));
	if (rc == 0)
		rc = add_metadata(x, "rpdtop::filter", buf);
	buf[0] = '\0';
	if (r->window->active)
		snprintf(buf, sizeof(buf), "%lld:%lld", (long long)r->window->start,
			 (long long)r->window->end);
	if (rc == 0)
		rc = add_metadata(x, "rpdtop::window", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)res->ops);
	if (rc == 0)
		rc = add_metadata(x, "rpdtop::exported_ops", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)res->apis);
	if (rc == 0)
		rc = add_metadata(x, "rpdtop::exported_api", buf);
	if (rc == 0 && x->repaired) {
		snprintf(buf, sizeof(buf), "%lld", (long long)x->repaired);
		rc = add_metadata(x, "rpdtop::placeholder_code_objects", buf);
	}
	return rc;
}

/* The output keeps the first input's text encoding (UTF-16 files exist):
 * an input attached to it must share it, and stored rows copied as they
 * are hold their text in it. Set before the first table is made. */
static int same_encoding(struct exporter *x, sqlite3 *input)
{
	sqlite3_stmt *st;
	char *set = NULL;
	if (sqlite3_prepare_v2(input, "PRAGMA encoding", -1, &st, NULL) != SQLITE_OK)
		return export_fail(x, input, export_input_path(x));
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *enc = (const char *)sqlite3_column_text(st, 0);
		if (enc && strcmp(enc, "UTF-8") != 0)
			set = sqlite3_mprintf("PRAGMA main.encoding = %Q", enc);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return export_fail(x, input, export_input_path(x));
	rc = set ? sqlguard_run_own(&x->guard, x->out.db, set) : SQLITE_OK;
	sqlite3_free(set);
	return rc == SQLITE_OK ? 0 : export_fail(x, x->out.db, x->req->path);
}

/* The span of the exported ops, for the monitor samples. */
static void exported_span(struct exporter *x)
{
	const struct trace *t = x->req->t;
	int any = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(x->req->sel, i))
			continue;
		if (!any || t->ops.start[i] < x->span_start)
			x->span_start = t->ops.start[i];
		if (!any || t->ops.end[i] > x->span_end)
			x->span_end = t->ops.end[i];
		any = 1;
	}
}

/* One try at the export, its inputs opened with flags (DBFILE_*): 0, -1,
 * or EXPORT_CHANGED when an input read without locks changed meanwhile. */
static int export_once(const struct export_request *r, unsigned flags, struct export_result *res,
		       struct rpd_error *err)
{
	struct exporter x = { .req = r, .err = err, .several = r->t->ninputs > 1, .open_flags = flags };
	memset(res, 0, sizeof(*res));
	if (check_inputs(r, err))
		return -1;
	/* rpdtop itself refuses a trace without GPU ops: so does the export. */
	if (r->sel && r->sel->nops == 0)
		return err_set(err, _("%s: nothing to export: no GPU op passes the filter and window"),
			       r->path);
	int rocpd = r->t->inputs[0].format == INPUT_ROCPD, nsys = r->t->inputs[0].format == INPUT_NSYS;
	/* The calls to keep are the selection's (a rocpd input's always): they
	 * must have been read (workspace_ready_for_export). */
	int streams =
		r->sel && r->format == EXPORT_FORMAT_INPUT && export_streams_window(r->t, r->filter, r->sel);
	if ((rocpd || (r->sel && r->sel->filtered && !streams)) && !r->t->apis_read)
		return err_set(err, _("%s: the API calls must be read before this export"), r->path);
	/* A rocpd file with several nodes is several inputs of one path. */
	if (rocpd)
		x.several = 0;
	struct input_state first = { 0 };
	struct rpd_error open_err;
	struct dbfile_stamp first_stamp = { 0 };
	if (dbfile_open_stamped(r->t->inputs[0].path, flags, &first.db, &first_stamp, &open_err))
		return changed(r->t->inputs[0].path, &first_stamp, err) ? EXPORT_CHANGED
									: err_set(err, "%s", open_err.msg);
	if (dbwriter_open(&x.out, r->path, r->force, "", NULL, 0, err)) {
		sqlite3_close(first.db);
		return -1;
	}
	/* Nsight Systems declares references to columns that are no keys
	 * (correlationId): SQLite's own writes are not checked again. */
	x.out.verify = !nsys;
	/* From here on, whatever the input's names and schema hold can do no
	 * more than describe the input. */
	int rc = dbwriter_guard(&x.out, &x.guard, err);
	if (rc == 0)
		rc = same_encoding(&x, first.db);
	strtab_init(&x.strings);
	strtab_init(&x.ustrings);
	exported_span(&x);
	if (rc == 0 && !rocpd && !nsys)
		rc = export_plan(&x, first.db, r->t->inputs[0].path);
	sqlite3_close(first.db);
	struct export_src src = { 0 };
	if (rc == 0 && !x.several) {
		size_t n;
		int64_t lo = 0, hi = 0;
		int any = 0;
		int64_t *ops = exported_ops(r, 0, &n, &lo, &hi, &any);
		rc = export_attach(&x, &src, flags);
		if (rc == 0)
			rc = rocpd  ? export_rocpd(&x, &res->apis)
			     : nsys ? export_nsys(&x, &src, ops, n, &res->apis)
				    : export_single_sql(&x, &src, ops, n, &res->apis);
		free(ops);
	}
	for (size_t i = 0; rc == 0 && x.several && i < r->t->ninputs; i++)
		rc = export_input(&x, (uint32_t)i, i == 0, &res->apis);
	res->ops = r->sel ? r->sel->nops : r->t->ops.n;
	if (rc == 0)
		rc = record(&x, res);
	if (rc == 0)
		rc = export_replay_late(&x);
	/* Whatever came of it: a file torn by a writer may fail to read. */
	if (export_src_unchanged(&x, &src) || changed(r->t->inputs[0].path, &first_stamp, err))
		rc = EXPORT_CHANGED;
	export_src_close(&src);
	export_plan_free(&x);
	strtab_free(&x.strings);
	strtab_free(&x.ustrings);
	free(x.metadata_table);
	if (rc != 0) {
		dbwriter_abort(&x.out);
		return rc == EXPORT_CHANGED ? rc : -1;
	}
	rc = dbwriter_commit(&x.out, NULL, err);
	struct stat st;
	if (rc == 0 && stat(r->path, &st) == 0)
		res->bytes = st.st_size;
	return rc;
}

int export_streams_window(const struct trace *t, const struct filter *f, const struct selection *sel)
{
	int narrowed = (f && f->n > 0) || sel->gpu_view;
	return sel->window.active && !narrowed && t->ninputs == 1 && t->inputs[0].format == INPUT_RPD;
}

int export_trace(const struct export_request *r, struct export_result *res, struct rpd_error *err)
{
	memset(res, 0, sizeof(*res));
	if (export_check_path(r->t, r->path, r->force, err))
		return -1;
	if (r->format != EXPORT_FORMAT_INPUT)
		return convert_trace(r, res, err);
	/* Kineto inputs are written as Kineto JSON (export_kineto.h). */
	if (export_kineto_wanted(r->t))
		return export_kineto(r, res, err);
	/* An input read without SQLite's locks (dbfile.h) that a writer
	 * changed meanwhile is read again under them, which keep the export
	 * to one snapshot. */
	int rc = export_once(r, 0, res, err);
	if (rc == EXPORT_CHANGED)
		rc = export_once(r, DBFILE_LOCKED, res, err);
	return rc ? -1 : 0;
}
