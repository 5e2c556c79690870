/* Export of a rocprofiler-sdk (rocpd) database: the same file layout (its
 * processes' suffixed tables, its views), trimmed process by process.
 * What goes is what the session keeps: the dispatches and copies in view
 * and the calls (regions and samples) the selection holds, which includes
 * the launchers of those ops (found by stack id when the file was read);
 * then what these rows point at: their events, the events' arguments and
 * counter values, the memory allocations the window overlaps (all without
 * one) with their events, every info table and track, and the strings the
 * kept rows name.
 * A table rpdtop does not know is trimmed by its foreign keys: a row goes
 * when every trimmed row it points at does. Nothing is left pointing at a
 * row that is not there (the output passes foreign_key_check). */
#include "config.h"
#include "export/export_rocpd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfile/sqlrun.h"
#include "util/i18n.h"
#include "util/xalloc.h"

static int fail(struct exporter *x)
{
	return export_fail(x, x->out.db, x->req->path);
}

/* Tables trimmed by the rows they hold, and the temp set of each. */
enum { T_DISPATCH, T_COPY, T_REGION, T_SAMPLE, T_ALLOCATE, T_EVENT, NTRIM };
static const char *const trimmed_base[NTRIM] = {
	"rocpd_kernel_dispatch", "rocpd_memory_copy",     "rocpd_region",
	"rocpd_sample",          "rocpd_memory_allocate", "rocpd_event",
};
static const char *const kept_set[NTRIM] = {
	"x_disp", "x_copy", "x_region", "x_sample", "x_alloc", "x_event"
};

static int make_sets(struct exporter *x)
{
	for (int i = 0; i < NTRIM; i++)
		if (export_runf(x, "CREATE TEMP TABLE %s (id INTEGER PRIMARY KEY)", kept_set[i]))
			return -1;
	return 0;
}

static int clear_sets(struct exporter *x)
{
	for (int i = 0; i < NTRIM; i++)
		if (export_runf(x, "DELETE FROM temp.%s", kept_set[i]))
			return -1;
	return 0;
}

static int drop_sets(struct exporter *x)
{
	for (int i = 0; i < NTRIM; i++)
		if (export_runf(x, "DROP TABLE temp.%s", kept_set[i]))
			return -1;
	return 0;
}

/* The ops and calls of one process (input) that the selection keeps, into
 * their sets: ids as the reader made them (copies and samples offset). */
static int fill_kept(struct exporter *x, const struct trace_input *in)
{
	const struct trace *t = x->req->t;
	sqlite3_stmt *add[NTRIM] = { 0 };
	int rc = 0;
	for (int i = 0; rc == 0 && i < T_ALLOCATE; i++) {
		char *sql = sqlite3_mprintf("INSERT OR IGNORE INTO temp.%s VALUES (?1)", kept_set[i]);
		rc = export_prepare(x, sql, &add[i]);
		sqlite3_free(sql);
	}
	for (size_t i = in->op_first; rc == 0 && i < in->op_first + in->op_count; i++) {
		if (!selected_op(x->req->sel, i))
			continue;
		int64_t id = trace_op_id(t, i);
		int copy = id >= ROCPD_COPY_ID_BASE;
		sqlite3_bind_int64(add[copy ? T_COPY : T_DISPATCH], 1, copy ? id - ROCPD_COPY_ID_BASE : id);
		rc = sqlite3_step(add[copy ? T_COPY : T_DISPATCH]) == SQLITE_DONE ? 0 : fail(x);
		sqlite3_reset(add[copy ? T_COPY : T_DISPATCH]);
	}
	for (size_t i = in->api_first; rc == 0 && i < in->api_first + in->api_count; i++) {
		if (!selected_api(x->req->sel, i))
			continue;
		int64_t id = trace_api_id(t, i);
		int sample = id >= ROCPD_SAMPLE_ID_BASE;
		sqlite3_bind_int64(add[sample ? T_SAMPLE : T_REGION], 1,
				   sample ? id - ROCPD_SAMPLE_ID_BASE : id);
		rc = sqlite3_step(add[sample ? T_SAMPLE : T_REGION]) == SQLITE_DONE ? 0 : fail(x);
		sqlite3_reset(add[sample ? T_SAMPLE : T_REGION]);
	}
	for (int i = 0; i < NTRIM; i++)
		sqlite3_finalize(add[i]);
	return rc;
}

static int copy_where(struct exporter *x, const char *table, const char *where)
{
	return export_runf(x, "INSERT INTO main.\"%w\" SELECT * FROM src.\"%w\" WHERE %s", table, table,
			   where);
}

/* A process's table, base and suffix, in buf. */
static const char *name_of(const char *base, const char *suffix, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", base, suffix);
	return buf;
}

/* Does the input have this table? */
static int has_table(struct exporter *x, const char *name, int *exists)
{
	sqlite3_stmt *st;
	if (export_prepare(x, "SELECT 1 FROM src.sqlite_master WHERE type = 'table' AND name = ?1", &st))
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	*exists = rc == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : fail(x);
}

/* The events the kept rows point at, then the rows pointing at kept
 * events (arguments, counter values): each table's event_id column. */
static int copy_process_rows(struct exporter *x, const char *s)
{
	char t[NTRIM][256];
	int exists[NTRIM];
	for (int i = 0; i < NTRIM; i++)
		if (has_table(x, name_of(trimmed_base[i], s, t[i], sizeof(t[i])), &exists[i]))
			return -1;
	/* Allocations are not in the trace: those the window overlaps go, all
	 * of them without a window (they precede the ops they serve). */
	const struct window *w = x->req->window;
	if (exists[T_ALLOCATE] &&
	    export_runf(x,
			"INSERT INTO temp.x_alloc SELECT id FROM src.\"%w\" WHERE %d OR (start < %lld AND "
			"end > %lld)",
			t[T_ALLOCATE], !w->active, (long long)w->end, (long long)w->start))
		return -1;
	for (int i = 0; i < T_EVENT; i++) {
		if (!exists[i])
			continue;
		char where[64];
		snprintf(where, sizeof(where), "id IN temp.%s", kept_set[i]);
		if (copy_where(x, t[i], where) ||
		    export_runf(x,
				"INSERT OR IGNORE INTO temp.x_event SELECT event_id FROM main.\"%w\" "
				"WHERE event_id IS NOT NULL",
				t[i]))
			return -1;
	}
	return copy_where(x, t[T_EVENT], "id IN temp.x_event");
}

/* A column of table pointing (by foreign key) at one of the process's
 * tables: which of the trimmed ones, or -1 for another. */
static int points_at(const char *to, const char *s)
{
	char name[256];
	for (int i = 0; i < NTRIM; i++)
		if (strcmp(to, name_of(trimmed_base[i], s, name, sizeof(name))) == 0)
			return i;
	return -1;
}

/* Columns that point at rows by id in files written without foreign
 * keys (rpdtop's own, before): to the string table, or to events. */
static const struct {
	const char *table, *column;
} string_refs[] = {
	{ "rocpd_region", "name_id" },		     { "rocpd_memory_copy", "name_id" },
	{ "rocpd_memory_copy", "region_name_id" },   { "rocpd_kernel_dispatch", "region_name_id" },
	{ "rocpd_event", "category_id" },	     { "rocpd_track", "name_id" },
}, event_refs[] = {
	{ "rocpd_arg", "event_id" },
	{ "rocpd_pmc_event", "event_id" },
};

/* Is table the process's table base? */
static int is_table(const char *table, const char *base, const char *s)
{
	size_t n = strlen(base);
	return strncmp(table, base, n) == 0 && strcmp(table + n, s) == 0;
}

/* The condition a row of another table meets to go: each foreign key to
 * a trimmed table is NULL or kept. "1" for a table without one. */
static int fk_condition(struct exporter *x, const char *table, const void *suffix, sqlite3_str *where)
{
	const char *s = suffix;
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("SELECT \"table\", \"from\" FROM src.pragma_foreign_key_list(%Q)", table);
	int rc = export_prepare(x, sql, &st);
	sqlite3_free(sql);
	if (rc)
		return -1;
	sqlite3_str_appendall(where, "1");
	for (size_t i = 0; i < sizeof(event_refs) / sizeof(event_refs[0]); i++)
		if (is_table(table, event_refs[i].table, s))
			sqlite3_str_appendf(where, " AND (\"%w\" IS NULL OR \"%w\" IN temp.x_event)",
					    event_refs[i].column, event_refs[i].column);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *to = (const char *)sqlite3_column_text(st, 0);
		const char *from = (const char *)sqlite3_column_text(st, 1);
		int k = to && from ? points_at(to, s) : -1;
		if (k >= 0)
			sqlite3_str_appendf(where, " AND (\"%w\" IS NULL OR \"%w\" IN temp.%s)", from, from,
					    kept_set[k]);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(x);
}

/* The condition a table's rows meet to go, written into where. */
typedef int (*condition_fn)(struct exporter *x, const char *table, const void *ctx, sqlite3_str *where);

/* Copy the rows of table that meet the condition fn writes. */
static int copy_meeting(struct exporter *x, const char *table, condition_fn fn, const void *ctx)
{
	sqlite3_str *where = sqlite3_str_new(x->out.db);
	int rc = fn(x, table, ctx, where);
	char *cond = sqlite3_str_finish(where);
	if (rc == 0)
		rc = cond ? copy_where(x, table, cond)
			  : err_set(x->err, _("%s: out of memory"), x->req->path);
	sqlite3_free(cond);
	return rc;
}

/* Is table one of the process's trimmed tables (copied already)? */
static int trimmed(const char *table, const char *s)
{
	return points_at(table, s) >= 0;
}

/* Every other table of the process (info tables, tracks, arguments,
 * counters, tables of newer layouts), trimmed by its foreign keys. */
static int copy_others(struct exporter *x, const char *s)
{
	sqlite3_stmt *st;
	if (export_prepare(
		    x,
		    "SELECT name FROM src.sqlite_master WHERE type = 'table' AND name LIKE 'rocpd\\_%' "
		    "ESCAPE '\\' AND (?1 = '' OR substr(name, -length(?1)) = ?1)",
		    &st))
		return -1;
	sqlite3_bind_text(st, 1, s, -1, SQLITE_STATIC);
	int rc = 0, step;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (trimmed(name, s) || strncmp(name, "rocpd_string", 12) == 0)
			continue;
		rc = copy_meeting(x, name, fk_condition, s);
	}
	sqlite3_finalize(st);
	return rc;
}

static int mark_strings(struct exporter *x, const char *table, const char *column)
{
	return export_runf(
		x,
		"INSERT OR IGNORE INTO temp.x_string SELECT \"%w\" FROM main.\"%w\" WHERE \"%w\" IS NOT NULL",
		column, table, column);
}

/* The strings every copied row of the process names: each column with a
 * foreign key to its string table, and those known to point there. */
static int copy_strings(struct exporter *x, const char *s)
{
	char strings[256];
	name_of("rocpd_string", s, strings, sizeof(strings));
	sqlite3_stmt *st;
	if (export_prepare(x,
			   "SELECT m.name, f.\"from\" FROM main.sqlite_master m, "
			   "main.pragma_foreign_key_list(m.name) "
			   "f WHERE m.type = 'table' AND f.\"table\" = ?1",
			   &st))
		return -1;
	sqlite3_bind_text(st, 1, strings, -1, SQLITE_STATIC);
	int rc = export_runf(x, "CREATE TEMP TABLE x_string (id INTEGER PRIMARY KEY)"), step;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = mark_strings(x, (const char *)sqlite3_column_text(st, 0),
				  (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	for (size_t i = 0; rc == 0 && i < sizeof(string_refs) / sizeof(string_refs[0]); i++) {
		char table[256];
		int exists;
		rc = has_table(x, name_of(string_refs[i].table, s, table, sizeof(table)), &exists);
		if (rc == 0 && exists)
			rc = mark_strings(x, table, string_refs[i].column);
	}
	if (rc == 0)
		rc = copy_where(x, strings, "id IN temp.x_string");
	if (rc == 0)
		rc = export_runf(x, "DROP TABLE temp.x_string");
	return rc;
}

static int count_rows(struct exporter *x, const char *table, uint64_t *n)
{
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("SELECT count(*) FROM main.\"%w\"", table);
	int rc = export_prepare(x, sql, &st);
	sqlite3_free(sql);
	if (rc)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n += (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : fail(x);
}

/* One process: its kept rows, what they point at, its other tables, its
 * strings. Files rpdtop wrote with several nodes hold them in one
 * process: its first input's runs are the whole file's. */
static int export_process(struct exporter *x, const struct trace_input *in, uint64_t *apis)
{
	const char *s = in->uuid ? in->uuid : "";
	char regions[256], samples[256];
	int has_samples;
	int rc = clear_sets(x);
	if (rc == 0)
		rc = fill_kept(x, in);
	if (rc == 0)
		rc = copy_process_rows(x, s);
	if (rc == 0)
		rc = copy_others(x, s);
	if (rc == 0)
		rc = copy_strings(x, s);
	if (rc == 0)
		rc = count_rows(x, name_of("rocpd_region", s, regions, sizeof(regions)), apis);
	if (rc == 0)
		rc = has_table(x, name_of("rocpd_sample", s, samples, sizeof(samples)), &has_samples);
	if (rc == 0 && has_samples)
		rc = count_rows(x, samples, apis);
	return rc;
}

/* Is table one of a process's (rocpd_..., ending in an input's suffix)? */
static int owned(const struct trace *t, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < t->ninputs; i++) {
		const char *s = t->inputs[i].uuid ? t->inputs[i].uuid : "";
		size_t k = strlen(s);
		if (strncmp(name, "rocpd_", 6) == 0 && n >= k && strcmp(name + n - k, s) == 0)
			return 1;
	}
	return 0;
}

/* The condition a row of a table of no process meets to go: each foreign
 * key to a process's table points at a row that went (those tables are
 * all written by now). "1" for a table without one. A key of several
 * columns is checked column by column: a row it lets through wrongly
 * fails the check before the rename, never goes unnoticed. */
static int unowned_condition(struct exporter *x, const char *table, const void *unused, sqlite3_str *where)
{
	(void)unused;
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("SELECT \"table\", \"from\", \"to\" FROM src.pragma_foreign_key_list(%Q)",
				    table);
	int rc = export_prepare(x, sql, &st);
	sqlite3_free(sql);
	if (rc)
		return -1;
	sqlite3_str_appendall(where, "1");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *to = (const char *)sqlite3_column_text(st, 0);
		const char *from = (const char *)sqlite3_column_text(st, 1);
		const char *key = (const char *)sqlite3_column_text(st, 2);
		if (to && from && owned(x->req->t, to))
			sqlite3_str_appendf(
				where, " AND (\"%w\" IS NULL OR \"%w\" IN (SELECT \"%w\" FROM main.\"%w\"))",
				from, from, key ? key : "rowid", to);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(x);
}

/* Tables of no process (a user's own) go whole, but for rows pointing at
 * a process's rows that did not go. */
static int copy_unowned(struct exporter *x)
{
	sqlite3_stmt *st;
	if (export_prepare(
		    x,
		    "SELECT name FROM src.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
		    "ESCAPE '\\'",
		    &st))
		return -1;
	int rc = 0, step;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (owned(x->req->t, name))
			continue;
		rc = copy_meeting(x, name, unowned_condition, NULL);
	}
	sqlite3_finalize(st);
	return rc;
}

int export_rocpd(struct exporter *x, uint64_t *apis)
{
	const struct trace *t = x->req->t;
	*apis = 0;
	int rc = export_replay_schema(x, NULL);
	if (rc == 0)
		rc = make_sets(x);
	/* A process is an input with a suffix of its own (the first of a
	 * file's several nodes carries its rows). */
	for (size_t i = 0; rc == 0 && i < t->ninputs; i++) {
		int first = 1;
		for (size_t k = 0; k < i; k++)
			first &= !(t->inputs[k].uuid && t->inputs[i].uuid &&
				   strcmp(t->inputs[k].uuid, t->inputs[i].uuid) == 0);
		if (first)
			rc = export_process(x, &t->inputs[i], apis);
	}
	if (rc == 0)
		rc = copy_unowned(x);
	if (rc == 0)
		rc = drop_sets(x);
	if (rc == 0) {
		char meta[256];
		x->metadata_table = xstrdup(name_of(
			"rocpd_metadata", t->inputs[0].uuid ? t->inputs[0].uuid : "", meta, sizeof(meta)));
	}
	return rc;
}
