/* Export of a rocprofiler-sdk (rocpd) database: the same file layout (its
 * uuid, its per-file tables, its views), trimmed to the exported kernel
 * dispatches and memory copies, the regions (API calls) that launched them
 * or that pass the filter and window, their events and arguments, the
 * samples and allocations of the exported span, every info table, and the
 * strings all these reference. One input at a time. */
#include "config.h"
#include "export/export_rocpd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfile/dbfile.h"
#include "sqlfile/sqlrun.h"
#include "util/i18n.h"
#include "util/xalloc.h"

static int fail(struct exporter *x)
{
	return export_fail(x, x->out.db, x->req->path);
}

/* The table of src whose name starts with base and a '_' (its uuid) into
 * *name, NULL when there is none. A failed lookup is an error, not "none":
 * the table would then be copied whole with the untrimmed ones. */
static int table_of(struct exporter *x, const char *base, char **name)
{
	sqlite3_stmt *st;
	*name = NULL;
	size_t n = strlen(base);
	if (sqlite3_prepare_v2(
		    x->out.db,
		    "SELECT name FROM src.sqlite_master WHERE type = 'table' "
		    "AND substr(name, 1, ?2) = ?1 AND substr(name, ?2 + 1, 1) = '_' ORDER BY rowid",
		    -1, &st, NULL) != SQLITE_OK)
		return fail(x);
	sqlite3_bind_text(st, 1, base, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, (int)n);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*name = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : fail(x);
}

/* The input's tables are made now, its views, indexes and triggers at the
 * end (export_replay_late). */
static int create_schema(struct exporter *x)
{
	const char *path = export_input_path(x);
	struct schema_list schema;
	if (schema_list_read(x->out.db, "src", &schema) != SQLITE_OK)
		return export_fail(x, x->out.db, path);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < schema.n; i++)
		rc = export_replay(x, &schema.v[i], path);
	schema_list_free(&schema);
	return rc;
}

static int fill_ops(struct exporter *x, const int64_t *ops, size_t n)
{
	sqlite3_stmt *disp, *copy;
	if (sql_run_script(x->out.db, "CREATE TEMP TABLE x_disp (id INTEGER PRIMARY KEY);"
				      "CREATE TEMP TABLE x_copy (id INTEGER PRIMARY KEY);"
				      "CREATE TEMP TABLE x_regions (id INTEGER PRIMARY KEY);"
				      "CREATE TEMP TABLE x_events (id INTEGER PRIMARY KEY);"
				      "CREATE TEMP TABLE x_corr (id INTEGER PRIMARY KEY)") != SQLITE_OK)
		return fail(x);
	if (sqlite3_prepare_v2(x->out.db, "INSERT INTO temp.x_disp VALUES (?1)", -1, &disp, NULL) !=
	    SQLITE_OK)
		return fail(x);
	if (sqlite3_prepare_v2(x->out.db, "INSERT INTO temp.x_copy VALUES (?1)", -1, &copy, NULL) !=
	    SQLITE_OK) {
		sqlite3_finalize(disp);
		return fail(x);
	}
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		int is_copy = ops[i] >= ROCPD_COPY_ID_BASE;
		sqlite3_stmt *st = is_copy ? copy : disp;
		sqlite3_bind_int64(st, 1, is_copy ? ops[i] - ROCPD_COPY_ID_BASE : ops[i]);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = fail(x);
		sqlite3_reset(st);
	}
	sqlite3_finalize(disp);
	sqlite3_finalize(copy);
	return rc;
}

enum {
	T_DISPATCH,
	T_COPY,
	T_REGION,
	T_EVENT,
	T_ARG,
	T_PMC_EVENT,
	T_SAMPLE,
	T_ALLOCATE,
	T_STRING,
	T_TRACK,
	T_METADATA,
	NT
};
static const char *const bases[NT] = {
	"rocpd_kernel_dispatch", "rocpd_memory_copy", "rocpd_region",          "rocpd_event",  "rocpd_arg",
	"rocpd_pmc_event",       "rocpd_sample",      "rocpd_allocate_unused", "rocpd_string", "rocpd_track",
	"rocpd_metadata",
};

/* Regions that go: the launchers of exported work (same correlation id),
 * and those whose name passes the filter and that start in the window.
 * One statement each; table names are the input's, quoted. */
static int fill_regions(struct exporter *x, char *const *t)
{
	const struct window *w = x->req->window;
	const char *pass = x->req->filter->n ? "rpdtop_pass(name_id, 0)" : "1";
	char win[160] = "1";
	if (w->active)
		snprintf(win, sizeof(win), "start >= %lld AND start < %lld", (long long)w->start,
			 (long long)w->end);
	return export_runf(x,
			   "INSERT OR IGNORE INTO temp.x_events SELECT event_id FROM src.\"%w\" "
			   "WHERE id IN temp.x_disp AND event_id IS NOT NULL",
			   t[T_DISPATCH]) ||
	       export_runf(x,
			   "INSERT OR IGNORE INTO temp.x_events SELECT event_id FROM src.\"%w\" "
			   "WHERE id IN temp.x_copy AND event_id IS NOT NULL",
			   t[T_COPY]) ||
	       export_runf(x,
			   "INSERT OR IGNORE INTO temp.x_corr SELECT correlation_id FROM src.\"%w\" "
			   "WHERE id IN temp.x_events AND correlation_id IS NOT NULL",
			   t[T_EVENT]) ||
	       export_runf(x,
			   "INSERT OR IGNORE INTO temp.x_regions SELECT R.id FROM src.\"%w\" R "
			   "JOIN src.\"%w\" E ON E.id = R.event_id WHERE E.correlation_id IN temp.x_corr",
			   t[T_REGION], t[T_EVENT]) ||
	       export_runf(x,
			   "INSERT OR IGNORE INTO temp.x_regions SELECT id FROM src.\"%w\" "
			   "WHERE %s AND %s",
			   t[T_REGION], win, pass) ||
	       export_runf(x,
			   "INSERT OR IGNORE INTO temp.x_events SELECT event_id FROM src.\"%w\" "
			   "WHERE id IN temp.x_regions AND event_id IS NOT NULL",
			   t[T_REGION]);
}

static int copy_where(struct exporter *x, const char *table, const char *where)
{
	if (!table)
		return 0;
	return export_runf(x, "INSERT INTO main.\"%w\" SELECT * FROM src.\"%w\" WHERE %s", table, table,
			   where);
}

/* Every table not trimmed (the info tables, tracks, metadata) is copied whole. */
static int copy_others(struct exporter *x, char *const *t)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(x->out.db,
			       "SELECT name FROM src.sqlite_master WHERE type = 'table' "
			       "AND name NOT LIKE 'sqlite_%'",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(x);
	int rc = 0, step = SQLITE_DONE;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		int trimmed = 0;
		for (int i = 0; i < NT; i++)
			trimmed |= t[i] && i != T_TRACK && i != T_METADATA && strcmp(t[i], name) == 0;
		if (!trimmed && strncmp(name, "rocpd_memory_allocate", 21) != 0)
			rc = copy_where(x, name, "1");
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = fail(x);
	sqlite3_finalize(st);
	return rc;
}

static int copy_trimmed(struct exporter *x, char *const *t, const char *allocate)
{
	char span[160], samples[160];
	snprintf(span, sizeof(span), "start < %lld AND end > %lld", (long long)x->span_end,
		 (long long)x->span_start);
	snprintf(samples, sizeof(samples), "timestamp >= %lld AND timestamp <= %lld",
		 (long long)x->span_start, (long long)x->span_end);
	if (copy_where(x, t[T_DISPATCH], "id IN temp.x_disp") ||
	    copy_where(x, t[T_COPY], "id IN temp.x_copy") ||
	    copy_where(x, t[T_REGION], "id IN temp.x_regions") ||
	    copy_where(x, t[T_EVENT], "id IN temp.x_events") ||
	    copy_where(x, t[T_ARG], "event_id IN temp.x_events") ||
	    copy_where(x, t[T_PMC_EVENT], "event_id IN temp.x_events") ||
	    copy_where(x, t[T_SAMPLE], samples) || copy_where(x, allocate, span))
		return -1;
	/* Strings: those the kept rows name. */
	char *where = sqlite3_mprintf(
		"id IN (SELECT name_id FROM main.\"%w\" UNION SELECT name_id FROM main.\"%w\" "
		"UNION SELECT region_name_id FROM main.\"%w\" UNION SELECT region_name_id FROM main.\"%w\" "
		"UNION SELECT category_id FROM main.\"%w\" UNION SELECT name_id FROM main.\"%w\")",
		t[T_REGION], t[T_COPY], t[T_DISPATCH], t[T_COPY], t[T_EVENT], t[T_TRACK]);
	if (!where)
		return err_set(x->err, _("%s: out of memory"), x->req->path);
	int rc = copy_where(x, t[T_STRING], where);
	sqlite3_free(where);
	return rc;
}

static int count_regions(struct exporter *x, const char *table, uint64_t *apis)
{
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("SELECT count(*) FROM main.\"%w\"", table);
	int rc = export_prepare(x, sql, &st);
	sqlite3_free(sql);
	if (rc)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*apis = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : fail(x);
}

int export_rocpd(struct exporter *x, const int64_t *ops, size_t nops, uint64_t *apis)
{
	char *t[NT] = { 0 }, *allocate = NULL;
	int rc = create_schema(x);
	for (int i = 0; rc == 0 && i < NT; i++) {
		rc = table_of(x, bases[i], &t[i]);
		if (rc == 0 && !t[i] && i != T_ALLOCATE && i != T_PMC_EVENT && i != T_SAMPLE && i != T_ARG)
			rc = err_set(x->err, _("%s: rocpd database without a %s table"), export_input_path(x),
				     bases[i]);
	}
	if (rc == 0)
		rc = table_of(x, "rocpd_memory_allocate", &allocate);
	if (rc == 0)
		rc = fill_ops(x, ops, nops);
	if (rc == 0)
		rc = fill_regions(x, t);
	if (rc == 0)
		rc = copy_trimmed(x, t, allocate);
	if (rc == 0)
		rc = copy_others(x, t);
	if (rc == 0)
		rc = count_regions(x, t[T_REGION], apis);
	if (rc == 0) {
		x->metadata_table = xstrdup(t[T_METADATA]);
		if (sql_run_script(x->out.db, "DROP TABLE temp.x_disp; DROP TABLE temp.x_copy; "
					      "DROP TABLE temp.x_regions; DROP TABLE temp.x_events; "
					      "DROP TABLE temp.x_corr") != SQLITE_OK)
			rc = fail(x);
	}
	for (int i = 0; i < NT; i++)
		free(t[i]);
	free(allocate);
	return rc;
}
