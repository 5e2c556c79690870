/* Reading the groups of a batch run: in turn, or several at once when -j
 * leaves threads for more than one group's files. */
#include "config.h"
#include "batch/batch.h"

#include <pthread.h>
#include <stdlib.h>

#include "load/load.h"
#include "load/progress.h"
#include "util/threads.h"
#include "util/xalloc.h"

/* What each group's job does. */
struct pool;
typedef int (*group_job)(struct pool *p, size_t i);

struct pool {
	struct batch_plan *plan;
	const size_t *which;
	size_t n;
	group_job job;
	const char *show;
	struct rpd_error *errs; /* one per listed group */
	pthread_mutex_t lock;
	size_t next;   /* the next listed group to start */
	size_t failed; /* the first listed group that failed, or n */
	int failed_rc; /* its job's return: -1, or -2 for a usage error */
	size_t done;
	struct progress progress; /* of groups, when several are read at once */
	/* The jobs' inputs and outputs. */
	const struct batch_request *req;
	unsigned char **parts;
	size_t *lens;
	int64_t *lo, *hi;
	uint64_t *ops;
};

/* Take listed groups in order until none is left, or one has failed:
 * those before it have all started, so the first failure in the list's
 * order is among the groups that ran. */
static void *work(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next;
		if (i >= p->n || p->failed < p->n) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		p->next++;
		if (p->show) {
			const struct batch_group *grp = &p->plan->groups[p->which[i]];
			fprintf(stderr, "rpdtop: %sgroup %zu: %s, %zu inputs\n", p->show, p->which[i] + 1,
				grp->node ? grp->node : "-", grp->npaths);
		}
		pthread_mutex_unlock(&p->lock);
		int rc = p->job(p, i);
		pthread_mutex_lock(&p->lock);
		if (rc && i < p->failed) {
			p->failed = i;
			p->failed_rc = rc;
		}
		progress_update(&p->progress, ++p->done);
		pthread_mutex_unlock(&p->lock);
	}
}

/* As many groups at once as -j's threads can read, a thread per file of
 * the largest group, and as the descriptor limit lets open their files. */
static size_t groups_at_once(const struct batch_plan *plan, const size_t *which, size_t n)
{
	size_t most = 1;
	for (size_t i = 0; i < n; i++)
		most = plan->groups[which[i]].npaths > most ? plan->groups[which[i]].npaths : most;
	size_t k = (size_t)threads_limit() / most, fit = load_readers_that_fit() / most;
	k = k < fit ? k : fit;
	return k < 1 ? 1 : k > n ? n : k;
}

/* Run p's job on every listed group; 0, or the first failed job's -1 (or
 * -2: a usage error) with *err and *failed. */
static int run_pool(struct pool *p, size_t *failed, struct rpd_error *err)
{
	p->errs = xcalloc(p->n ? p->n : 1, sizeof(*p->errs));
	p->failed = p->n;
	pthread_mutex_init(&p->lock, NULL);
	size_t want = groups_at_once(p->plan, p->which, p->n);
	int extra = threads_acquire((int)want - 1);
	pthread_t *th = xcalloc(extra > 0 ? (size_t)extra : 1, sizeof(*th));
	int started = 0;
	p->plan->at_once = (size_t)extra + 1;
	/* A line of the groups read, on a terminal, when their loads draw
	 * none (several at once). */
	progress_start_groups(&p->progress, p->n, extra > 0);
	while (started < extra && pthread_create(&th[started], NULL, work, p) == 0)
		started++;
	work(p);
	for (int k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	progress_end(&p->progress);
	threads_release(extra);
	p->plan->at_once = 1;
	pthread_mutex_destroy(&p->lock);
	int rc = 0;
	if (p->failed < p->n) {
		*err = p->errs[p->failed];
		if (failed)
			*failed = p->which[p->failed];
		rc = p->failed_rc < 0 ? p->failed_rc : -1;
	}
	free(th);
	free(p->errs);
	return rc;
}

static int span_job(struct pool *p, size_t i)
{
	return batch_span_group(p->plan, p->which[i], &p->lo[i], &p->hi[i], &p->ops[i], &p->errs[i]);
}

int batch_span_groups(struct batch_plan *plan, const size_t *which, size_t n, int64_t *lo, int64_t *hi,
		      uint64_t *ops, size_t *failed, struct rpd_error *err)
{
	struct pool p = { .plan = plan, .which = which, .n = n, .job = span_job };
	size_t m = n ? n : 1;
	p.lo = xcalloc(m, sizeof(*p.lo));
	p.hi = xcalloc(m, sizeof(*p.hi));
	p.ops = xcalloc(m, sizeof(*p.ops));
	int rc = run_pool(&p, failed, err);
	*lo = *hi = 0;
	*ops = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (!p.ops[i])
			continue;
		if (!*ops || p.lo[i] < *lo)
			*lo = p.lo[i];
		if (!*ops || p.hi[i] > *hi)
			*hi = p.hi[i];
		*ops += p.ops[i];
	}
	free(p.lo);
	free(p.hi);
	free(p.ops);
	return rc;
}

static int reduce_job(struct pool *p, size_t i)
{
	size_t g = p->which[i];
	return batch_reduce_group(p->plan, g, p->req, &p->parts[g], &p->lens[g], &p->errs[i]);
}

int batch_reduce_groups(struct batch_plan *plan, const struct batch_request *req, const size_t *which,
			size_t n, const char *show, unsigned char **parts, size_t *lens, size_t *failed,
			struct rpd_error *err)
{
	struct pool p = { .plan = plan,
			  .which = which,
			  .n = n,
			  .job = reduce_job,
			  .show = show,
			  .req = req,
			  .parts = parts,
			  .lens = lens };
	return run_pool(&p, failed, err);
}

int batch_run(struct batch_plan *plan, const struct batch_request *req, FILE *out, struct rpd_error *err)
{
	size_t n = plan->ngroups ? plan->ngroups : 1;
	size_t *all = xmalloc_array(n, sizeof(*all));
	for (size_t g = 0; g < plan->ngroups; g++)
		all[g] = g;
	struct window w;
	char msg[512];
	int rc = 0;
	if (batch_needs_span(req)) {
		int64_t lo, hi;
		uint64_t ops;
		rc = batch_span_groups(plan, all, plan->ngroups, &lo, &hi, &ops, NULL, err);
		batch_plan_set_span(plan, lo, hi);
	}
	if (rc == 0 && batch_window(plan, req, &w, msg, sizeof(msg))) {
		free(all);
		err_set(err, "%s", msg);
		return -2;
	}
	unsigned char **parts = xcalloc(n, sizeof(*parts));
	size_t *lens = xcalloc(n, sizeof(*lens));
	/* A diagnostic the tests use to see that the groups were read apart. */
	const char *show = getenv("RPDTOP_SHOW_GROUPS");
	if (rc == 0)
		rc = batch_reduce_groups(plan, req, all, plan->ngroups, show && *show ? "" : NULL, parts,
					 lens, NULL, err);
	if (rc == 0)
		rc = batch_finish(plan, req, parts, lens, out, err);
	for (size_t g = 0; g < plan->ngroups; g++)
		free(parts[g]);
	free(parts);
	free(lens);
	free(all);
	return rc;
}
