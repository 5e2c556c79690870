/* rpdtop: options, then the trace, then a presenter. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "demo/demo.h"
#include "load/load.h"
#include "options.h"
#include "present/report.h"
#include "util/i18n.h"

static int open_trace(const struct options *o, struct trace *t)
{
	struct rpd_error err = { { 0 } };
	if (o->demo) {
		struct gen_params p = { .seed = GEN_DEFAULT_SEED, .ops = GEN_DEMO_OPS,
					.gpus = GEN_DEMO_GPUS };
		demo_trace_build(t, &p);
		return 0;
	}
	/* Reports need only the GPU ops; the interactive view needs everything. */
	unsigned what = o->have_report ? LOAD_OPS : LOAD_ALL;
	if (trace_load(t, o->paths, o->npaths, what, &err)) {
		fprintf(stderr, "rpdtop: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static int run_report(const struct options *o, const struct trace *t)
{
	struct table tb;
	report_build(t, o->report, o->limit, &tb);
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
#if ENABLE_NLS
	bindtextdomain(PACKAGE, LOCALEDIR);
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
	if (open_trace(&o, &t))
		return 1;
	int status = 0;
	if (o.have_report) {
		status = run_report(&o, &t);
	} else {
		printf(_("rpdtop: %zu GPU ops loaded; the interactive view is not available in "
			 "this build, use --report=top|ktop|busy\n"), t.ops.n);
	}
	trace_free(&t);
	return status;
}
