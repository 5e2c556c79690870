/* The input of a single-input export, attached read-only to the output's
 * connection, with a connection of its own to read names from: the
 * filter's judge of names for the SQL that copies rows (rpdtop_pass) and
 * for the choice of rows (export_select.c). */
#include "config.h"
#include "export/export_src.h"

#include <stdlib.h>
#include <string.h>

#include "sqlfile/dbfile.h"
#include "sqlfile/sqlrun.h"

int export_src_passes(struct export_src *p, int64_t id, int ustring)
{
	if (!p->filter->n)
		return 1;
	uint64_t key = (uint64_t)id ^ (ustring ? (uint64_t)1 << 62 : 0);
	uint32_t v;
	if (idmap_get(&p->seen, key, &v))
		return (int)v;
	sqlite3_stmt *st = ustring ? p->ustr : p->str;
	const char *s = "";
	size_t len = 0;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		s = (const char *)sqlite3_column_text(st, 0);
		len = (size_t)sqlite3_column_bytes(st, 0);
	} else if (rc != SQLITE_DONE) {
		/* Judged as "", an unreadable name could pass an exclusion. */
		return -1;
	}
	v = (uint32_t)filter_passes(p->filter, s ? s : "", s ? len : 0);
	idmap_put(&p->seen, key, v);
	return (int)v;
}

/* rpdtop_pass(string_id, in_ustring): does that string pass the filter? */
static void pass_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct export_src *p = sqlite3_user_data(ctx);
	int ustring = argc > 1 && sqlite3_value_int(argv[1]);
	int v = export_src_passes(p, sqlite3_value_int64(argv[0]), ustring);
	if (v < 0)
		sqlite3_result_error(ctx, sqlite3_errmsg(p->input), -1);
	else
		sqlite3_result_int(ctx, v);
}

int export_attach(struct exporter *x, struct export_src *p)
{
	const struct trace_input *in = &x->req->t->inputs[0];
	struct rpd_error err;
	memset(p, 0, sizeof(*p));
	p->filter = x->req->filter;
	idmap_init(&p->seen);
	char *uri = dbfile_uri(in->path, &err);
	if (!uri)
		return err_set(x->err, "%s", err.msg);
	/* The one ATTACH the output's guard lets through: ours. */
	sqlite3_stmt *st;
	x->guard.own = 1;
	int rc = sqlite3_prepare_v2(x->out.db, "ATTACH ?1 AS src", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		sqlite3_finalize(st);
	}
	x->guard.own = 0;
	free(uri);
	if (rc != SQLITE_OK)
		return export_fail(x, x->out.db, in->path);
	if (dbfile_open(in->path, &p->input, &err))
		return err_set(x->err, "%s", err.msg);
	/* rocpd inputs are trimmed by the session's selection: no names to
	 * judge here (and no one string table: each process has its own). */
	if (in->format == INPUT_ROCPD)
		return 0;
	if (sqlite3_prepare_v2(p->input, "SELECT string FROM rocpd_string WHERE id = ?1", -1, &p->str,
			       NULL) ||
	    (in->format == INPUT_RPD && in->schema_version >= 3 &&
	     sqlite3_prepare_v2(p->input, "SELECT string FROM rocpd_ustring WHERE id = ?1", -1, &p->ustr,
				NULL)))
		return export_fail(x, p->input, in->path);
	/* Direct calls only: no view, trigger or default of the input's
	 * schema may call it. */
	if (sqlite3_create_function(x->out.db, "rpdtop_pass", 2,
				    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, p, pass_fn, NULL,
				    NULL) != SQLITE_OK)
		return export_fail(x, x->out.db, x->req->path);
	return 0;
}

void export_src_close(struct export_src *p)
{
	sqlite3_finalize(p->str);
	sqlite3_finalize(p->ustr);
	sqlite3_close(p->input);
	idmap_free(&p->seen);
	memset(p, 0, sizeof(*p));
}
