#include "config.h"
#include "load/nodes.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "load/json_kind.h"
#include "load/rocpd_detect.h"
#include "sqlfile/dbfile_read.h"
#include "sqlfile/sqlread.h"
#include "util/xalloc.h"

static void add_name(struct input_nodes *out, const char *name)
{
	out->names = xrealloc_array(out->names, out->n + 1, sizeof(*out->names));
	out->names[out->n++] = name && *name ? xstrdup(name) : NULL;
}

/* A process's nodes as the reader names them: the host name, else the
 * machine id. */
static int part_nodes(sqlite3 *db, const char *path, const struct rocpd_part *p, struct input_nodes *out,
		      struct rpd_error *err)
{
	struct sqlsrc src = { db, path, "rocpd", err };
	char table[256];
	char *sql = sqlite3_mprintf("SELECT hostname, machine_id FROM \"%w\" ORDER BY id",
				    rocpd_table(p, "rocpd_info_node", table, sizeof(table)));
	sqlite3_stmt *st;
	int rc = sql_prepare(&src, sql, &st);
	sqlite3_free(sql);
	if (rc)
		return -1;
	size_t before = out->n;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *host = (const char *)sqlite3_column_text(st, 0);
		const char *machine = (const char *)sqlite3_column_text(st, 1);
		add_name(out, host && *host ? host : machine);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_fail(&src, rc);
	if (out->n == before)
		add_name(out, NULL);
	return 0;
}

static int read_nodes(void *ctx, sqlite3 *db, const char *path, struct rpd_error *err)
{
	struct input_nodes *out = ctx;
	struct rocpd_file file;
	int rc = rocpd_is(db, path, err);
	if (rc == 1) {
		rc = rocpd_detect(db, path, &file, err);
		if (rc == 0) {
			for (size_t i = 0; rc == 0 && i < file.n; i++)
				rc = part_nodes(db, path, &file.parts[i], out, err);
			rocpd_file_free(&file);
		}
	}
	return rc < 0 ? -1 : 0;
}

static void nodes_again(void *ctx)
{
	input_nodes_free(ctx);
}

int input_nodes_read(const char *path, struct input_nodes *out, struct rpd_error *err)
{
	memset(out, 0, sizeof(*out));
	/* A JSON trace (Kineto's, rocprofv3's) names no node. */
	if (json_kind(path) != JSON_NONE)
		return 0;
	struct dbfile_reading r = { read_nodes, nodes_again, out };
	int rc = dbfile_read(path, &r, err);
	if (rc < 0)
		input_nodes_free(out);
	return rc;
}

void input_nodes_free(struct input_nodes *nodes)
{
	for (size_t i = 0; i < nodes->n; i++)
		free(nodes->names[i]);
	free(nodes->names);
	memset(nodes, 0, sizeof(*nodes));
}
