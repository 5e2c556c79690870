/* Which processes a rocpd file holds and how each is laid out. rocprofv3
 * writes one process per file; "rocpd merge" puts several in one, each
 * with its own suffixed tables and ids. The layout is told by columns:
 * the version text has meant different layouts in different trees. */
#include "config.h"
#include "load/rocpd_detect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfile/sqlread.h"
#include "util/i18n.h"
#include "util/xalloc.h"

#define ANCHOR "rocpd_kernel_dispatch"

/* Tables every process has (with its suffix). */
static const char *const required[] = {
	"rocpd_string",
	"rocpd_info_node",
	"rocpd_info_process",
	"rocpd_info_thread",
	"rocpd_info_agent",
	"rocpd_info_kernel_symbol",
	ANCHOR,
	"rocpd_memory_copy",
	"rocpd_region",
	"rocpd_event",
};

const char *rocpd_table(const struct rocpd_part *p, const char *base, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", base, p->suffix);
	return buf;
}

int rocpd_is(sqlite3 *db, const char *path, struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "rocpd", err };
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db,
				    "SELECT 1 FROM sqlite_master WHERE name = '" ANCHOR
				    "' OR name LIKE '" ANCHOR "\\_%' ESCAPE '\\' LIMIT 1",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_fail(&src, rc);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return sql_fail(&src, rc);
	return rc == SQLITE_ROW;
}

/* A column's declared type, "" when the table has no such column. */
static int column_type(sqlite3 *db, const char *table, const char *column, char *type, size_t size)
{
	char *sql = sqlite3_mprintf("SELECT type FROM pragma_table_info(%Q) WHERE name = %Q", table, column);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return rc;
	type[0] = '\0';
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(type, size, "%s",
			 sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "?");
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int layout_of(sqlite3 *db, struct rocpd_part *p)
{
	char table[256], type[64];
	rocpd_table(p, "rocpd_region", table, sizeof(table));
	int rc = column_type(db, table, "start_id", type, sizeof(type));
	if (rc == SQLITE_OK && type[0]) {
		p->layout = ROCPD_LAYOUT_SPINE;
		return rc;
	}
	if (rc == SQLITE_OK)
		rc = column_type(db, table, "track_id", type, sizeof(type));
	if (rc == SQLITE_OK && type[0]) {
		p->layout = ROCPD_LAYOUT_TRACK;
		return rc;
	}
	if (rc == SQLITE_OK)
		rc = column_type(db, rocpd_table(p, "rocpd_event", table, sizeof(table)), "extdata", type,
				 sizeof(type));
	p->layout = rc == SQLITE_OK && strcasecmp(type, "blob") == 0 ? ROCPD_LAYOUT_LZ4 : ROCPD_LAYOUT_3;
	return rc;
}

/* A tag of the process's metadata ("" when absent). Files written before
 * the suffix was used keep it in a plain rocpd_metadata. */
static int metadata(sqlite3 *db, const struct rocpd_part *p, const char *tag, char *buf, size_t size)
{
	char table[256];
	int exists;
	int rc = sql_base_table_exists(db, rocpd_table(p, "rocpd_metadata", table, sizeof(table)), &exists);
	if (rc != SQLITE_OK)
		return rc;
	char *sql = sqlite3_mprintf("SELECT value FROM \"%w\" WHERE tag = %Q",
				    exists ? table : "rocpd_metadata", tag);
	sqlite3_stmt *st;
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	buf[0] = '\0';
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Every table the process needs is there, and its layout is one read. */
static int check_part(sqlite3 *db, const char *path, struct rocpd_part *p, struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "rocpd", err };
	char table[256];
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		int exists;
		int rc =
			sql_base_table_exists(db, rocpd_table(p, required[i], table, sizeof(table)), &exists);
		if (rc != SQLITE_OK)
			return sql_fail(&src, rc);
		if (!exists)
			return err_set(err, _("%s: rocpd database is missing %s"), path, table);
	}
	int rc = layout_of(db, p);
	if (rc == SQLITE_OK)
		rc = metadata(db, p, "schema_version", p->version, sizeof(p->version));
	if (rc == SQLITE_OK)
		rc = metadata(db, p, "guid", p->guid, sizeof(p->guid));
	if (rc != SQLITE_OK)
		return sql_fail(&src, rc);
	if (!p->version[0])
		return err_set(err, _("%s: rocpd database without a schema_version in rocpd_metadata"), path);
	if (p->layout == ROCPD_LAYOUT_TRACK)
		return err_set(
			err,
			_("%s: rocpd schema %s keeps threads, agents and queues in rocpd_track (layout 4.1): "
			  "not supported"),
			path, p->version);
	if (p->layout == ROCPD_LAYOUT_SPINE)
		return err_set(err,
			       _("%s: rocpd schema %s keeps times in rocpd_timestamp (start_id, end_id): not "
				 "supported"),
			       path, p->version);
	return 0;
}

static int add_part(struct rocpd_file *f, const char *suffix)
{
	f->parts = xrealloc_array(f->parts, f->n + 1, sizeof(*f->parts));
	struct rocpd_part *p = &f->parts[f->n];
	memset(p, 0, sizeof(*p));
	if (strlen(suffix) >= sizeof(p->suffix))
		return -1;
	snprintf(p->suffix, sizeof(p->suffix), "%s", suffix);
	f->n++;
	return 0;
}

/* The suffixes of the tables named base: "" for base itself. */
static int suffixes(sqlite3 *db, const char *path, const char *base, struct rocpd_file *f,
		    struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "rocpd", err };
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(
		db,
		"SELECT substr(name, length(?1) + 1) FROM sqlite_master WHERE type = 'table' AND "
		"(name = ?1 OR substr(name, 1, length(?1) + 1) = ?1 || '_') ORDER BY rowid",
		-1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_fail(&src, rc);
	sqlite3_bind_text(st, 1, base, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *suffix = (const char *)sqlite3_column_text(st, 0);
		if (add_part(f, suffix ? suffix : "")) {
			sqlite3_finalize(st);
			return err_set(err, _("%s: rocpd table name too long"), path);
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(&src, rc);
}

int rocpd_detect(sqlite3 *db, const char *path, struct rocpd_file *f, struct rpd_error *err)
{
	memset(f, 0, sizeof(*f));
	/* A process is told by its metadata table; files that keep one plain
	 * rocpd_metadata are told by their dispatch tables instead. */
	int rc = suffixes(db, path, "rocpd_metadata", f, err);
	if (rc == 0 && (f->n == 0 || (f->n == 1 && f->parts[0].suffix[0] == '\0'))) {
		f->n = 0;
		rc = suffixes(db, path, ANCHOR, f, err);
	}
	if (rc) {
		rocpd_file_free(f);
		return -1;
	}
	if (f->n == 0)
		return err_set(err, _("%s: rocpd database is missing %s"), path, ANCHOR);
	for (size_t i = 0; i < f->n; i++) {
		if (check_part(db, path, &f->parts[i], err)) {
			rocpd_file_free(f);
			return -1;
		}
	}
	return 0;
}

void rocpd_file_free(struct rocpd_file *f)
{
	free(f->parts);
	memset(f, 0, sizeof(*f));
}
