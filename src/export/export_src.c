/* The input of a single-input export, attached read-only to the output's
 * connection (as "src", for the INSERT ... SELECT copies), with a
 * connection of its own for the reads that choose rows. */
#include "config.h"
#include "export/export_src.h"

#include <stdlib.h>
#include <string.h>

#include "sqlfile/dbfile.h"
#include "sqlfile/sqlrun.h"

int export_attach(struct exporter *x, struct export_src *p)
{
	const struct trace_input *in = &x->req->t->inputs[0];
	struct rpd_error err;
	memset(p, 0, sizeof(*p));
	char *uri = dbfile_uri(in->path, 0, NULL, &err);
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
	return 0;
}

void export_src_close(struct export_src *p)
{
	sqlite3_close(p->input);
	memset(p, 0, sizeof(*p));
}
