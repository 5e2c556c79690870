#include "config.h"
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/diff.h"
#include "analysis/gaps.h"
#include "analysis/roi.h"
#include "export/export.h"
#include "load/cache.h"
#include "session/window.h"
#include "util/error.h"
#include "util/i18n.h"

/* Options with a long name only and no letter to spare: codes past any
 * character. */
enum long_only {
	OPT_DEBUG_MEMORY = 256,
	OPT_EXPORT_FORMAT,
};

static const struct option long_options[] = {
	{ "report", required_argument, NULL, 'r' },
	{ "format", required_argument, NULL, 'f' },
	{ "limit", required_argument, NULL, 'n' },
	{ "demo", no_argument, NULL, 'D' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "filter", required_argument, NULL, 'e' },
	{ "exclude", required_argument, NULL, 'x' },
	{ "window", required_argument, NULL, 'w' },
	{ "gpu", required_argument, NULL, 'g' },
	{ "input", required_argument, NULL, 'i' },
	{ "export", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'F' },
	{ "export-format", required_argument, NULL, OPT_EXPORT_FORMAT },
	{ "skip-bad", no_argument, NULL, 'B' },
	{ "same-node", no_argument, NULL, 'N' },
	{ "gap-threshold", required_argument, NULL, 'G' },
	{ "per-queue", no_argument, NULL, 'Q' },
	{ "comm", required_argument, NULL, 'C' },
	{ "diff", required_argument, NULL, 'd' },
	{ "against-window", required_argument, NULL, 'A' },
	{ "tolerance", required_argument, NULL, 'T' },
	{ "gate", required_argument, NULL, 'K' },
	{ "strip", no_argument, NULL, 'S' },
	{ "outliers", required_argument, NULL, 'Z' },
	{ "raw-names", no_argument, NULL, 'M' },
	{ "step", required_argument, NULL, 'P' },
	{ "roi", required_argument, NULL, 'R' },
	{ "debug-memory", no_argument, NULL, OPT_DEBUG_MEMORY },
	{ "no-cache", no_argument, NULL, 'c' },
	{ "cache-size", required_argument, NULL, 'z' },
	/* Diagnostic, not in --help: a batch report from the whole load, not
	 * node group by node group (the two must agree). */
	{ "whole-load", no_argument, NULL, 'W' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The words of text after an option, wrapped in the help's column of
 * texts at its width (in characters: a translation may hold any). */
static void print_wrapped(const char *option, const char *text)
{
	enum { COLUMN = 23, WIDTH = 74 };
	size_t at = COLUMN;
	int first = 1;
	fputs(option, stdout);
	for (const char *w = text; *w;) {
		size_t len = strcspn(w, " "), chars = 0;
		for (size_t i = 0; i < len; i++)
			chars += ((unsigned char)w[i] & 0xc0) != 0x80;
		if (!first && at + 1 + chars > WIDTH) {
			printf("\n%*s", COLUMN, "");
			at = COLUMN;
			first = 1;
		}
		if (!first)
			putchar(' '), at++;
		fwrite(w, 1, len, stdout);
		at += chars;
		first = 0;
		w += len + strspn(w + len, " ");
	}
	putchar('\n');
}

/* -r, and what each report of the registry shows. */
static void print_reports(void)
{
	char list[2048], text[2200];
	report_list(list, sizeof(list), 1);
	snprintf(text, sizeof(text), _("print a report and exit: %s"), list);
	print_wrapped("  -r, --report=NAME    ", text);
}

static void print_help(void)
{
	printf(_("Usage: %s [OPTION]... DATABASE...\n"), "rpdtop");
	fputs(_("Browse GPU profiling traces in the terminal, or print reports from\n"
		"them: rocmProfileData .rpd, rocprofiler-sdk rocpd .db, rocprof\n"
		"results.db, NVIDIA Nsight Systems SQLite exports, PyTorch profiler\n"
		"(Kineto) JSON and rocprofv3 JSON (plain or gzipped), told by their\n"
		"content. Several traces, or directories of them, are read as one.\n\n"),
	      stdout);
	print_reports();
	/* xgettext:no-c-format */
	fputs(_("  -f, --format=FORMAT  report format: text (default), csv, tsv (tabs,\n"
		"                       for scripts: names may hold commas), json or md\n"
		"                       (Markdown)\n"
		"  -n, --limit=N        print at most N rows\n"
		"  -e, --filter=REGEX   only names matching REGEX (PCRE2; caseless unless it\n"
		"                       has a capital; a leading ! excludes); repeatable\n"
		"  -x, --exclude=REGEX  only names not matching REGEX; repeatable\n"
		"  -w, --window=START:END  only ops and calls overlapping the window; START\n"
		"                       and END are ns, +OFFSET from the trace start,\n"
		"                       N% of the span, or values like 1.5s, 200ms, 40us;\n"
		"                       or marker:REGEX[#N], kernel:REGEX[#N] (the N-th,\n"
		"                       -1 the last; all without #N), A..B between two\n"
		"      --roi=hot|trim   narrow the window to the hottest kernel's first to\n"
		"                       last instance (hot) or to the GPU ops (trim)\n"
		"      --step=REGEX     the roctx ranges that are -r steps' steps\n"
		"      --gpu=REGEX      only ops on GPUs whose label (2, node/2, file:2)\n"
		"                       or number matches REGEX (case as in --filter)\n"
		"      --input=REGEX    only the inputs whose file name, path or node\n"
		"                       matches REGEX\n"
		"      --gap-threshold=TIME  a gap shorter than TIME (default 5us) whose\n"
		"                       launch came in time is a kernel wait\n"
		"      --per-queue      gaps, idle: each queue's gaps, not each GPU's\n"
		"      --comm=REGEX     communication kernels (default: RCCL, NCCL and the\n"
		"                       collectives by name); case as in --filter\n"
		"      --diff=BASE      compare the run BASE (a file or directory;\n"
		"                       repeatable) with the run DATABASE...: GPU time\n"
		"                       by name and busy per GPU, base against new\n"
		"      --against-window=START:END  with --diff FILE and no DATABASE:\n"
		"                       compare FILE's window -w with this window of it\n"
		"      --tolerance=PCT  --diff: a name is the same within PCT percent\n"
		"                       of its base time (default 2)\n"
		"      --gate=PCT       --diff: exit status 3 when the GPU time, or that\n"
		"                       of a name holding over 1% of it, grew by more\n"
		"                       than PCT percent; -r findings: exit status 3\n"
		"                       when a finding's share is PCT percent or more\n"
		"      --strip          --diff: compare names stripped of return types,\n"
		"                       templates and argument lists\n"
		"      --outliers=Z     top, ktop: leave instances whose |z-score| exceeds Z\n"
		"                       out of a name's statistics (not of its totals)\n"
		"      --raw-names      reports show names as the inputs hold them\n"
		"                       (mangled), not demangled as the viewer shows them\n"
		"  -o, --export=FILE    write what the filter and window keep to a new\n"
		"                       file FILE of the inputs' format (a database or\n"
		"                       Kineto JSON) and exit\n"
		"      --export-format=FORMAT  --export writes FORMAT: input (default: the\n"
		"                       inputs' own), or rpd or rocpd, converted from any\n"
		"                       inputs (Kineto, Nsight Systems and mixes too)\n"
		"      --force          let --export replace an existing FILE\n"
		"      --demo           use a built-in generated trace instead of DATABASE\n"
		"  -j, --jobs=N         at most N threads at work at once (default: one\n"
		"                       per core)\n"
		"      --skip-bad       load the inputs that can be read, warn about others\n"
		"      --same-node      inputs that do not name their node were all\n"
		"                       recorded on one machine (they share GPUs)\n"
		"      --no-cache       neither use nor write the cache of loaded traces\n"
		"                       (~/.cache/rpdtop; $RPDTOP_CACHE_DIR)\n"
		"      --cache-size=SIZE  keep the cache at most SIZE bytes (K, M, G;\n"
		"                       default 8G; 0 writes nothing), oldest out first\n"
		"  -h, --help           display this help and exit\n"
		"  -V, --version        output version information and exit\n\n"),
	      stdout);
	fputs(_("Inputs are opened read-only and never modified.\n\n"
		"Exit status: 0 on success, 1 when an input cannot be read,\n"
		"2 on a usage error, 3 when the --diff or findings gate tripped.\n"),
	      stdout);
}

static void print_version(void)
{
	printf("rpdtop %s\n", PACKAGE_VERSION);
	fputs(_("Copyright (C) 2026 The rpdtop authors.\n"
		"License MIT: <https://opensource.org/licenses/MIT>.\n"
		"This is free software: you are free to change and redistribute it.\n"
		"There is NO WARRANTY, to the extent permitted by law.\n"),
	      stdout);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	struct rpd_error e;
	va_list ap;
	va_start(ap, fmt);
	err_vset(&e, fmt, ap); /* an argument may hold control characters */
	va_end(ap);
	fprintf(stderr, "rpdtop: %s", e.msg);
	fprintf(stderr, _("; try '%s --help'\n"), "rpdtop");
	return -1;
}

static int parse_limit(const char *s, size_t *limit)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		return usage_error(_("invalid limit '%s' (expected a number of rows)"), s);
	*limit = (size_t)n;
	return 0;
}

/* A percentage: a number >= 0, a % sign after it allowed. */
static int parse_percent(const char *s, const char *option, double *pct)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end != s && *end == '%')
		end++;
	if (errno || end == s || *end || !(v >= 0) || v > 1e9)
		return usage_error(_("invalid %s '%s' (expected a percentage, like 5)"), option, s);
	*pct = v;
	return 0;
}

static int add_diff(struct options *o, const char *path)
{
	if (o->ndiff == sizeof(o->diff_paths) / sizeof(o->diff_paths[0]))
		return usage_error(_("at most %zu --diff options (a directory holds any number)"),
				   sizeof(o->diff_paths) / sizeof(o->diff_paths[0]));
	o->diff_paths[o->ndiff++] = path;
	return 0;
}

static int parse_outliers(const char *s, double *z)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 1e6)
		return usage_error(_("invalid z-score '%s' (expected a number above 0, such as 3)"), s);
	*z = v;
	return 0;
}

static int parse_jobs(const char *s, int *jobs)
{
	char *end;
	errno = 0;
	long n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < 1 || n > 1024)
		return usage_error(_("invalid number of jobs '%s' (expected 1 to 1024)"), s);
	*jobs = (int)n;
	return 0;
}

/* A size in bytes, with K, M, G or T (powers of 1024) after it allowed. */
static int parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(s, &end, 10);
	const char *units = "KMGT";
	const char *u = *end ? strchr(units, *end) : NULL;
	int shift = u ? 10 * (int)(u - units + 1) : 0;
	if (u)
		end++;
	if (errno || end == s || *end || s[0] == '-' || n > (UINT64_MAX >> shift))
		return usage_error(_("invalid size '%s' (expected bytes, like 500M or 8G)"), s);
	*bytes = (uint64_t)n << shift;
	return 0;
}

/* Exclude rules are kept as "!pattern", the form the filter takes. */
static int add_rule(struct options *o, const char *pattern, int exclude)
{
	static char excludes[16][1024];
	if (o->nrules == sizeof(o->rules) / sizeof(o->rules[0]))
		return usage_error(_("at most %zu --filter and --exclude options"),
				   sizeof(o->rules) / sizeof(o->rules[0]));
	if (exclude) {
		snprintf(excludes[o->nrules], sizeof(excludes[0]), "!%s", pattern);
		pattern = excludes[o->nrules];
	}
	o->rules[o->nrules++] = pattern;
	return 0;
}

/* getopt's own messages are off so that every error is one line. */
static char bad_option[64];

static void remember_option(char **argv)
{
	if (optopt)
		snprintf(bad_option, sizeof(bad_option), "-%c", optopt);
	else
		snprintf(bad_option, sizeof(bad_option), "%s", argv[optind - 1]);
}

static int parse_one(int c, struct options *o)
{
	switch (c) {
	case 'r':
		o->have_report = 1;
		o->report = report_find(optarg);
		if (!o->report) {
			char list[512];
			report_list(list, sizeof(list), 0);
			return usage_error(_("unknown report '%s' (expected %s)"), optarg, list);
		}
		return 0;
	case 'f':
		o->format_set = 1;
		if (report_parse_format(optarg, &o->format))
			return usage_error(_("unknown format '%s' (expected text, csv, tsv, json or md)"),
					   optarg);
		return 0;
	case 'n':
		return parse_limit(optarg, &o->limit);
	case 'D':
		o->demo = 1;
		return 0;
	case 'j':
		return parse_jobs(optarg, &o->jobs);
	case 'e':
	case 'x':
		return add_rule(o, optarg, c == 'x');
	case 'w':
		o->window = optarg;
		return 0;
	case 'g':
		o->gpu = optarg;
		return 0;
	case 'i':
		o->input = optarg;
		return 0;
	case 'o':
		o->export_path = optarg;
		return 0;
	case 'F':
		o->force = 1;
		return 0;
	case 'B':
		o->skip_bad = 1;
		return 0;
	case 'N':
		o->same_node = 1;
		return 0;
	case 'W':
		o->whole_load = 1;
		return 0;
	case 'G':
		if (window_parse_duration(optarg, &o->gap_threshold))
			return usage_error(_("invalid time '%s' (expected ns or a value like 5us)"), optarg);
		return 0;
	case 'Q':
		o->per_queue = 1;
		return 0;
	case 'C':
		o->comm = optarg;
		return 0;
	case 'd':
		return add_diff(o, optarg);
	case 'A':
		o->against_window = optarg;
		return 0;
	case 'T':
		o->tolerance_set = 1;
		return parse_percent(optarg, "--tolerance", &o->tolerance);
	case 'K':
		return parse_percent(optarg, "--gate", &o->gate);
	case 'S':
		o->strip = 1;
		return 0;
	case 'Z':
		return parse_outliers(optarg, &o->outlier_z);
	case 'M':
		o->raw_names = 1;
		return 0;
	case OPT_DEBUG_MEMORY:
		o->debug_memory = 1;
		return 0;
	case OPT_EXPORT_FORMAT:
		o->export_format_set = 1;
		if (export_format_parse(optarg, &o->export_format))
			return usage_error(_("unknown export format '%s' (expected input, rpd or rocpd)"),
					   optarg);
		return 0;
	case 'c':
		o->no_cache = 1;
		return 0;
	case 'z':
		return parse_size(optarg, &o->cache_size);
	case 'P':
		o->step = optarg;
		return 0;
	case 'R':
		if (roi_parse(optarg, &o->roi))
			return usage_error(_("unknown region of interest '%s' (expected hot or trim)"),
					   optarg);
		return 0;
	case ':':
		return usage_error(_("option '%s' needs an argument"), bad_option);
	default:
		return usage_error(_("unrecognized option '%s'"), bad_option);
	}
}

/* --diff and the options that only it takes. */
static int check_diff(const struct options *o)
{
	if (!o->ndiff) {
		if (o->against_window)
			return usage_error("%s",
					   _("--against-window compares two windows of the --diff run"));
		if (o->gate >= 0 && !(o->have_report && o->report == &report_findings))
			return usage_error("%s", _("--gate is an option of --diff and of -r findings"));
		if (o->strip || o->tolerance_set)
			return usage_error("%s", _("--tolerance and --strip are options of --diff"));
		return 0;
	}
	if (o->have_report || o->export_path || o->demo)
		return usage_error("%s", _("--diff is a report of its own: no --report, --export or --demo"));
	if (o->against_window && o->npaths)
		return usage_error("%s", _("--against-window compares two windows of the --diff run: no "
					   "DATABASE"));
	if (!o->against_window && !o->npaths)
		return usage_error("%s",
				   _("--diff BASE needs the new run (DATABASE...) or --against-window"));
	return 0;
}

enum options_result options_parse(int argc, char **argv, struct options *o)
{
	int c;
	memset(o, 0, sizeof(*o));
	o->format = FORMAT_TEXT;
	o->gap_threshold = GAPS_DEFAULT_THRESHOLD;
	o->comm = BREAKDOWN_DEFAULT_COMM;
	o->tolerance = DIFF_DEFAULT_TOLERANCE;
	o->gate = -1;
	o->cache_size = CACHE_DEFAULT_CAP;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:f:n:j:e:x:w:o:hV", long_options, NULL)) != -1) {
		if (c == '?' || c == ':')
			remember_option(argv);
		if (c == 'h') {
			print_help();
			return OPTIONS_EXIT_OK;
		}
		if (c == 'V') {
			print_version();
			return OPTIONS_EXIT_OK;
		}
		if (parse_one(c, o))
			return OPTIONS_USAGE_ERROR;
	}
	o->paths = (const char *const *)argv + optind;
	o->npaths = (size_t)(argc - optind);
	if (check_diff(o))
		return OPTIONS_USAGE_ERROR;
	if (o->ndiff && o->against_window) {
		/* One run's two windows: the new run is the base's inputs. */
		o->paths = o->diff_paths;
		o->npaths = o->ndiff;
	}
	if (!o->demo && o->npaths == 0) {
		usage_error("%s", _("no DATABASE given (or use --demo)"));
		return OPTIONS_USAGE_ERROR;
	}
	if (o->export_format_set && !o->export_path) {
		usage_error("%s", _("--export-format is the format of --export FILE: give -o FILE"));
		return OPTIONS_USAGE_ERROR;
	}
	if (o->demo && o->export_path) {
		usage_error("%s",
			    _("--export writes the inputs' rows; the demo trace has none (see rpdgen)"));
		return OPTIONS_USAGE_ERROR;
	}
	if (o->demo && o->npaths) {
		usage_error("%s", _("--demo takes no DATABASE"));
		return OPTIONS_USAGE_ERROR;
	}
	return OPTIONS_RUN;
}
