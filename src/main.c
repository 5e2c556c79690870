/* rpdtop: options, then a workspace (the inputs read into a session: the
 * trace, filter and window), then a presenter: a report, an export or the
 * viewer. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "batch/batch.h"
#include "batch/run_batch.h"
#include "load/cache.h"
#include "options.h"
#include "session/session.h"
#include "sqlfile/dbfile.h"
#include "tui/tui.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/interrupt.h"
#include "util/threads.h"
#include "workspace/workspace.h"

static int run(const struct options *o, struct workspace *w, struct analysis_params *an)
{
	if (!run_wants_viewer(o))
		return run_batch(o, w, an);
	const char *script = getenv("RPDTOP_SCRIPT");
	struct tui_options to = { .script = script && *script ? script : NULL,
				  .analysis = an,
				  .strip = o->strip,
				  .debug_memory = o->debug_memory };
	return tui_run(w, &to);
}

/* --debug-memory after a report or export: the viewer prints its own. */
static void print_memory(const struct session *s)
{
	struct mem_report r;
	mem_report_init(&r);
	session_memory(s, &r);
	mem_report_print(&r, session_input_bytes(s), stderr);
	mem_report_free(&r);
}

int main(int argc, char **argv)
{
	struct options o;

	run_process_setup();
	switch (options_parse(argc, argv, &o)) {
	case OPTIONS_EXIT_OK:
		return 0;
	case OPTIONS_USAGE_ERROR:
		return 2;
	case OPTIONS_RUN:
		break;
	}
	threads_set_limit(o.jobs);
	cache_configure(!o.no_cache, o.cache_size);
	sqlfile_test_knobs();
	struct batch_plan plan;
	struct analysis_params an;
	int status;
	run_analysis_params(&o, &an);
	if (run_groupwise(&o, &an, &plan, &status)) {
		batch_plan_free(&plan);
		analysis_params_free(&an);
		return status;
	}
	/* The inputs listed already are not listed again (nor warned of). */
	struct options whole = o;
	if (plan.npaths) {
		whole.paths = (const char *const *)plan.paths;
		whole.npaths = plan.npaths;
	}
	struct workspace w;
	status = run_open_workspace(&whole, &w);
	if (status == 0) {
		status = run(&whole, &w, &an);
		/* After the output: the cache costs the next run's time, not
		 * this one's. */
		struct rpd_error err;
		if (status == 0 && !run_wants_viewer(&whole) && workspace_save_cache(&w, &err))
			err_report(_("rpdtop: %s (not cached)"), err.msg);
		if (whole.debug_memory && !run_wants_viewer(&whole))
			print_memory(&w.session);
		workspace_close(&w);
	}
	batch_plan_free(&plan);
	/* The tables point at the categories' names: freed after them. */
	analysis_params_free(&an);
	return status;
}
