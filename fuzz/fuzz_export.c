/* libFuzzer harness for the export: database bytes in (the corpus holds
 * small rpd and rocpd files), a workspace over them with a filter and a
 * window taken from the bytes, then an export to a new file that must
 * either succeed with a file that passes its own check or fail cleanly,
 * leaving nothing behind. Never a crash, a leak or a hang. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "export/export.h"
#include "session/session.h"
#include "util/threads.h"
#include "workspace/workspace.h"

#include "fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The first byte picks a filter and a window: the ways an export chooses. */
static const char *const filters[] = { "", "a|k", "!Copy", "Cijk", "step" };
static const char *const windows[] = { "", "10%:60%", "0%:1%", "+1ms:", "90%:" };

/* What an export wrote is a sound database (SQLite's integrity_check) that
 * reads back with the ops it says it wrote. */
static void check_output(const char *out, uint64_t ops)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	if (sqlite3_open_v2(out, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		abort();
	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW || strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0)
		abort();
	sqlite3_finalize(st);
	sqlite3_close(db);
	struct workspace w;
	struct rpd_error err;
	struct workspace_options o = { .paths = (const char *const[]){ out }, .npaths = 1 };
	if (workspace_open(&w, &o, &err) != 0)
		abort();
	if (session_trace(&w.session)->ops.n != ops)
		abort();
	workspace_close(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = fuzz_tmp_path("in.db"), *out = fuzz_tmp_path("out.db");
	threads_set_limit(1);
	uint8_t pick = size ? data[0] : 0;
	FILE *f = in && out ? fopen(in, "wb") : NULL;
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	unlink(out);

	struct workspace w;
	struct rpd_error err;
	struct workspace_options o = { .paths = (const char *const[]){ in }, .npaths = 1, .op_ids = 1 };
	if (workspace_open(&w, &o, &err) != 0)
		return 0;
	struct session *s = &w.session;
	char msg[256];
	const char *rule = filters[pick % 5];
	session_set_filter(s, &rule, *rule ? 1 : 0, msg, sizeof(msg));
	session_set_window(s, windows[(pick / 5) % 5], msg, sizeof(msg));
	session_refresh(s);
	if (workspace_ready_for_export(&w, &err) == 0) {
		struct export_request r = { .t = session_trace(s),
					    .sel = session_sel(s),
					    .filter = &s->filter,
					    .window = session_window(s),
					    .path = out,
					    .force = 1 };
		struct export_result res;
		if (export_trace(&r, &res, &err) != 0) {
			if (access(out, F_OK) == 0)
				abort(); /* a failed export must leave no file */
		} else {
			check_output(out, res.ops);
		}
	}
	workspace_close(&w);
	unlink(out);
	return 0;
}
