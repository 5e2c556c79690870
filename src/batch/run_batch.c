/* The batch modes of rpdtop and rpdtop-mpi: the session the options ask
 * for, then a report, an export or a diff printed from it; or a report
 * read node group by node group (batch/batch.h). */
#include "config.h"
#include "batch/run_batch.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/categories_file.h"
#include "analysis/findings_file.h"
#include "analysis/roi.h"
#include "batch/batch.h"
#include "demo/demo.h"
#include "display/names.h"
#include "export/export.h"
#include "options.h"
#include "present/report.h"
#include "present/report_diff.h"
#include "session/named.h"
#include "session/session.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/interrupt.h"
#include "workspace/workspace.h"

/* Without a report or export asked for, a terminal (or a test's script)
 * gets the viewer; anything else the top report. */
int run_wants_viewer(const struct options *o)
{
	const char *script = getenv("RPDTOP_SCRIPT");
	if (o->export_path || o->have_report)
		return 0;
	/* A diff asked for in a format or with a gate is for a script. */
	if (o->ndiff && (o->format_set || o->gate >= 0))
		return 0;
	return (script && *script) || (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO));
}

/* Reports of API rows, and windows named by roctx ranges, read them with
 * the ops. */
/* Which API rows are read with the ops: what the report needs, every call
 * beside an export or for a window named by markers. */
static enum api_need needs_apis(const struct options *o)
{
	int narrowed = o->nrules || (o->window && *o->window) || (o->against_window && *o->against_window) ||
		       (o->gpu && *o->gpu) || (o->input && *o->input) || o->roi;
	enum api_need need = api_need_narrowed(o->have_report ? o->report->apis : API_NEED_NONE, narrowed);
	if ((o->export_path && need != API_NEED_NONE) || window_names_markers(o->window))
		need = API_NEED_ALL;
	/* A conversion writes every call it keeps from the trace in memory. */
	if (o->export_path && o->export_format != EXPORT_FORMAT_INPUT)
		need = API_NEED_ALL;
	return need;
}

/* A pattern given on the command line, checked before anything is read:
 * a bad one is a usage error. */
static int check_pattern(const char *option, const char *pattern)
{
	struct filter check;
	char msg[512];
	filter_init(&check);
	int bad = pattern && filter_push(&check, pattern, msg, sizeof(msg));
	if (bad)
		err_report("rpdtop: %s%s", option, msg);
	filter_free(&check);
	return bad;
}

/* --roi narrows the window to the region it finds in view. */
static int apply_roi(const struct options *o, struct session *s)
{
	struct window w;
	if (!o->roi)
		return 0;
	if (roi_find(session_trace(s), session_sel(s), o->roi, &w)) {
		err_report("rpdtop: %s", _("--roi: no GPU op in view"));
		return 2;
	}
	session_set_window_ns(s, w.start, w.end);
	session_refresh(s);
	return 0;
}

/* A bad pattern is a usage error, found before anything is read: 2, or 0
 * when every pattern compiles. */
static int check_patterns(const struct options *o)
{
	char msg[512];
	struct filter check;
	filter_init(&check);
	for (size_t i = 0; i < o->nrules; i++) {
		if (filter_push(&check, o->rules[i], msg, sizeof(msg))) {
			err_report("rpdtop: %s", msg);
			filter_free(&check);
			return 2;
		}
	}
	filter_free(&check);
	const char *places[] = { o->gpu, o->input }, *place_opts[] = { "--gpu", "--input" };
	for (size_t i = 0; i < 2; i++) {
		filter_init(&check);
		if (places[i] && *places[i] && filter_push(&check, places[i], msg, sizeof(msg))) {
			err_report("rpdtop: %s: %s", place_opts[i], msg);
			filter_free(&check);
			return 2;
		}
		filter_free(&check);
	}
	if (check_pattern("--comm: ", o->comm) || check_pattern("--step: ", o->step))
		return 2;
	return 0;
}

/* The workspace: the inputs, then the filter and window asked for.
 * Returns the exit status for a failure (1: an input, 2: usage), 0 when
 * open. */
int run_open_workspace(const struct options *o, struct workspace *w)
{
	struct rpd_error err = { { 0 } };
	char msg[512];
	/* Reports never link ops to API calls: their ids need no memory. An
	 * export beside a report writes every call: none may be missing. */
	enum api_need need = needs_apis(o);
	if (check_patterns(o))
		return 2;
	struct workspace_options so = {
		.paths = o->ndiff ? o->diff_paths : o->paths,
		.npaths = o->ndiff ? o->ndiff : o->npaths,
		.skip_bad = o->skip_bad,
		.same_node = o->same_node,
		.progress = 1,
		.op_ids = o->export_path || run_wants_viewer(o) || need != API_NEED_NONE,
		.apis = need,
		.apis_later = run_wants_viewer(o),
		/* made while the rest of the inputs is read */
		.order_calls = o->have_report && o->report && (o->report->uses & REPORT_USES_CALL_ORDER),
		/* The viewer and a diff read the ops whatever the report. */
		.ops_unused = o->have_report && o->report && (o->report->uses & REPORT_USES_NO_OPS) &&
			      !run_wants_viewer(o) && !o->ndiff
	};
	if (o->demo) {
		struct gen_params p = { .seed = GEN_DEFAULT_SEED,
					.ops = GEN_DEMO_OPS,
					.gpus = GEN_DEMO_GPUS };
		struct trace t;
		demo_trace_build(&t, &p);
		workspace_open_trace(w, &t);
	} else if (workspace_open(w, &so, &err)) {
		err_report("rpdtop: %s", err.msg);
		return 1;
	}
	if (o->ndiff) {
		/* The new run beside the base. */
		so.paths = o->paths;
		so.npaths = o->npaths;
		if (workspace_add_trace(w, &so, &err)) {
			err_report("rpdtop: %s", err.msg);
			workspace_close(w);
			return 1;
		}
	}
	struct session *s = &w->session;
	if (session_set_filter(s, o->rules, o->nrules, msg, sizeof(msg)) ||
	    session_set_places(s, o->gpu, o->input, msg, sizeof(msg)) ||
	    (o->window && session_set_window(s, o->window, msg, sizeof(msg))) ||
	    (o->against_window && session_set_own_window(s, 1, o->against_window, msg, sizeof(msg)))) {
		err_report("rpdtop: %s", msg);
		workspace_close(w);
		return 2;
	}
	session_refresh(s);
	/* A name the filter could not judge: what it kept is not what it says. */
	if (filter_limit_hit(&s->filter, msg, sizeof(msg))) {
		err_report("rpdtop: %s", msg);
		workspace_close(w);
		return 2;
	}
	int status = apply_roi(o, s);
	if (status)
		workspace_close(w);
	return status;
}

int run_export(const struct options *o, struct workspace *w)
{
	struct export_result res;
	struct rpd_error err;
	const struct session *s = &w->session;
	if (workspace_ready_for_export(w, &err)) {
		err_report("rpdtop: %s", err.msg);
		return 1;
	}
	struct export_request req = { .t = session_trace(s),
				      .sel = session_sel(s),
				      .filter = &s->filter,
				      .window = session_window(s),
				      .path = o->export_path,
				      .force = o->force,
				      .format = o->export_format };
	if (export_trace(&req, &res, &err)) {
		err_report("rpdtop: %s", err.msg);
		return 1;
	}
	/* The path is the user's, but may hold control characters: escaped. */
	struct rpd_error line;
	err_set(&line, _("exported %llu ops, %llu api rows to %s (%lld bytes)"), (unsigned long long)res.ops,
		(unsigned long long)res.apis, o->export_path, (long long)res.bytes);
	/* On stderr: a report asked for with it owns stdout (JSON must parse). */
	fprintf(stderr, "%s\n", line.msg);
	return 0;
}

/* The settings' categories, read once, when a report sorts kernels
 * into them. */
static void load_categories(const struct options *o, struct analysis_params *an, const struct report_def *def)
{
	if ((def->uses & REPORT_USES_CATEGORIES) && !an->cats.n)
		settings_categories_load(&an->cats, o->comm);
	if (def->uses & REPORT_USES_FINDINGS)
		settings_findings_load(&an->findings);
}

void run_analysis_params(const struct options *o, struct analysis_params *an)
{
	char msg[512];
	analysis_params_init(an);
	an->gap_threshold = o->gap_threshold;
	an->per_queue = o->per_queue;
	an->outlier_z = o->outlier_z;
	an->diff_tolerance = o->tolerance;
	/* A bad pattern is said, and the run ends, before any is used
	 * (check_patterns). */
	if (o->comm)
		analysis_params_set_comm(an, o->comm, msg, sizeof(msg));
	if (o->step)
		analysis_params_set_step(an, o->step, msg, sizeof(msg));
}

int run_report(const struct options *o, struct workspace *w, struct analysis_params *an,
	       const struct report_def *def)
{
	const struct session *s = &w->session;
	struct table tb;
	struct table_sink sink;
	load_categories(o, an, def);
	char msg[512];
	if (analysis_params_check(an, session_trace(s), msg, sizeof(msg))) {
		err_report("rpdtop: %s", msg);
		return 2;
	}
	/* The session's order of the calls, which the cache file then keeps
	 * (the report would make one of its own otherwise). */
	if (def->uses & REPORT_USES_CALL_ORDER)
		session_order_calls(&w->session);
	struct name_cache names;
	/* Names as the viewer shows them at first: C++ names demangled. */
	name_cache_init(&names, NAME_DEMANGLE);
	struct report_params p = { .limit = o->limit,
				   .names = o->raw_names ? NULL : &names,
				   .analysis = an,
				   .order = &s->views[0].order };
	struct report_job job;
	struct rpd_error err = { { 0 } };
	report_start(&job, def, session_trace(s), &p, session_sel(s));
	/* The gate reads every row: none may go out before the end. */
	if (o->gate >= 0)
		table_open(&tb, NULL);
	else
		report_open_table(&tb, &sink, o->format, stdout);
	/* What the report asks of the inputs (the host's calls at the gaps). */
	int failed = job.asks && job.asks->n && workspace_probe_calls(w, job.asks->probe, job.asks->n, &err);
	if (failed) {
		err_report("rpdtop: %s", err.msg);
		report_drop(&job);
	} else {
		report_finish(&job, &tb);
	}
	if (failed) {
		name_cache_free(&names);
		return 1;
	}
	session_describe(s, tb.filter, sizeof(tb.filter), tb.window, sizeof(tb.window));
	session_describe_places(s, tb.places, sizeof(tb.places));
	report_write(&tb, session_trace(s), o->format, stdout);
	int gated = o->gate >= 0 && def == &report_findings && findings_gate(&tb, o->gate);
	/* The table points at the names (table_set_ref): freed after it. */
	table_free(&tb);
	name_cache_free(&names);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, _("rpdtop: write error: %s\n"), strerror(errno));
		return 1;
	}
	return gated ? 3 : 0;
}

void run_request(const struct options *o, const struct analysis_params *an, struct batch_request *req)
{
	*req = (struct batch_request){ .report = o->report,
				       .format = o->format,
				       .rules = o->rules,
				       .nrules = o->nrules,
				       .window = o->window && *o->window ? o->window : NULL,
				       .roi = o->roi,
				       .gpu = o->gpu && *o->gpu ? o->gpu : NULL,
				       .input = o->input && *o->input ? o->input : NULL,
				       .limit = o->limit,
				       .analysis = an,
				       .raw_names = o->raw_names,
				       .whole_load = o->whole_load };
}

/* The plan, and the report group by group when the plan allows. */
static int groupwise_plan(const struct options *o, const struct workspace_options *so,
			  const struct batch_request *req, struct batch_plan *plan,
			  struct analysis_params *an, int *status)
{
	struct rpd_error err = { { 0 } };
	/* An input that cannot be read is named as the whole load names it. */
	if (batch_plan_make(so, plan, &err)) {
		err_report("rpdtop: %s", err.msg);
		*status = 1;
		return 1;
	}
	if (!batch_groupwise(plan, req))
		return 0;
	load_categories(o, an, o->report);
	*status = 0;
	int rc = batch_run(plan, req, stdout, &err);
	if (rc) {
		/* A window that does not fit the trace, a pattern that runs into
		 * PCRE2's limits: usage errors. */
		err_report("rpdtop: %s", err.msg);
		*status = rc == -2 ? 2 : 1;
	} else if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, _("rpdtop: write error: %s\n"), strerror(errno));
		*status = 1;
	}
	return 1;
}

/* A report of the inputs alone (no export, diff or viewer) goes node group
 * by node group when it can (batch/batch.h): one group in memory at a
 * time. 1 when it went so, with the exit status in *status; else 0, the
 * inputs as listed in plan (when they were) for the whole load. */
int run_groupwise(const struct options *o, struct analysis_params *an, struct batch_plan *plan, int *status)
{
	struct batch_request req;
	run_request(o, an, &req);
	struct workspace_options so = {
		.paths = o->paths, .npaths = o->npaths, .skip_bad = o->skip_bad, .same_node = o->same_node
	};
	memset(plan, 0, sizeof(*plan));
	if (!o->have_report || o->export_path || o->ndiff || o->demo || run_wants_viewer(o) ||
	    !batch_groupwise(NULL, &req))
		return 0;
	if ((*status = check_patterns(o)) != 0)
		return 1;
	return groupwise_plan(o, &so, &req, plan, an, status);
}

int run_diff(const struct options *o, const struct analysis_params *an, const struct session *s)
{
	struct diff_params p = { .tolerance = an->diff_tolerance,
				 .gate = o->gate,
				 .style = NAME_DEMANGLE | (o->strip ? NAME_STRIP : 0),
				 .limit = o->limit };
	int status = report_diff(s, &p, o->format, stdout);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, _("rpdtop: write error: %s\n"), strerror(errno));
		return 1;
	}
	return status;
}

int run_batch(const struct options *o, struct workspace *w, struct analysis_params *an)
{
	if (o->ndiff)
		return run_diff(o, an, &w->session);
	if (o->export_path) {
		interrupt_catch();
		int status = run_export(o, w);
		if (status == 0 && o->have_report)
			status = run_report(o, w, an, o->report);
		return status;
	}
	if (o->have_report)
		return run_report(o, w, an, o->report);
	/* Piped or redirected: print what the first pane shows. */
	fputs(_("rpdtop: not a terminal, printing the top report (see --report)\n"), stderr);
	return run_report(o, w, an, &report_top);
}

void run_process_setup(void)
{
	setlocale(LC_ALL, "");
	/* Numbers are written the same in every language: CSV and JSON must
	 * parse, and "6.20" must not become "6,20". */
	setlocale(LC_NUMERIC, "C");
	/* A file size limit must give an error to report, not a dead process. */
	signal(SIGXFSZ, SIG_IGN);
#if ENABLE_NLS
	/* TEXTDOMAINDIR, as gettext.sh knows it, points at translations that
	 * are not installed (the tests use it). */
	const char *dir = getenv("TEXTDOMAINDIR");
	bindtextdomain(PACKAGE, dir && *dir ? dir : LOCALEDIR);
	textdomain(PACKAGE);
#endif
}
