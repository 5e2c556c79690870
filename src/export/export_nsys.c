/* Export of an Nsight Systems SQLite export: the same tables, made from the
 * input's own CREATE TABLE statements, with the rows the selection keeps.
 *
 * - CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY and _MEMSET keep the rows of the
 *   exported ops, found by the numbering the reader gives them
 *   (load/nsys_rows.h).
 * - CUPTI_ACTIVITY_KIND_RUNTIME keeps the calls the rpd export keeps of
 *   rocpd_api: with a filter or window those of the selection (the rule of
 *   session/select.h), else all of them; and every call with the
 *   correlationId of an exported op (its launch).
 * - NVTX_EVENTS keeps the ranges and marks as the rpd export keeps roctx
 *   ranges (they are calls to the selection); its other rows (domains,
 *   categories, thread names) all.
 * - Every other table (StringIds, ThreadNames, TARGET_INFO_*, ENUM_*, ...)
 *   whole.
 * The export records itself in the input's own metadata table
 * (META_DATA_EXPORT, EXPORT_META_DATA in older exports: name, value), else
 * in a table rpdtop_metadata (name, value) of its own. */
#include "config.h"
#include "export/export_nsys.h"

#include <stdlib.h>
#include <string.h>

#include "export/export_select.h"
#include "export/export_sql.h"
#include "load/nsys_rows.h"
#include "util/i18n.h"
#include "util/idmap.h"
#include "util/search.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* The rowids kept of one table (rising), of its rows. */
struct kept {
	int64_t *rowid;
	size_t n, cap;
	uint64_t rows, numbered, calls; /* rows met, calls met; calls kept */
};

struct chooser {
	const struct trace *t;
	const int64_t *ops; /* the exported ops' ids, sorted */
	size_t nops;
	const int64_t *calls; /* the calls the selection keeps, sorted; */
	size_t ncalls;
	int all_calls;      /* ... or all of them (the calls may not be read) */
	struct idmap corrs; /* the correlationIds of the exported ops */
	struct kept kept[NSYS_NTABLES];
	int changed; /* a row is not what the trace read */
};

static void keep(struct kept *k, int64_t rowid)
{
	k->rowid = xgrow(k->rowid, &k->cap, k->n + 1, sizeof(*k->rowid));
	k->rowid[k->n++] = rowid;
}

/* The rows are found by their numbers: each must still be the op the
 * trace read (the file may have changed since, a cached reading kept). */
static int op_row(void *ctx, const struct nsys_row *r)
{
	struct chooser *c = ctx;
	struct kept *k = &c->kept[r->table];
	uint32_t at = trace_op_row(c->t, 0, r->id);
	k->rows++;
	if (at == TRACE_NONE || c->t->ops.start[at] != r->start || c->t->ops.end[at] != r->end) {
		c->changed = 1;
		return 1;
	}
	if (!sorted_has_i64(c->ops, c->nops, r->id))
		return 0;
	keep(k, r->rowid);
	if (r->corr != 0)
		idmap_put(&c->corrs, (uint64_t)r->corr, 1);
	return 0;
}

static int call_row(void *ctx, const struct nsys_row *r)
{
	struct chooser *c = ctx;
	struct kept *k = &c->kept[r->table];
	const struct trace_input *in = &c->t->inputs[0];
	uint32_t v;
	k->rows++;
	k->numbered += r->id != 0;
	/* An NVTX row that is no call (id 0) describes the others. */
	if (r->id == 0 || c->all_calls) {
		keep(k, r->rowid);
		k->calls += r->id != 0;
		return 0;
	}
	/* The calls were read: the row must be the one read. */
	uint32_t at = trace_api_find(c->t, in->api_first, in->api_first + in->api_count, r->id);
	if (at == TRACE_NONE || c->t->apis.start[at] != r->start) {
		c->changed = 1;
		return 1;
	}
	if (!sorted_has_i64(c->calls, c->ncalls, r->id) &&
	    !(r->corr != 0 && idmap_get(&c->corrs, (uint64_t)r->corr, &v)))
		return 0;
	keep(k, r->rowid);
	k->calls++;
	return 0;
}

/* A table's rows come again (SQL after its pages): what was kept of them
 * goes. The correlationIds noted are those the rows give again. */
static void forget(void *ctx, enum nsys_table table)
{
	struct chooser *c = ctx;
	struct kept *k = &c->kept[table];
	k->n = 0;
	k->rows = k->numbered = k->calls = 0;
}

/* The ids of the calls of the input the selection keeps, sorted. */
static int64_t *selected_calls(const struct export_request *r, size_t *n)
{
	const struct trace_input *in = &r->t->inputs[0];
	int64_t *ids = xmalloc_array(in->api_count ? in->api_count : 1, sizeof(*ids));
	*n = 0;
	for (size_t i = in->api_first; i < in->api_first + in->api_count; i++)
		if (selected_api(r->sel, i))
			ids[(*n)++] = trace_api_id(r->t, i);
	sort_int64(ids, *n);
	return ids;
}

static int fail_src(struct exporter *x, struct export_src *src, int rc)
{
	struct rpd_error err;
	dbfile_error(src->input, rc, export_input_path(x), &err);
	return err_set(x->err, "%s", err.msg);
}

/* The rows of the ops and calls to keep. */
static int choose(struct exporter *x, struct export_src *src, const struct nsys_file *f, struct chooser *c)
{
	const struct trace_input *in = &c->t->inputs[0];
	int rc = nsys_rows_each(src->input, f, 0, op_row, forget, c);
	uint64_t ops = 0, calls = 0;
	for (int k = 0; k < NSYS_NOP_TABLES; k++)
		ops += c->kept[nsys_op_tables[k]].rows;
	if (rc == SQLITE_OK && ops == in->op_count)
		rc = nsys_rows_each(src->input, f, 1, call_row, forget, c);
	for (int k = 0; k < NSYS_NCALL_TABLES; k++)
		calls += c->kept[nsys_call_tables[k]].numbered;
	if (rc != SQLITE_OK && !c->changed)
		return fail_src(x, src, rc);
	if (c->changed || ops != in->op_count || (!c->all_calls && calls != in->api_count))
		return err_set(
			x->err,
			_("%s: changed since it was read (its rows are not the trace's); open it again "
			  "to export it"),
			export_input_path(x));
	return 0;
}

/* The table of f that name is, or -1 for the tables copied whole. */
static int trimmed(const struct nsys_file *f, const char *name)
{
	static const enum nsys_table tables[] = { NSYS_KERNEL, NSYS_MEMCPY, NSYS_MEMSET, NSYS_RUNTIME,
						  NSYS_NVTX };
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if ((f->has >> tables[i] & 1) && sqlite3_stricmp(name, nsys_table_name(tables[i])) == 0)
			return (int)tables[i];
	return -1;
}

/* Does the attached input's table have a column of this name? */
static int has_column(struct exporter *x, const char *schema, const char *table, const char *column, int *has)
{
	sqlite3_stmt *st;
	char *sql =
		sqlite3_mprintf("SELECT 1 FROM \"%w\".pragma_table_info(%Q) WHERE name = %Q COLLATE NOCASE",
				schema, table, column);
	int rc = export_prepare(x, sql, &st);
	sqlite3_free(sql);
	if (rc)
		return -1;
	rc = sqlite3_step(st);
	*has = rc == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : export_fail(x, x->out.db, x->req->path);
}

/* Copy the rows of table kept: by their rowids, the table is read by. */
static int copy_kept(struct exporter *x, const char *table, const struct kept *k)
{
	int named;
	if (has_column(x, "src", table, "rowid", &named))
		return -1;
	/* A column named rowid would stand for the rowid the rows are told
	 * apart by: the rows could not be found. */
	if (named)
		return err_set(x->err, _("%s: table %s has a column named rowid; it cannot be exported"),
			       export_input_path(x), table);
	if (k->n == 0)
		return 0;
	struct export_sets sets;
	memset(&sets, 0, sizeof(sets));
	for (int i = 0; i < NSETS; i++)
		idset_init(&sets.set[i], 0, 0);
	struct idset *s = &sets.set[SET_OPS];
	idset_free(s);
	idset_init(s, k->rowid[0], k->rowid[k->n - 1]);
	for (size_t i = 0; i < k->n; i++)
		idset_add(s, k->rowid[i]);
	int rc = export_sets_register(x->out.db, &sets) == SQLITE_OK
			 ? export_copy_rowids(x, table, SET_OPS, s, k->rowid, k->n, " WHERE 1")
			 : export_fail(x, x->out.db, x->req->path);
	if (export_sets_register(x->out.db, NULL) != SQLITE_OK && rc == 0)
		rc = export_fail(x, x->out.db, x->req->path);
	export_sets_free(&sets);
	return rc;
}

static int copy_tables(struct exporter *x, const struct schema_list *tables, const struct nsys_file *f,
		       const struct chooser *c)
{
	for (size_t i = 0; i < tables->n; i++) {
		const char *name = tables->v[i].name;
		int t = trimmed(f, name);
		/* A WHERE clause, even one always true, keeps SQLite from
		 * moving the input's records over as they are stored: each is
		 * read, and a damaged one stops the export instead of making
		 * a damaged file. */
		int rc = t >= 0 && c->kept[t].n < c->kept[t].rows
				 ? copy_kept(x, name, &c->kept[t])
				 : export_runf(x, "INSERT INTO main.\"%w\" SELECT * FROM src.\"%w\" WHERE 1",
					       name, name);
		if (rc)
			return -1;
	}
	return 0;
}

/* Is name a table of the output with columns name and value? *exists
 * says whether it is a table at all. */
static int names_values(struct exporter *x, const char *name, int *exists, int *fits)
{
	sqlite3_stmt *st;
	*exists = *fits = 0;
	if (export_prepare(
		    x, "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?1 COLLATE NOCASE",
		    &st))
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*exists = rc == SQLITE_ROW;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return export_fail(x, x->out.db, x->req->path);
	int has_name = 0, has_value = 0;
	if (*exists && (has_column(x, "main", name, "name", &has_name) ||
			has_column(x, "main", name, "value", &has_value)))
		return -1;
	*fits = has_name && has_value;
	return 0;
}

#define OWN_METADATA "rpdtop_metadata"

/* Where the export records itself: the export's metadata table when it has
 * one of names and values, else rpdtop's own, made when missing. */
static int metadata_table(struct exporter *x)
{
	static const char *const theirs[] = { "META_DATA_EXPORT", "EXPORT_META_DATA", OWN_METADATA };
	int exists = 0, fits = 0;
	for (size_t i = 0; i < sizeof(theirs) / sizeof(theirs[0]); i++) {
		if (names_values(x, theirs[i], &exists, &fits))
			return -1;
		if (fits) {
			x->metadata_table = xstrdup(theirs[i]);
			x->metadata_key = "name";
			return 0;
		}
	}
	/* The input's own table of rpdtop's name, not as rpdtop makes it. */
	if (exists)
		return err_set(x->err, _("%s: table %s has no name and value columns; it cannot be exported"),
			       export_input_path(x), OWN_METADATA);
	const struct schema_obj own = { "table", OWN_METADATA, OWN_METADATA,
					"CREATE TABLE " OWN_METADATA " (name TEXT NOT NULL, value TEXT)" };
	if (export_replay(x, &own, x->req->path))
		return -1;
	x->metadata_table = xstrdup(OWN_METADATA);
	x->metadata_key = "name";
	return 0;
}

int export_nsys(struct exporter *x, struct export_src *src, const int64_t *ops, size_t nops, uint64_t *apis)
{
	const struct export_request *r = x->req;
	struct nsys_file f;
	struct chooser c = { .t = r->t, .ops = ops, .nops = nops };
	*apis = 0;
	if (nsys_detect(src->input, export_input_path(x), &f, x->err))
		return -1;
	idmap_init(&c.corrs);
	c.all_calls = !(r->sel && r->sel->filtered);
	int64_t *calls = c.all_calls ? NULL : selected_calls(r, &c.ncalls);
	c.calls = calls;
	struct schema_list tables;
	int rc = export_replay_schema(x, &tables);
	if (rc == 0)
		rc = choose(x, src, &f, &c);
	if (rc == 0)
		rc = copy_tables(x, &tables, &f, &c);
	if (rc == 0)
		rc = metadata_table(x);
	for (int t = 0; t < NSYS_NTABLES; t++) {
		*apis += c.kept[t].calls;
		free(c.kept[t].rowid);
	}
	schema_list_free(&tables);
	idmap_free(&c.corrs);
	free(calls);
	return rc;
}
