#include "config.h"
#include "load/load.h"

#include "load/dbfile.h"
#include "util/i18n.h"

static int load_one(struct trace *t, const char *path, unsigned what,
		    struct rpd_error *err)
{
	sqlite3 *db;
	int version;
	if (dbfile_open(path, &db, err))
		return -1;
	int rc = rpd_detect(db, path, &version, err);
	if (rc == 0) {
		uint32_t input = trace_add_input(t, path, INPUT_RPD, version);
		rc = rpd_read(t, db, input, what, err);
	}
	/* Connections are closed as soon as an input is read: a run over many
	 * inputs must not hold a descriptor per file. */
	sqlite3_close(db);
	return rc;
}

int trace_load(struct trace *t, const char *const *paths, size_t npaths,
	       unsigned what, struct rpd_error *err)
{
	trace_init(t);
	for (size_t i = 0; i < npaths; i++) {
		if (load_one(t, paths[i], what, err)) {
			trace_free(t);
			return -1;
		}
	}
	if ((what & LOAD_OPS) && t->ops.n == 0) {
		if (npaths == 1)
			err_set(err, _("%s: trace has no GPU ops"), paths[0]);
		else
			err_set(err, _("none of the %zu inputs has GPU ops"), npaths);
		trace_free(t);
		return -1;
	}
	trace_finish(t);
	return 0;
}
