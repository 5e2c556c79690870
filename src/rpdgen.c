/* rpdgen: write a generated trace to an rpd or rocpd file, for tests and
 * benchmarks. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo/demo.h"
#include "util/i18n.h"

static void usage(FILE *out)
{
	fputs(_("Usage: rpdgen [OPTION]... FILE\n"
		"Write a generated, deterministic trace with exactly N GPU ops.\n\n"
		"  --ops=N          GPU ops (default 20000)\n"
		"  --seed=S         random seed (default 42)\n"
		"  --gpus=G         GPUs, one process each (default 4)\n"
		"  --pid-base=P     first process id\n"
		"  --format=F       rpd (default) or rocpd (rocprofiler-sdk)\n"
		"  --node=NAME      rocpd: the machine the file says it was recorded on\n"
		"  --no-barriers    no barrier ops (never any in rocpd output)\n"
		"  --collectives    a collective kernel (RCCL all-reduce, all-gather,\n"
		"                   reduce-scatter, vLLM's cross_device_reduce) on the\n"
		"                   communication queue in every layer, overlapping compute\n"
		"  --force          replace FILE if it exists\n\n"
		"rocpd: one FILE in which each process has its own uuid and tables, laid\n"
		"out as 'rocpd merge' lays out several processes' files; with --gpus=1 it\n"
		"holds one process, as a file rocprofv3 writes.\n"),
	      out);
}

static int number(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end || s[0] == '-' ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ops", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "gpus", required_argument, NULL, 'g' },
		{ "force", no_argument, NULL, 'F' },
		{ "format", required_argument, NULL, 'o' },
		{ "node", required_argument, NULL, 'd' },
		{ "no-barriers", no_argument, NULL, 'b' },
		{ "collectives", no_argument, NULL, 'c' },
		{ "pid-base", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct gen_params p = { .seed = GEN_DEFAULT_SEED, .ops = GEN_DEMO_OPS, .gpus = GEN_DEMO_GPUS };
	uint64_t gpus = p.gpus, pid_base = 0;
	struct demo_output out = { .format = INPUT_RPD };
	int c, bad = 0;

	setlocale(LC_ALL, "");
	while ((c = getopt_long(argc, argv, "n:s:g:h", opts, NULL)) != -1) {
		if (c == 'n')
			bad |= number(optarg, &p.ops);
		else if (c == 's')
			bad |= number(optarg, &p.seed);
		else if (c == 'g')
			bad |= number(optarg, &gpus) || gpus < 1 || gpus > 64;
		else if (c == 'F')
			out.force = 1;
		else if (c == 'd')
			out.node = optarg;
		else if (c == 'b')
			p.no_barriers = 1;
		else if (c == 'c')
			p.collectives = 1;
		else if (c == 'p')
			bad |= number(optarg, &pid_base);
		else if (c == 'o' && (!strcmp(optarg, "rpd") || !strcmp(optarg, "rocpd")))
			out.format = strcmp(optarg, "rpd") == 0 ? INPUT_RPD : INPUT_ROCPD;
		else if (c == 'h')
			return usage(stdout), 0;
		else
			bad = 1;
	}
	if (bad || optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	/* rocpd has no barrier ops: none are drawn, so the file holds N ops. */
	if (out.format == INPUT_ROCPD)
		p.no_barriers = 1;
	p.gpus = (unsigned)gpus;
	p.pid_base = (int64_t)pid_base;
	struct rpd_error err;
	if (demo_write_file(argv[optind], &p, &out, &err)) {
		fprintf(stderr, "rpdgen: %s\n", err.msg);
		return 1;
	}
	return 0;
}
