/* A rocprof results.db is told by its tables: HIP, the HIP calls, beside
 * OPS or COPY, the GPU ops they launched. Its columns are found with
 * pragma_table_info; it says no version of its own. */
#include "config.h"
#include "load/rocprof_detect.h"

#include <string.h>

#include "util/i18n.h"

#define COMMON "BeginNs", "EndNs", "Name", "pid", "Index", "__section"

static const char *const op_cols[] = { COMMON, "dev-id", "queue-id", NULL };
static const char *const call_cols[] = { COMMON, "tid", NULL };

static const struct sqltable tables[ROCPROF_NTABLES] = {
	[ROCPROF_OPS] = { "OPS", op_cols },   [ROCPROF_COPY] = { "COPY", op_cols },
	[ROCPROF_HIP] = { "HIP", call_cols }, [ROCPROF_HSA] = { "HSA", call_cols },
	[ROCPROF_KFD] = { "KFD", call_cols }, [ROCPROF_ROCTX] = { "rocTX", call_cols },
};

#define OP_NEEDS                                                                                             \
	{                                                                                                    \
		1u << ROCPROF_START | 1u << ROCPROF_END | 1u << ROCPROF_NAME | 1u << ROCPROF_DEVICE |        \
			1u << ROCPROF_QUEUE,                                                                 \
		{                                                                                            \
			-1, -1                                                                               \
		}                                                                                            \
	}
#define CALL_NEEDS                                                                                           \
	{                                                                                                    \
		1u << ROCPROF_START | 1u << ROCPROF_END | 1u << ROCPROF_NAME | 1u << ROCPROF_PID |           \
			1u << ROCPROF_TID,                                                                   \
		{                                                                                            \
			-1, -1                                                                               \
		}                                                                                            \
	}

/* What each table needs. */
static const struct sqltable_need needs[ROCPROF_NTABLES] = {
	[ROCPROF_OPS] = OP_NEEDS,   [ROCPROF_COPY] = OP_NEEDS,  [ROCPROF_HIP] = CALL_NEEDS,
	[ROCPROF_HSA] = CALL_NEEDS, [ROCPROF_KFD] = CALL_NEEDS, [ROCPROF_ROCTX] = CALL_NEEDS,
};

const struct sqltable *rocprof_table(enum rocprof_table table)
{
	return &tables[table];
}

int rocprof_is(sqlite3 *db, const char *path, struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "rocprof", err };
	int hip = 0, ops = 0, copy = 0;
	int rc = sql_base_table_exists(db, "HIP", &hip);
	if (rc == SQLITE_OK && hip)
		rc = sql_base_table_exists(db, "OPS", &ops);
	if (rc == SQLITE_OK && hip && !ops)
		rc = sql_base_table_exists(db, "COPY", &copy);
	if (rc != SQLITE_OK)
		return sql_fail(&src, rc);
	return hip && (ops || copy);
}

int rocprof_detect(sqlite3 *db, const char *path, struct rocprof_file *f, struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "rocprof", err };
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < ROCPROF_NTABLES; i++) {
		int exists;
		int rc = sqltable_find(db, &tables[i], &exists, &f->cols[i]);
		if (rc != SQLITE_OK)
			return sql_fail(&src, rc);
		f->has |= (unsigned)(exists != 0) << i;
	}
	for (int i = 0; i < ROCPROF_NTABLES; i++) {
		char both[64];
		const char *missing = f->has >> i & 1 ? sqltable_missing(&tables[i], f->cols[i], &needs[i],
									 both, sizeof(both))
						      : NULL;
		if (missing)
			return err_set(err, _("%s: rocprof results.db: %s has no %s column; not read"), path,
				       tables[i].name, missing);
	}
	return 0;
}
