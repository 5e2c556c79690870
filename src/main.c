/* rpdtop: options, then the trace, then a presenter. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/filter.h"
#include "analysis/select.h"
#include "analysis/window.h"
#include "demo/demo.h"
#include "export/export.h"
#include "load/load.h"
#include "options.h"
#include "present/report.h"
#include "tui/tui.h"
#include "util/i18n.h"
#include "util/interrupt.h"

/* Without a report or export asked for, a terminal (or a test's script)
 * gets the viewer; anything else the top report. */
static int wants_tui(const struct options *o)
{
	const char *script = getenv("RPDTOP_SCRIPT");
	if (o->export_path || o->have_report)
		return 0;
	return (script && *script) || (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO));
}

static int open_trace(const struct options *o, struct trace *t)
{
	struct rpd_error err = { { 0 } };
	if (o->demo) {
		struct gen_params p = { .seed = GEN_DEFAULT_SEED,
					.ops = GEN_DEMO_OPS,
					.gpus = GEN_DEMO_GPUS };
		demo_trace_build(t, &p);
		return 0;
	}
	/* The reports and the panes there are need only the GPU ops. */
	struct load_options lo = { .what = LOAD_OPS,
				   .jobs = o->jobs,
				   .skip_bad = o->skip_bad,
				   .same_node = o->same_node,
				   .progress = 1 };
	/* Reports never link ops to API calls: their ids need no memory. */
	if (!o->export_path && !wants_tui(o))
		lo.what |= LOAD_NO_OP_IDS;
	if (trace_load(t, o->paths, o->npaths, &lo, &err)) {
		fprintf(stderr, "rpdtop: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/* Compile the --filter and --exclude rules; a bad one is a usage error. */
static int make_filter(const struct options *o, struct filter *f)
{
	char err[512];
	filter_init(f);
	for (size_t i = 0; i < o->nrules; i++) {
		if (filter_push(f, o->rules[i], err, sizeof(err))) {
			fprintf(stderr, "rpdtop: %s\n", err);
			filter_free(f);
			return -1;
		}
	}
	return 0;
}

static int make_window(const struct options *o, const struct trace *t, struct window *w)
{
	char err[512];
	memset(w, 0, sizeof(*w));
	if (o->window && window_parse(o->window, t->op_first_start, t->op_last_end, w, err, sizeof(err))) {
		fprintf(stderr, "rpdtop: %s\n", err);
		return -1;
	}
	return 0;
}

static int run_export(const struct options *o, const struct trace *t, const struct filter *f,
		      const struct window *w)
{
	struct selection sel;
	struct export_result res;
	struct rpd_error err;
	struct export_request req = {
		.t = t, .sel = &sel, .filter = f, .window = w, .path = o->export_path, .force = o->force
	};
	selection_build(t, f, w, &sel);
	int rc = export_trace(&req, &res, &err);
	selection_free(&sel);
	if (rc) {
		fprintf(stderr, "rpdtop: %s\n", err.msg);
		return 1;
	}
	printf(_("exported %llu ops, %llu api rows to %s (%lld bytes)\n"), (unsigned long long)res.ops,
	       (unsigned long long)res.apis, o->export_path, (long long)res.bytes);
	return 0;
}

static int run_report(const struct options *o, const struct trace *t, const struct filter *f,
		      const struct window *w)
{
	struct table tb;
	struct selection sel;
	selection_build(t, f, w, &sel);
	report_build(t, o->report, o->limit, &sel, &tb);
	filter_describe(f, tb.filter, sizeof(tb.filter));
	if (w->active)
		window_describe(w, t->op_first_start, tb.window, sizeof(tb.window));
	selection_free(&sel);
	report_write(&tb, t, o->format, stdout);
	table_free(&tb);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, _("rpdtop: write error: %s\n"), strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct trace t;

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
	switch (options_parse(argc, argv, &o)) {
	case OPTIONS_EXIT_OK:
		return 0;
	case OPTIONS_USAGE_ERROR:
		return 2;
	case OPTIONS_RUN:
		break;
	}
	struct filter f;
	struct window w;
	if (make_filter(&o, &f))
		return 2;
	if (open_trace(&o, &t)) {
		filter_free(&f);
		return 1;
	}
	if (make_window(&o, &t, &w)) {
		filter_free(&f);
		trace_free(&t);
		return 2;
	}
	int status;
	if (o.export_path) {
		interrupt_catch();
		status = run_export(&o, &t, &f, &w);
		if (status == 0 && o.have_report)
			status = run_report(&o, &t, &f, &w);
	} else if (o.have_report) {
		status = run_report(&o, &t, &f, &w);
	} else if (wants_tui(&o)) {
		const char *script = getenv("RPDTOP_SCRIPT");
		struct tui_options to = { .script = script && *script ? script : NULL };
		status = tui_run(&t, &to);
	} else {
		/* Piped or redirected: print what the first pane shows. */
		fputs(_("rpdtop: not a terminal, printing the top report (see --report)\n"), stderr);
		o.report = REPORT_TOP;
		status = run_report(&o, &t, &f, &w);
	}
	filter_free(&f);
	trace_free(&t);
	return status;
}
