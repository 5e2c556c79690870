/* rpdtop-mpi: rpdtop's batch reports as an MPI job. Rank 0 lists the
 * inputs and groups them by the node they were recorded on, the groups are
 * dealt to the ranks (the largest first), each rank reduces its groups to
 * partial results, and rank 0 merges them and prints exactly what rpdtop
 * alone prints. Nothing is written beside the inputs: the partial results
 * travel in MPI messages. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/categories_file.h"
#include "analysis/findings_file.h"
#include "batch/batch.h"
#include "batch/batch_deal.h"
#include "batch/batch_wire.h"
#include "batch/run_batch.h"
#include "load/cache.h"
#include "options.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/threads.h"
#include "util/xalloc.h"
#include "workspace/workspace.h"

/* Options are parsed by every rank; only rank 0 says what it thinks of
 * them (help, version, usage errors), so that a job does not print each
 * line once per rank. */
static int parse_quietly(int argc, char **argv, struct options *o, int rank)
{
	int saved_out = -1, saved_err = -1;
	if (rank != 0) {
		fflush(stdout);
		fflush(stderr);
		saved_out = dup(STDOUT_FILENO);
		saved_err = dup(STDERR_FILENO);
		FILE *null = fopen("/dev/null", "w");
		if (null) {
			dup2(fileno(null), STDOUT_FILENO);
			dup2(fileno(null), STDERR_FILENO);
			fclose(null);
		}
	}
	int r = options_parse(argc, argv, o);
	if (rank != 0) {
		fflush(stdout);
		fflush(stderr);
		if (saved_out >= 0)
			dup2(saved_out, STDOUT_FILENO), close(saved_out);
		if (saved_err >= 0)
			dup2(saved_err, STDERR_FILENO), close(saved_err);
	}
	return r;
}

/* What the MPI mode does not do, refused on rank 0 before anything is
 * read (2: a usage error). */
static int refuse(const struct options *o)
{
	if (o->export_path) {
		/* One database is what users copy home; slices per rank would
		 * be N files to put together again. */
		err_report("rpdtop: %s",
			   _("--export is not done under MPI: an export is one database, written by "
			     "one process; run rpdtop --export on the inputs it needs"));
		return 2;
	}
	if (o->ndiff) {
		err_report("rpdtop: %s", _("--diff is not done under MPI: run rpdtop --diff"));
		return 2;
	}
	if (o->demo) {
		err_report("rpdtop: %s", _("--demo is not done under MPI: give the inputs"));
		return 2;
	}
	return 0;
}

/* Every rank learns rank 0's status; the job ends with it. */
static int agree(int status)
{
	MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return status;
}

/* Rank 0's message, if any rank failed: the first failure in group order
 * wins, so the line does not depend on which rank was fastest. Returns 0
 * when no rank failed (every rank the same); else 1, or on rank 0 2 when
 * the first failure is a usage error (agree() makes it every rank's). */
static int any_failed_as(int failed_group, const char *msg, int usage, int rank, int nranks)
{
	int first = failed_group;
	MPI_Allreduce(&failed_group, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (first == INT_MAX)
		return 0;
	/* Each rank's first message, gathered: small and fixed in size. */
	char mine[sizeof(((struct rpd_error *)0)->msg)] = "";
	int mine_group = failed_group;
	if (failed_group != INT_MAX)
		snprintf(mine, sizeof(mine), "%s", msg);
	char *all = rank == 0 ? xmalloc((size_t)nranks * sizeof(mine)) : NULL;
	int *groups = rank == 0 ? xmalloc((size_t)nranks * sizeof(int)) : NULL;
	int *usages = rank == 0 ? xmalloc((size_t)nranks * sizeof(int)) : NULL;
	MPI_Gather(mine, (int)sizeof(mine), MPI_CHAR, all, (int)sizeof(mine), MPI_CHAR, 0, MPI_COMM_WORLD);
	MPI_Gather(&mine_group, 1, MPI_INT, groups, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Gather(&usage, 1, MPI_INT, usages, 1, MPI_INT, 0, MPI_COMM_WORLD);
	int status = 1;
	if (rank == 0) {
		for (int r = 0; r < nranks; r++)
			if (groups[r] == first) {
				all[(size_t)r * sizeof(mine) + sizeof(mine) - 1] = '\0';
				err_report("rpdtop: %s", all + (size_t)r * sizeof(mine));
				status = usages[r] ? 2 : 1;
				break;
			}
	}
	free(all);
	free(groups);
	free(usages);
	return status;
}

/* 0 when no rank failed; else 1, the first failure said by rank 0. */
static int any_failed(int failed_group, const char *msg, int rank, int nranks)
{
	return any_failed_as(failed_group, msg, 0, rank, nranks) ? 1 : 0;
}

/* Rank 0's plan, sent to every rank as bytes. 0, or 1 with the reason
 * printed by rank 0 (every rank returns the same). */
static int share_plan(const struct options *o, struct batch_plan *plan, int rank)
{
	struct rpd_error err = { { 0 } };
	struct bytes_out b = { 0 };
	unsigned long long len = 0;
	int failed = 0;
	if (rank == 0) {
		struct workspace_options so = { .paths = o->paths,
						.npaths = o->npaths,
						.skip_bad = o->skip_bad,
						.same_node = o->same_node };
		failed = batch_plan_make(&so, plan, &err) != 0;
		if (failed)
			err_report("rpdtop: %s", err.msg);
		else
			batch_plan_encode(plan, &b);
		len = failed ? 0 : b.n;
	}
	MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (failed)
		return 1;
	MPI_Bcast(&len, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
	if (rank != 0)
		b.p = xmalloc(len ? len : 1);
	/* A plan is paths and numbers: far below MPI's 2 GB count. */
	MPI_Bcast(b.p, (int)len, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
	int bad = rank != 0 && batch_plan_decode(plan, b.p, len) != 0;
	free(b.p);
	int any_bad = bad;
	MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (any_bad && rank == 0)
		err_report("rpdtop: %s", _("the list of inputs did not reach every process intact"));
	return any_bad;
}

/* This rank's groups reduced: their encoded partials in parts (NULL for
 * the groups of other ranks). The first group that failed, or INT_MAX,
 * with its message in err. */
/* The groups dealt to this rank, in the order of the groups. */
static size_t *groups_of(const struct batch_plan *plan, const int *owner, int rank, size_t *n)
{
	size_t *mine = xmalloc_array(plan->ngroups ? plan->ngroups : 1, sizeof(*mine));
	*n = 0;
	for (size_t g = 0; g < plan->ngroups; g++)
		if (owner[g] == rank)
			mine[(*n)++] = g;
	return mine;
}

/* The first group that failed, or INT_MAX; *usage: its failure is a
 * usage error (batch_reduce_groups' -2). */
static int reduce_mine(struct batch_plan *plan, const struct batch_request *req, const int *owner, int rank,
		       unsigned char **parts, size_t *lens, struct rpd_error *err, int *usage)
{
	/* A diagnostic the tests use to see the groups spread over the ranks. */
	const char *show = getenv("RPDTOP_SHOW_GROUPS");
	char label[32];
	size_t n, failed;
	size_t *mine = groups_of(plan, owner, rank, &n);
	snprintf(label, sizeof(label), "rank %d: ", rank);
	int rc = batch_reduce_groups(plan, req, mine, n, show && *show ? label : NULL, parts, lens, &failed,
				     err);
	free(mine);
	*usage = rc == -2;
	return rc ? (int)failed : INT_MAX;
}

/* Every rank's partials to rank 0: per rank one message of its groups'
 * (group, length, bytes) records, gathered with MPI_Gatherv. -1 when a
 * rank's share is beyond what one MPI message counts (2 GB). */
static int gather_parts(const struct batch_plan *plan, const int *owner, int rank, int nranks,
			unsigned char **parts, size_t *lens)
{
	struct bytes_out mine = { 0 };
	for (size_t g = 0; g < plan->ngroups; g++) {
		if (owner[g] != rank)
			continue;
		bytes_put_u64(&mine, g);
		bytes_put_u64(&mine, lens[g]);
		for (size_t i = 0; i < lens[g]; i++)
			bytes_put_u8(&mine, parts[g][i]);
	}
	int too_big = mine.n > INT_MAX, any_too_big = too_big;
	MPI_Allreduce(&too_big, &any_too_big, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (any_too_big) {
		free(mine.p);
		return -1;
	}
	int count = (int)mine.n;
	int *counts = rank == 0 ? xcalloc((size_t)nranks, sizeof(int)) : NULL;
	int *displs = rank == 0 ? xcalloc((size_t)nranks, sizeof(int)) : NULL;
	MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	unsigned char *all = NULL;
	size_t total = 0;
	int overflow = 0;
	if (rank == 0) {
		for (int r = 0; r < nranks; r++) {
			displs[r] = (int)total;
			total += (size_t)counts[r];
			overflow |= total > INT_MAX;
		}
		all = xmalloc(total ? total : 1);
	}
	MPI_Bcast(&overflow, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (overflow) {
		free(all), free(counts), free(displs), free(mine.p);
		return -1;
	}
	MPI_Gatherv(mine.p, count, MPI_UNSIGNED_CHAR, all, counts, displs, MPI_UNSIGNED_CHAR, 0,
		    MPI_COMM_WORLD);
	free(mine.p);
	if (rank == 0) {
		/* Rank 0's own partials are in the message too: replaced. */
		struct bytes_in in;
		bytes_in_init(&in, all, total);
		while (in.at < in.n && !in.bad) {
			uint64_t g = bytes_get_u64(&in), n = bytes_get_u64(&in);
			if (g >= plan->ngroups || n > in.n - in.at) {
				in.bad = 1;
				break;
			}
			free(parts[g]);
			parts[g] = xmalloc(n ? n : 1);
			memcpy(parts[g], all + in.at, n);
			lens[g] = n;
			in.at += n;
		}
		overflow = in.bad;
	}
	free(all);
	free(counts);
	free(displs);
	return overflow ? -1 : 0;
}

/* A report read all at once, by rank 0, from the inputs it listed. */
static int run_whole(const struct options *o, const struct batch_plan *plan, struct analysis_params *an)
{
	struct options whole = *o;
	whole.paths = (const char *const *)plan->paths;
	whole.npaths = plan->npaths;
	struct workspace w;
	int status = run_open_workspace(&whole, &w);
	if (status == 0) {
		status = run_batch(&whole, &w, an);
		workspace_close(&w);
	}
	return status;
}

/* A window placed on the whole trace's span: each rank loads the ops of
 * its groups, the spans are reduced (the least start, the greatest end
 * of the groups that have ops) and every rank places the window on it.
 * The first group that failed, or INT_MAX. */
static int share_span(struct batch_plan *plan, const int *owner, int rank, struct rpd_error *err)
{
	long long lo = LLONG_MAX, hi = LLONG_MIN, all_lo, all_hi;
	unsigned long long ops = 0, all_ops;
	int failed = INT_MAX;
	size_t n, bad;
	size_t *mine = groups_of(plan, owner, rank, &n);
	int64_t a, b;
	uint64_t count;
	if (batch_span_groups(plan, mine, n, &a, &b, &count, &bad, err))
		failed = (int)bad;
	else if (count) {
		lo = a;
		hi = b;
		ops = count;
	}
	free(mine);
	MPI_Allreduce(&lo, &all_lo, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(&hi, &all_hi, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(&ops, &all_ops, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	/* As one process finds it: 0, 0 without any op. */
	batch_plan_set_span(plan, all_ops ? all_lo : 0, all_ops ? all_hi : 0);
	return failed;
}

/* The groups dealt, reduced, gathered and merged; rank 0 prints. The
 * exit status, the same on every rank. */
static int mpi_groupwise(struct batch_plan *plan, const struct batch_request *req, int rank, int nranks)
{
	struct rpd_error err = { { 0 } };
	size_t n = plan->ngroups;
	uint64_t *bytes = xcalloc(n ? n : 1, sizeof(*bytes));
	int *owner = xcalloc(n ? n : 1, sizeof(*owner));
	unsigned char **parts = xcalloc(n ? n : 1, sizeof(*parts));
	size_t *lens = xcalloc(n ? n : 1, sizeof(*lens));
	for (size_t g = 0; g < n; g++)
		bytes[g] = plan->groups[g].bytes;
	batch_deal(bytes, n, nranks, owner);
	int status = 0, failed = INT_MAX;
	if (batch_needs_span(req))
		failed = share_span(plan, owner, rank, &err);
	if (any_failed(failed, err.msg, rank, nranks))
		status = 1;
	struct window w;
	char msg[512];
	/* A window that does not fit the trace: a usage error, said once. */
	if (status == 0 && batch_window(plan, req, &w, msg, sizeof(msg))) {
		if (rank == 0)
			err_report("rpdtop: %s", msg);
		status = 2;
	}
	int usage = 0;
	if (status == 0)
		failed = reduce_mine(plan, req, owner, rank, parts, lens, &err, &usage);
	if (status != 0) {
		/* Said already. */
	} else if ((status = any_failed_as(failed, err.msg, usage, rank, nranks)) != 0) {
		/* Said by rank 0; the status is rank 0's, as every rank's is. */
	} else if (gather_parts(plan, owner, rank, nranks, parts, lens)) {
		if (rank == 0)
			err_report("rpdtop: %s", _("the partial results are too large for one MPI message"));
		status = 1;
	} else if (rank == 0) {
		if (batch_finish(plan, req, parts, lens, stdout, &err)) {
			err_report("rpdtop: %s", err.msg);
			status = 1;
		} else if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, _("rpdtop: write error: %s\n"), strerror(errno));
			status = 1;
		}
	}
	for (size_t g = 0; g < n; g++)
		free(parts[g]);
	free(parts);
	free(lens);
	free(owner);
	free(bytes);
	return agree(status);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank = 0, nranks = 1;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	run_process_setup();
	struct options o;
	int status;
	switch (parse_quietly(argc, argv, &o, rank)) {
	case OPTIONS_EXIT_OK:
		MPI_Finalize();
		return 0;
	case OPTIONS_USAGE_ERROR:
		MPI_Finalize();
		return 2;
	case OPTIONS_RUN:
		break;
	}
	status = agree(rank == 0 ? refuse(&o) : 0);
	if (status) {
		MPI_Finalize();
		return status;
	}
	threads_set_limit(o.jobs);
	cache_configure(!o.no_cache, o.cache_size);
	/* Without -r: the top report, as rpdtop prints when not a terminal. */
	if (!o.have_report) {
		o.have_report = 1;
		o.report = &report_top;
	}
	struct analysis_params an;
	struct batch_request req;
	run_analysis_params(&o, &an);
	run_request(&o, &an, &req);
	/* Every process sorts kernels into the settings' categories. */
	if (req.report->uses & REPORT_USES_CATEGORIES)
		settings_categories_load(&an.cats, o.comm);
	if (req.report->uses & REPORT_USES_FINDINGS)
		settings_findings_load(&an.findings);
	struct batch_plan plan = { 0 };
	if (share_plan(&o, &plan, rank)) {
		analysis_params_free(&an);
		MPI_Finalize();
		return 1;
	}
	if (batch_groupwise(&plan, &req)) {
		status = mpi_groupwise(&plan, &req, rank, nranks);
	} else {
		/* A report that does not merge: rank 0 reads it all, as rpdtop. */
		status = agree(rank == 0 ? run_whole(&o, &plan, &an) : 0);
	}
	batch_plan_free(&plan);
	analysis_params_free(&an);
	MPI_Finalize();
	return status;
}
