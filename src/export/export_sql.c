/* Export of a single input in SQL: the input is attached read-only to the
 * output's connection and each table copied by one INSERT ... SELECT, its
 * ids and strings kept as they are. Several inputs go through the row by
 * row copy of export.c, which renumbers. */
#include "config.h"
#include "export/export_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export_bulk.h"
#include "export/export_select.h"
#include "sqlfile/dbfile.h"
#include "sqlfile/sqlrun.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* The one value of our own query sql into *v. Returns an SQLite code. */
static int scalar(sqlite3 *db, const char *sql, int64_t *v)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? SQLITE_OK : rc == SQLITE_DONE ? SQLITE_ERROR : rc;
}

int export_conditions(struct exporter *x, const struct table_plan *p, int skip, char **where)
{
	*where = NULL;
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("SELECT name FROM src.pragma_table_info(%Q) ORDER BY cid", p->name);
	int rc = sql_prepare_one(x->out.db, sql, &st, export_input_path(x), x->err);
	sqlite3_free(sql);
	if (rc)
		return -1;
	sqlite3_str *w = sqlite3_str_new(x->out.db);
	sqlite3_str_appendall(w, " WHERE 1");
	int c = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && c < p->ncols) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		enum col_kind k = p->kinds[c];
		if (c++ == skip)
			continue;
		if (k == K_OP_PK || k == K_OP_REF)
			sqlite3_str_appendf(w, " AND rpdtop_has(%d, \"%w\")", SET_OPS, name ? name : "");
		else if (k == K_API_PK || k == K_API_REF)
			sqlite3_str_appendf(w, " AND rpdtop_has(%d, \"%w\")", SET_APIS, name ? name : "");
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		export_fail(x, x->out.db, export_input_path(x));
	sqlite3_finalize(st);
	if (p->bind_span)
		sqlite3_str_appendf(w, " AND start < %lld AND end > %lld", (long long)x->span_end,
				    (long long)x->span_start);
	char *out = sqlite3_str_finish(w);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		sqlite3_free(out);
		return -1;
	}
	/* Fewer columns than planned would leave ids untested: every row of
	 * the table would go. */
	if (rc == SQLITE_ROW || c != p->ncols) {
		sqlite3_free(out);
		return err_set(x->err,
			       _("%s: table \"%s\" no longer has the columns it had when the export began"),
			       export_input_path(x), p->name);
	}
	if (!out)
		return err_set(x->err, _("%s: out of memory"), x->req->path);
	*where = out;
	return 0;
}

/* Referenced strings, copied with their ids: every string column of the
 * written tables marks its ids, then each marked string is copied. */
static int mark_strings(struct exporter *x, int ustring)
{
	for (size_t i = 0; i < x->nplans; i++) {
		const struct table_plan *p = &x->plans[i];
		sqlite3_stmt *st;
		char *sql =
			sqlite3_mprintf("SELECT name FROM main.pragma_table_info(%Q) ORDER BY cid", p->name);
		int rc = export_prepare(x, sql, &st);
		sqlite3_free(sql);
		if (rc)
			return -1;
		int c = 0, failed = 0;
		while (!failed && (rc = sqlite3_step(st)) == SQLITE_ROW && c < p->ncols) {
			if (p->kinds[c++] != (ustring ? K_USTR : K_STR))
				continue;
			const char *name = (const char *)sqlite3_column_text(st, 0);
			failed = export_runf(x, "SELECT count(rpdtop_mark(%d, \"%w\")) FROM main.\"%w\"",
					     SET_STRINGS, name ? name : "", p->name) != 0;
		}
		if (!failed && rc != SQLITE_DONE)
			failed = export_fail(x, x->out.db, x->req->path);
		sqlite3_finalize(st);
		if (failed)
			return -1;
	}
	return 0;
}

/* An empty set over the ids of the input's string table. */
static int string_set(struct exporter *x, int ustring, struct idset *s)
{
	/* One of min() and max() per query: each is then a b-tree descent. */
	int64_t lo = 0, hi = 0;
	int rc = scalar(x->out.db,
			ustring ? "SELECT min(rowid) FROM src.rocpd_ustring"
				: "SELECT min(rowid) FROM src.rocpd_string",
			&lo);
	if (rc == SQLITE_OK)
		rc = scalar(x->out.db,
			    ustring ? "SELECT max(rowid) FROM src.rocpd_ustring"
				    : "SELECT max(rowid) FROM src.rocpd_string",
			    &hi);
	idset_init(s, lo, hi);
	return rc == SQLITE_OK ? 0 : export_fail(x, x->out.db, export_input_path(x));
}

/* Copy the strings the written rows name; range (from string_set) becomes
 * the set they are marked in. */
static int copy_strings(struct exporter *x, struct export_sets *sets, struct idset *range,
			const struct export_bulk *bulk, int ustring)
{
	struct idset *s = &sets->set[SET_STRINGS];
	idset_free(s);
	*s = *range;
	memset(range, 0, sizeof(*range));
	if (mark_strings(x, ustring))
		return -1;
	if (bulk)
		export_bulk_marks(bulk, ustring, s);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(
		    x->out.db,
		    ustring ? "INSERT INTO main.rocpd_ustring SELECT * FROM src.rocpd_ustring WHERE id = ?1"
			    : "INSERT INTO main.rocpd_string SELECT * FROM src.rocpd_string WHERE id = ?1",
		    -1, &st, NULL) != SQLITE_OK)
		return export_fail(x, x->out.db, x->req->path);
	int64_t *ids;
	size_t n = idset_members(s, &ids);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		sqlite3_bind_int64(st, 1, ids[i]);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : export_fail(x, x->out.db, x->req->path);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	free(ids);
	return rc;
}

/* A code object id referenced but absent gets a row of zeros. */
static int repair_code_objects(struct exporter *x)
{
	for (size_t i = 0; i < x->nplans; i++) {
		const struct table_plan *p = &x->plans[i];
		if (strcmp(p->name, "rocpd_kernelapi") != 0)
			continue;
		/* Some tracers write '' for "no code object"; as a key it is 0. */
		if (export_runf(x, "UPDATE main.rocpd_kernelapi SET codeObject_id = 0 "
				   "WHERE typeof(codeObject_id) <> 'integer'"))
			return -1;
		if (export_runf(x, "INSERT INTO main.rocpd_kernelcodeobject (id, vgpr, sgpr, fbar) "
				   "SELECT DISTINCT codeObject_id, 0, 0, 0 FROM main.rocpd_kernelapi "
				   "WHERE codeObject_id NOT IN (SELECT id FROM main.rocpd_kernelcodeobject)"))
			return -1;
		x->repaired = sqlite3_changes(x->out.db);
	}
	return 0;
}

/* The range of a set's ids, or an empty one. */
static void set_range(const struct idset *s, int64_t *lo, int64_t *hi)
{
	*lo = s->count ? s->min : 1;
	*hi = s->count ? s->max : 0;
}

/* The set whose ids are the table's rowids, if any: an op or API key, or
 * for the links the rows chosen with the API calls. */
static int keyed_by(const struct table_plan *p)
{
	if (strcmp(p->name, "rocpd_api_ops") == 0)
		return SET_LINKS;
	if (p->key >= 0 && (p->kinds[p->key] == K_OP_PK || p->kinds[p->key] == K_OP_REF))
		return SET_OPS;
	if (p->key >= 0 && (p->kinds[p->key] == K_API_PK || p->kinds[p->key] == K_API_REF))
		return SET_APIS;
	return -1;
}

/* Copy the rows whose rowids are among ids (rising), run by run of
 * consecutive ids: each run is one range read, with no test per row. */
static int copy_runs(struct exporter *x, const char *table, const int64_t *ids, size_t n, const char *where)
{
	char *sql = sqlite3_mprintf(
		"INSERT INTO main.\"%w\" SELECT * FROM src.\"%w\"%s AND rowid BETWEEN ?1 AND ?2", table,
		table, where);
	sqlite3_stmt *st;
	int rc = export_prepare(x, sql, &st);
	sqlite3_free(sql);
	if (rc)
		return -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		size_t end = i;
		while (end + 1 < n && ids[end + 1] == ids[end] + 1)
			end++;
		sqlite3_bind_int64(st, 1, ids[i]);
		sqlite3_bind_int64(st, 2, ids[end]);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : export_fail(x, x->out.db, x->req->path);
		sqlite3_reset(st);
		i = end;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Runs of consecutive ids among rising ids (each costs a statement). */
static size_t count_runs(const int64_t *ids, size_t n)
{
	size_t runs = 0;
	for (size_t i = 0; i < n; i++)
		runs += i == 0 || ids[i] != ids[i - 1] + 1;
	return runs;
}

int export_copy_rowids(struct exporter *x, const char *table, int k, const struct idset *set,
		       const int64_t *ids, size_t n, const char *where)
{
	/* Read range by range while runs are long (a window); scattered rows
	 * (a filter), over the ids' range with a test each. */
	if (count_runs(ids, n) <= n / 8 + 16)
		return copy_runs(x, table, ids, n, where);
	int64_t lo, hi;
	set_range(set, &lo, &hi);
	return export_runf(
		x,
		"INSERT INTO main.\"%w\" SELECT * FROM src.\"%w\"%s AND rowid BETWEEN %lld AND %lld "
		"AND rpdtop_has(%d, rowid)",
		table, table, where, (long long)lo, (long long)hi, k);
}

static int copy_tables(struct exporter *x, struct export_src *src, const struct export_sets *sets,
		       struct export_bulk *bulk)
{
	int64_t *ids[SET_STRINGS];
	size_t count[SET_STRINGS];
	for (int k = 0; k < SET_STRINGS; k++)
		count[k] = idset_members(&sets->set[k], &ids[k]);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < x->nplans; i++) {
		const struct table_plan *p = &x->plans[i];
		int k = keyed_by(p);
		if (bulk) {
			enum fastpath done = export_bulk_table(x, bulk, src->input, p, sets, k);
			rc = done == FAST_FAILED ? -1 : 0;
			if (done != FAST_DECLINED)
				continue;
		}
		/* The links were chosen for their op and API: no other test. */
		char *where = NULL;
		if (k == SET_LINKS && !(where = sqlite3_mprintf(" WHERE 1")))
			rc = err_set(x->err, _("%s: out of memory"), x->req->path);
		else if (k != SET_LINKS)
			rc = export_conditions(x, p, k >= 0 ? p->key : -1, &where);
		if (rc)
			break;
		if (k >= 0) {
			rc = export_copy_rowids(x, p->name, k, &sets->set[k], ids[k], count[k], where);
		} else {
			rc = export_runf(x, "INSERT INTO main.\"%w\" SELECT * FROM src.\"%w\"%s", p->name,
					 p->name, where);
		}
		sqlite3_free(where);
	}
	for (int k = 0; k < SET_STRINGS; k++)
		free(ids[k]);
	return rc;
}

/* The rows copied as stored join the file: SQLite's part is committed and
 * the file closed meanwhile. AUTOINCREMENT tables (those the input has in
 * sqlite_sequence) get the sequence SQLite would have written. A table
 * that SQL copies with one statement gets it even when no row went (an
 * INSERT writes it anyway): that empty INSERT is run; a table copied by
 * the runs of a set's ids runs none when no id went. */
static int place_bulk(struct exporter *x, struct export_src *src, struct export_bulk *b)
{
	export_plan_finalize(x);
	if (dbwriter_suspend(&x->out, x->err))
		return -1;
	int rc = export_bulk_place(x, b);
	if (dbwriter_resume(&x->out, x->err))
		return -1;
	/* No sqlite_sequence in the input: no AUTOINCREMENT table. */
	sqlite3_stmt *in, *out;
	if (rc != 0 || sqlite3_prepare_v2(src->input, "SELECT 1 FROM sqlite_sequence WHERE name = ?1", -1,
					  &in, NULL) != SQLITE_OK)
		return rc;
	if (sqlite3_prepare_v2(x->out.db, "INSERT INTO main.sqlite_sequence (name, seq) VALUES (?1, ?2)", -1,
			       &out, NULL) != SQLITE_OK)
		rc = export_fail(x, x->out.db, x->req->path);
	for (size_t i = 0; rc == 0 && i < b->ntables; i++) {
		const struct bulk_table *t = &b->tables[i];
		if (t->rows == 0) {
			if (t->scanned)
				rc = export_runf(x,
						 "INSERT INTO main.\"%w\" SELECT * FROM main.\"%w\" WHERE 0",
						 t->name, t->name);
			continue;
		}
		sqlite3_reset(in);
		sqlite3_bind_text(in, 1, t->name, -1, SQLITE_STATIC);
		int has = sqlite3_step(in);
		if (has == SQLITE_DONE)
			continue;
		if (has != SQLITE_ROW) {
			rc = export_fail(x, src->input, export_input_path(x));
			break;
		}
		sqlite3_bind_text(out, 1, t->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(out, 2, t->max_rowid);
		rc = sqlite3_step(out) == SQLITE_DONE ? 0 : export_fail(x, x->out.db, x->req->path);
		sqlite3_reset(out);
	}
	sqlite3_finalize(out);
	sqlite3_finalize(in);
	return rc;
}

int export_single_sql(struct exporter *x, struct export_src *src, const int64_t *ops, size_t nops,
		      uint64_t *apis)
{
	const struct trace_input *in = &x->req->t->inputs[0];
	struct export_sets sets;
	int rc = export_choose(x, src, ops, nops, &sets);
	if (rc != SQLITE_OK)
		rc = err_set(x->err, "%s: %s", in->path, sqlite3_errmsg(src->input));
	if (rc == 0 && export_sets_register(x->out.db, &sets) != SQLITE_OK)
		rc = export_fail(x, x->out.db, x->req->path);
	struct idset strings, ustrings;
	idset_init(&ustrings, 0, 0);
	if (rc == 0)
		rc = string_set(x, 0, &strings);
	else
		idset_init(&strings, 0, 0);
	if (rc == 0 && in->schema_version >= 3) {
		idset_free(&ustrings);
		rc = string_set(x, 1, &ustrings);
	}
	struct export_bulk bulk;
	int use_bulk = rc == 0 && export_bulk_init(x, &bulk, &strings, &ustrings) == 0;
	if (rc == 0)
		rc = copy_tables(x, src, &sets, use_bulk ? &bulk : NULL);
	if (rc == 0)
		rc = copy_strings(x, &sets, &strings, use_bulk ? &bulk : NULL, 0);
	if (rc == 0 && in->schema_version >= 3)
		rc = copy_strings(x, &sets, &ustrings, use_bulk ? &bulk : NULL, 1);
	/* The functions' sets go with this call. */
	if (export_sets_register(x->out.db, NULL) != SQLITE_OK && rc == 0)
		rc = export_fail(x, x->out.db, x->req->path);
	if (rc == 0 && use_bulk && bulk.ntables)
		rc = place_bulk(x, src, &bulk);
	if (rc == 0)
		rc = repair_code_objects(x);
	int64_t n = 0;
	if (rc == 0 && scalar(x->out.db, "SELECT count(*) FROM main.rocpd_api", &n) != SQLITE_OK)
		rc = export_fail(x, x->out.db, x->req->path);
	*apis = (uint64_t)n;
	if (use_bulk)
		export_bulk_free(&bulk);
	idset_free(&strings);
	idset_free(&ustrings);
	export_sets_free(&sets);
	return rc;
}
