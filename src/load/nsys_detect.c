/* An Nsight Systems export is told by its tables: StringIds, where every
 * name is, beside one of the tables of CUDA activity, NVTX or GPUs. Its
 * columns are found with pragma_table_info, its version in its export
 * metadata (META_DATA_EXPORT; EXPORT_META_DATA before 2023; none in the
 * oldest exports). */
#include "config.h"
#include "load/nsys_detect.h"

#include <stdio.h>
#include <string.h>

#include "sqlfile/sqlread.h"
#include "util/i18n.h"

static const char *const tables[NSYS_NTABLES] = {
	"CUPTI_ACTIVITY_KIND_KERNEL",
	"CUPTI_ACTIVITY_KIND_MEMCPY",
	"CUPTI_ACTIVITY_KIND_MEMSET",
	"CUPTI_ACTIVITY_KIND_RUNTIME",
	"NVTX_EVENTS",
	"StringIds",
};

#define OP_COLUMNS "start", "end", "deviceId", "streamId", "correlationId"

static const char *const columns[NSYS_NTABLES][12] = {
	[NSYS_KERNEL] = { OP_COLUMNS, "demangledName", "shortName", NULL },
	[NSYS_MEMCPY] = { OP_COLUMNS, "bytes", "copyKind", "srcKind", "dstKind", NULL },
	[NSYS_MEMSET] = { OP_COLUMNS, NULL },
	[NSYS_RUNTIME] = { "start", "end", "globalTid", "correlationId", "nameId", "name", NULL },
	[NSYS_NVTX] = { "start", "end", "eventType", "globalTid", "text", "textId", NULL },
	[NSYS_STRINGS] = { "id", "value", NULL },
};

const char *nsys_table_name(enum nsys_table table)
{
	return tables[table];
}

const char *nsys_column(enum nsys_table table, unsigned col)
{
	return col < sizeof(columns[0]) / sizeof(columns[0][0]) ? columns[table][col] : NULL;
}

int nsys_is(sqlite3 *db, const char *path, struct rpd_error *err)
{
	static const char *const beside[] = { "CUPTI_ACTIVITY_KIND_KERNEL",
					      "CUPTI_ACTIVITY_KIND_MEMCPY",
					      "CUPTI_ACTIVITY_KIND_MEMSET",
					      "CUPTI_ACTIVITY_KIND_RUNTIME",
					      "NVTX_EVENTS",
					      "TARGET_INFO_GPU" };
	struct sqlsrc src = { db, path, "Nsight Systems", err };
	int exists;
	int rc = sql_base_table_exists(db, "StringIds", &exists);
	for (size_t i = 0; rc == SQLITE_OK && exists && i < sizeof(beside) / sizeof(beside[0]); i++) {
		int other;
		rc = sql_base_table_exists(db, beside[i], &other);
		if (rc == SQLITE_OK && other)
			return 1;
	}
	return rc == SQLITE_OK ? 0 : sql_fail(&src, rc);
}

/* The columns of table that are read, into f->cols; whether its id is its
 * key (StringIds). */
static int find_columns(sqlite3 *db, struct nsys_file *f, enum nsys_table table)
{
	char *sql =
		sqlite3_mprintf("SELECT name, pk, (SELECT count(*) FROM pragma_table_info(%Q) WHERE pk > 0) "
				"FROM pragma_table_info(%Q)",
				tables[table], tables[table]);
	sqlite3_stmt *st;
	int rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		for (unsigned c = 0; name && columns[table][c]; c++) {
			if (sqlite3_stricmp(name, columns[table][c]) != 0)
				continue;
			f->cols[table] |= 1u << c;
			if (table == NSYS_STRINGS && c == NSYS_STRING_ID)
				f->strings_keyed =
					sqlite3_column_int(st, 1) == 1 && sqlite3_column_int(st, 2) == 1;
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int version_row(void *ctx, sqlite3_stmt *st)
{
	struct nsys_file *f = ctx;
	const unsigned char *v = sqlite3_column_text(st, 0);
	size_t n = 0;
	/* Named in messages: nothing but what a version is made of. */
	for (; v && *v && n + 1 < sizeof(f->version); v++)
		f->version[n++] =
			(char)((*v >= '0' && *v <= '9') || (*v >= 'a' && *v <= 'z') ||
					       (*v >= 'A' && *v <= 'Z') || *v == '.' || *v == '-' || *v == '_'
				       ? *v
				       : '?');
	f->version[n] = '\0';
	return 1; /* the first is the one */
}

/* The version, when the export says it: a table of the metadata that is
 * not as it should be says nothing. */
static void find_version(sqlite3 *db, struct nsys_file *f)
{
	static const char *const meta[] = { "META_DATA_EXPORT", "EXPORT_META_DATA" };
	for (size_t i = 0; i < sizeof(meta) / sizeof(meta[0]) && !f->version[0]; i++) {
		int exists;
		if (sql_base_table_exists(db, meta[i], &exists) != SQLITE_OK || !exists)
			continue;
		sql_each_optional(
			db,
			sqlite3_mprintf("SELECT value FROM \"%w\" WHERE name = 'EXPORT_SCHEMA_VERSION' "
					"AND value IS NOT NULL",
					meta[i]),
			version_row, f);
	}
}

/* What a table needs: each of these columns, and one of the pair when
 * there is one. */
struct need {
	enum nsys_table table;
	unsigned all;    /* bits */
	int either, or ; /* columns, -1: none */
};

static const struct need needs[] = {
	{ NSYS_KERNEL, 1u << NSYS_START | 1u << NSYS_END | 1u << NSYS_DEVICE | 1u << NSYS_STREAM,
	  NSYS_DEMANGLED, NSYS_SHORT },
	{ NSYS_MEMCPY, 1u << NSYS_START | 1u << NSYS_END | 1u << NSYS_DEVICE | 1u << NSYS_STREAM, -1, -1 },
	{ NSYS_MEMSET, 1u << NSYS_START | 1u << NSYS_END | 1u << NSYS_DEVICE | 1u << NSYS_STREAM, -1, -1 },
	{ NSYS_RUNTIME, 1u << NSYS_CALL_START | 1u << NSYS_CALL_END | 1u << NSYS_CALL_TID, NSYS_CALL_NAME_ID,
	  NSYS_CALL_NAME },
	{ NSYS_NVTX, 1u << NSYS_NVTX_START | 1u << NSYS_NVTX_END | 1u << NSYS_NVTX_TYPE | 1u << NSYS_NVTX_TID,
	  -1, -1 },
	{ NSYS_STRINGS, 1u << NSYS_STRING_ID | 1u << NSYS_STRING_VALUE, -1, -1 },
};

/* "PATH: Nsight Systems export of schema V: TABLE has no COLUMN column". */
static int refuse(const char *path, const struct nsys_file *f, enum nsys_table table, const char *column,
		  struct rpd_error *err)
{
	if (f->version[0])
		return err_set(err,
			       _("%s: Nsight Systems export of schema %s: %s has no %s column; not read"),
			       path, f->version, tables[table], column);
	return err_set(err,
		       _("%s: Nsight Systems export without a schema version: %s has no %s column; not read"),
		       path, tables[table], column);
}

static int check(const char *path, const struct nsys_file *f, struct rpd_error *err)
{
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		const struct need *n = &needs[i];
		if (!(f->has >> n->table & 1))
			continue;
		for (unsigned c = 0; columns[n->table][c]; c++)
			if ((n->all >> c & 1) && !nsys_has_column(f, n->table, c))
				return refuse(path, f, n->table, columns[n->table][c], err);
		if (n->either >= 0 && !nsys_has_column(f, n->table, (unsigned)n->either) &&
		    !nsys_has_column(f, n->table, (unsigned)n->or)) {
			char both[64];
			snprintf(both, sizeof(both), _("%s or %s"), columns[n->table][n->either],
				 columns[n->table][n->or ]);
			return refuse(path, f, n->table, both, err);
		}
	}
	return 0;
}

int nsys_detect(sqlite3 *db, const char *path, struct nsys_file *f, struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "Nsight Systems", err };
	memset(f, 0, sizeof(*f));
	find_version(db, f);
	for (int i = 0; i < NSYS_NTABLES; i++) {
		int exists;
		int rc = sql_base_table_exists(db, tables[i], &exists);
		if (rc == SQLITE_OK && exists) {
			f->has |= 1u << i;
			rc = find_columns(db, f, (enum nsys_table)i);
		}
		if (rc != SQLITE_OK)
			return sql_fail(&src, rc);
	}
	if (!(f->has >> NSYS_STRINGS & 1))
		return err_set(err, _("%s: Nsight Systems export is missing the StringIds table"), path);
	return check(path, f, err);
}
