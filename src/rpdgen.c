/* rpdgen: write a generated trace to an rpd or rocpd file, for tests and
 * benchmarks. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "demo/demo.h"
#include "rpdgen_plant.h"
#include "util/i18n.h"

static void usage(FILE *out)
{
	fputs(_("Usage: rpdgen [OPTION]... FILE\n"
		"Write a generated, deterministic trace with exactly N GPU ops.\n\n"
		"  --ops=N          GPU ops (default 20000)\n"
		"  --seed=S         random seed (default 42)\n"
		"  --gpus=G         GPUs, one process each (default 4)\n"
		"  --pid-base=P     first process id\n"
		"  --format=F       rpd (default), rocpd (rocprofiler-sdk), kineto (the\n"
		"                   PyTorch profiler's JSON; gzipped when FILE ends in .gz),\n"
		"                   nsys (an NVIDIA Nsight Systems SQLite export), rocprof\n"
		"                   (a results.db as rocprof --hip-trace writes it) or\n"
		"                   rocprofv3 (rocprofv3's JSON; gzipped when FILE ends in .gz)\n"
		"  --node=NAME      rocpd: the machine the file says it was recorded on\n"
		"  --no-barriers    no barrier ops (never any in rocpd output)\n"
		"  --monitor        rpd: add rocpd_monitor rows (each GPU's sclk over the\n"
		"                   trace, a row of a CPU and one without a number)\n"
		"  --collectives    a collective kernel (RCCL all-reduce, all-gather,\n"
		"                   reduce-scatter, vLLM's cross_device_reduce) on the\n"
		"                   communication queue in every layer, overlapping compute\n"
		"  --graphs         each step's forward pass after the first replayed by one\n"
		"                   hipGraphLaunch call (two graphs, in turn)\n"
		"  --force          replace FILE if it exists\n"
		"  --plant=NAME     rpd: plant a problem for the findings (repeatable):\n"),
	      out);
	rpdgen_plant_help(out);
	fputs(_("\nrocpd: one FILE in which each process has its own uuid and tables, laid\n"
		"out as 'rocpd merge' lays out several processes' files; with --gpus=1 it\n"
		"holds one process, as a file rocprofv3 writes.\n"),
	      out);
}

/* Each GPU's clock in eight steps over its ops' span, values as rpd keeps
 * them (text); a CPU's row and a value that is no number, which readers
 * leave out. */
static const char monitor_sql[] =
	"CREATE TABLE IF NOT EXISTS rocpd_monitor (id integer NOT NULL PRIMARY KEY AUTOINCREMENT, deviceType "
	"varchar(16) "
	"NOT NULL, "
	"deviceId integer NOT NULL, monitorType varchar(16) NOT NULL, start integer NOT NULL, end integer "
	"NOT NULL, "
	"value varchar(255) NOT NULL);"
	"WITH RECURSIVE step(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM step WHERE i < 7), "
	"span AS (SELECT gpuId AS g, min(start) AS s, (max(end) - min(start)) / 8 AS w FROM rocpd_op GROUP "
	"BY gpuId) "
	"INSERT INTO rocpd_monitor (deviceType, deviceId, monitorType, start, end, value) "
	"SELECT 'gpu', g, 'sclk', s + i * w, s + (i + 1) * w, CAST(800 + 100 * ((i * 3 + g) % 9) AS TEXT) "
	"FROM span, step ORDER BY g, i;"
	"INSERT INTO rocpd_monitor (deviceType, deviceId, monitorType, start, end, value) "
	"SELECT 'cpu', 0, 'sclk', min(start), max(end), '5000' FROM rocpd_op;"
	"INSERT INTO rocpd_monitor (deviceType, deviceId, monitorType, start, end, value) "
	"SELECT 'gpu', 0, 'sclk', min(start), max(end), 'n/a' FROM rocpd_op;";

static int add_monitor(const char *path)
{
	sqlite3 *db;
	char *msg = NULL;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, monitor_sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK)
		fprintf(stderr, "rpdgen: %s: %s\n", path, msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
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
		{ "ops", required_argument, NULL, 'n' },      { "seed", required_argument, NULL, 's' },
		{ "gpus", required_argument, NULL, 'g' },     { "force", no_argument, NULL, 'F' },
		{ "format", required_argument, NULL, 'o' },   { "node", required_argument, NULL, 'd' },
		{ "no-barriers", no_argument, NULL, 'b' },    { "collectives", no_argument, NULL, 'c' },
		{ "pid-base", required_argument, NULL, 'p' }, { "monitor", no_argument, NULL, 'm' },
		{ "graphs", no_argument, NULL, 'G' },         { "plant", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },           { NULL, 0, NULL, 0 },
	};
	struct gen_params p = { .seed = GEN_DEFAULT_SEED, .ops = GEN_DEMO_OPS, .gpus = GEN_DEMO_GPUS };
	uint64_t gpus = p.gpus, pid_base = 0;
	struct demo_output out = { .format = INPUT_RPD };
	int c, bad = 0, monitor = 0;
	const char *plant[16];
	size_t nplants = 0;

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
		else if (c == 'm')
			monitor = 1;
		else if (c == 'b')
			p.no_barriers = 1;
		else if (c == 'c')
			p.collectives = 1;
		else if (c == 'G')
			p.graphs = 1;
		else if (c == 'P' && nplants < sizeof(plant) / sizeof(plant[0]))
			plant[nplants++] = optarg;
		else if (c == 'p')
			bad |= number(optarg, &pid_base);
		else if (c == 'o' && !strcmp(optarg, "rpd"))
			out.format = INPUT_RPD;
		else if (c == 'o' && !strcmp(optarg, "rocpd"))
			out.format = INPUT_ROCPD;
		else if (c == 'o' && !strcmp(optarg, "kineto"))
			out.format = INPUT_KINETO;
		else if (c == 'o' && !strcmp(optarg, "nsys"))
			out.format = INPUT_NSYS;
		else if (c == 'o' && !strcmp(optarg, "rocprof"))
			out.format = INPUT_ROCPROF;
		else if (c == 'o' && !strcmp(optarg, "rocprofv3"))
			out.format = INPUT_ROCPROFV3;
		else if (c == 'h')
			return usage(stdout), 0;
		else
			bad = 1;
	}
	if (bad || optind + 1 != argc || ((monitor || nplants) && out.format != INPUT_RPD)) {
		usage(stderr);
		return 2;
	}
	/* rocpd, Kineto, nsys, rocprof and rocprofv3 have no barrier ops: none
	 * are drawn, so the file holds N ops. */
	if (out.format != INPUT_RPD)
		p.no_barriers = 1;
	p.gpus = (unsigned)gpus;
	p.pid_base = (int64_t)pid_base;
	struct rpd_error err;
	if (demo_write_file(argv[optind], &p, &out, &err)) {
		fprintf(stderr, "rpdgen: %s\n", err.msg);
		return 1;
	}
	if (monitor && add_monitor(argv[optind]))
		return 1;
	for (size_t i = 0; i < nplants; i++)
		if (rpdgen_plant(argv[optind], plant[i]))
			return 1;
	return 0;
}
