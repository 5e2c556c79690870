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
#include "sqlfile/sqltable.h"
#include "util/i18n.h"

#define OP_COLUMNS "start", "end", "deviceId", "streamId", "correlationId"

static const char *const kernel_cols[] = { OP_COLUMNS, "demangledName", "shortName", NULL };
static const char *const memcpy_cols[] = { OP_COLUMNS, "bytes", "copyKind", "srcKind", "dstKind", NULL };
static const char *const memset_cols[] = { OP_COLUMNS, NULL };
static const char *const runtime_cols[] = { "start",  "end",  "globalTid", "correlationId",
					    "nameId", "name", NULL };
static const char *const nvtx_cols[] = { "start", "end", "eventType", "globalTid", "text", "textId", NULL };
static const char *const string_cols[] = { "id", "value", NULL };

static const struct sqltable tables[NSYS_NTABLES] = {
	[NSYS_KERNEL] = { "CUPTI_ACTIVITY_KIND_KERNEL", kernel_cols },
	[NSYS_MEMCPY] = { "CUPTI_ACTIVITY_KIND_MEMCPY", memcpy_cols },
	[NSYS_MEMSET] = { "CUPTI_ACTIVITY_KIND_MEMSET", memset_cols },
	[NSYS_RUNTIME] = { "CUPTI_ACTIVITY_KIND_RUNTIME", runtime_cols },
	[NSYS_NVTX] = { "NVTX_EVENTS", nvtx_cols },
	[NSYS_STRINGS] = { "StringIds", string_cols },
};

const struct sqltable *nsys_table(enum nsys_table table)
{
	return &tables[table];
}

const char *nsys_table_name(enum nsys_table table)
{
	return tables[table].name;
}

const char *nsys_column(enum nsys_table table, unsigned col)
{
	for (unsigned c = 0; c <= col; c++)
		if (!tables[table].columns[c])
			return NULL;
	return tables[table].columns[col];
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

/* Is StringIds.id its one key column (a string is then looked up by it)? */
static int strings_keyed(sqlite3 *db, int *keyed)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db,
				    "SELECT count(*) = 1 AND sum(name = 'id' COLLATE NOCASE AND pk = 1) = 1 "
				    "FROM pragma_table_info('StringIds') WHERE pk > 0",
				    -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	*keyed = rc == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* A value named in messages and labels: nothing but what a version or a
 * host name is made of. */
static size_t plain_copy(const unsigned char *v, char *out, size_t size)
{
	size_t n = 0;
	for (; v && *v && n + 1 < size; v++)
		out[n++] =
			(char)((*v >= '0' && *v <= '9') || (*v >= 'a' && *v <= 'z') ||
					       (*v >= 'A' && *v <= 'Z') || *v == '.' || *v == '-' || *v == '_'
				       ? *v
				       : '?');
	out[n] = '\0';
	return n;
}

static int host_row(void *ctx, sqlite3_stmt *st)
{
	struct nsys_file *f = ctx;
	plain_copy(sqlite3_column_text(st, 0), f->node, sizeof(f->node));
	return 1; /* the first is the one */
}

/* The host, when the export says it (a table that is not as it should be
 * says nothing). */
static void find_host(sqlite3 *db, struct nsys_file *f)
{
	int exists;
	if (sql_base_table_exists(db, "TARGET_INFO_SYSTEM_ENV", &exists) != SQLITE_OK || !exists)
		return;
	sql_each_optional(
		db,
		sqlite3_mprintf("SELECT value FROM \"TARGET_INFO_SYSTEM_ENV\" WHERE name = 'Hostname' "
				"AND value IS NOT NULL AND value <> ''"),
		host_row, f);
}

static int version_row(void *ctx, sqlite3_stmt *st)
{
	struct nsys_file *f = ctx;
	plain_copy(sqlite3_column_text(st, 0), f->version, sizeof(f->version));
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

/* What each table needs: these columns, and one of a pair. */
static const struct sqltable_need needs[NSYS_NTABLES] = {
	[NSYS_KERNEL] = { 1u << NSYS_START | 1u << NSYS_END | 1u << NSYS_DEVICE | 1u << NSYS_STREAM,
			  { NSYS_DEMANGLED, NSYS_SHORT } },
	[NSYS_MEMCPY] = { 1u << NSYS_START | 1u << NSYS_END | 1u << NSYS_DEVICE | 1u << NSYS_STREAM,
			  { -1, -1 } },
	[NSYS_MEMSET] = { 1u << NSYS_START | 1u << NSYS_END | 1u << NSYS_DEVICE | 1u << NSYS_STREAM,
			  { -1, -1 } },
	[NSYS_RUNTIME] = { 1u << NSYS_CALL_START | 1u << NSYS_CALL_END | 1u << NSYS_CALL_TID,
			   { NSYS_CALL_NAME_ID, NSYS_CALL_NAME } },
	[NSYS_NVTX] = { 1u << NSYS_NVTX_START | 1u << NSYS_NVTX_END | 1u << NSYS_NVTX_TYPE |
				1u << NSYS_NVTX_TID,
			{ -1, -1 } },
	[NSYS_STRINGS] = { 1u << NSYS_STRING_ID | 1u << NSYS_STRING_VALUE, { -1, -1 } },
};

/* "PATH: Nsight Systems export of schema V: TABLE has no COLUMN column". */
static int refuse(const char *path, const struct nsys_file *f, enum nsys_table table, const char *column,
		  struct rpd_error *err)
{
	if (f->version[0])
		return err_set(err,
			       _("%s: Nsight Systems export of schema %s: %s has no %s column; not read"),
			       path, f->version, tables[table].name, column);
	return err_set(err,
		       _("%s: Nsight Systems export without a schema version: %s has no %s column; not read"),
		       path, tables[table].name, column);
}

static int check(const char *path, const struct nsys_file *f, struct rpd_error *err)
{
	for (int i = 0; i < NSYS_NTABLES; i++) {
		char both[64];
		const char *missing = f->has >> i & 1 ? sqltable_missing(&tables[i], f->cols[i], &needs[i],
									 both, sizeof(both))
						      : NULL;
		if (missing)
			return refuse(path, f, (enum nsys_table)i, missing, err);
	}
	return 0;
}

int nsys_detect(sqlite3 *db, const char *path, struct nsys_file *f, struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "Nsight Systems", err };
	memset(f, 0, sizeof(*f));
	find_version(db, f);
	find_host(db, f);
	for (int i = 0; i < NSYS_NTABLES; i++) {
		int exists;
		int rc = sqltable_find(db, &tables[i], &exists, &f->cols[i]);
		f->has |= (unsigned)(exists != 0) << i;
		if (rc == SQLITE_OK && i == NSYS_STRINGS && exists)
			rc = strings_keyed(db, &f->strings_keyed);
		if (rc != SQLITE_OK)
			return sql_fail(&src, rc);
	}
	if (!(f->has >> NSYS_STRINGS & 1))
		return err_set(err, _("%s: Nsight Systems export is missing the StringIds table"), path);
	return check(path, f, err);
}
