#include "config.h"
#include "load/load.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "load/inputs.h"
#include "load/progress.h"
#include "load/rocpd.h"
#include "sqlfile/dbfile.h"
#include "trace/merge.h"
#include "util/i18n.h"
#include "util/xalloc.h"

static int cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* Read one input into t: the format is told by its tables. */
static int load_one(struct trace *t, const char *path, unsigned what, int threads, struct rpd_error *err)
{
	sqlite3 *db;
	int version;
	if (dbfile_open(path, &db, err))
		return -1;
	int rc = rocpd_is(db, path, err);
	if (rc == 1) {
		rc = rocpd_detect(db, path, &version, err);
		if (rc == 0)
			rc = rocpd_read(t, db, path, version, what, err);
	} else if (rc == 0) {
		rc = rpd_detect(db, path, &version, err);
		if (rc == 0)
			rc = rpd_read(t, db, trace_add_input(t, path, INPUT_RPD, version), what, threads,
				      err);
	}
	/* Connections are closed as soon as an input is read: a run over many
	 * inputs must not hold a descriptor per file. */
	sqlite3_close(db);
	return rc;
}

enum job_state { JOB_PENDING, JOB_DONE, JOB_FAILED };

struct job {
	const char *path;
	struct trace part;
	struct rpd_error err;
	enum job_state state;
};

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct job *jobs;
	size_t n, next;
	int stop;
	unsigned what;
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		if (p->stop || p->next == p->n) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		struct job *j = &p->jobs[p->next++];
		pthread_mutex_unlock(&p->lock);

		trace_init(&j->part);
		j->part.no_op_ids = (p->what & LOAD_NO_OP_IDS) != 0;
		int rc = load_one(&j->part, j->path, p->what, 1, &j->err);
		progress_flush();

		pthread_mutex_lock(&p->lock);
		j->state = rc == 0 ? JOB_DONE : JOB_FAILED;
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
}

/* Wait for job i, showing progress meanwhile. */
static void wait_job(struct pool *p, size_t i, struct progress *pr)
{
	pthread_mutex_lock(&p->lock);
	while (p->jobs[i].state == JOB_PENDING) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->changed, &p->lock, &ts);
		pthread_mutex_unlock(&p->lock);
		progress_update(pr, i);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
}

/* Merge the parts in the order of the inputs as they complete. Returns the
 * number skipped, or -1 when a bad input stops the load. */
static long merge_all(struct trace *t, struct pool *p, int skip_bad, struct progress *pr,
		      struct rpd_error *err)
{
	long skipped = 0;
	for (size_t i = 0; i < p->n; i++) {
		wait_job(p, i, pr);
		struct job *j = &p->jobs[i];
		if (j->state == JOB_FAILED && !skip_bad) {
			*err = j->err;
			return -1;
		}
		if (j->state == JOB_FAILED) {
			progress_end(pr);
			fprintf(stderr, _("rpdtop: skipped %s\n"), j->err.msg);
			skipped++;
		} else {
			trace_merge(t, &j->part);
		}
		trace_free(&j->part);
		progress_update(pr, i + 1);
	}
	return skipped;
}

static long load_parallel(struct trace *t, const struct input_list *in, const struct load_options *o,
			  struct progress *pr, struct rpd_error *err)
{
	struct pool p = { .n = in->n, .what = o->what };
	p.jobs = xcalloc(in->n, sizeof(*p.jobs));
	for (size_t i = 0; i < in->n; i++)
		p.jobs[i].path = in->paths[i];
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.changed, NULL);
	size_t nthreads = (size_t)(o->jobs > 0 ? o->jobs : cores());
	if (nthreads > in->n)
		nthreads = in->n;
	pthread_t *threads = xcalloc(nthreads, sizeof(*threads));
	size_t started = 0;
	while (started < nthreads && pthread_create(&threads[started], NULL, worker, &p) == 0)
		started++;
	/* Without any thread the work is still done, on this one. */
	if (started == 0)
		worker(&p);
	long skipped = merge_all(t, &p, o->skip_bad, pr, err);

	pthread_mutex_lock(&p.lock);
	p.stop = 1;
	pthread_mutex_unlock(&p.lock);
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	for (size_t i = 0; i < in->n; i++)
		trace_free(&p.jobs[i].part);
	pthread_mutex_destroy(&p.lock);
	pthread_cond_destroy(&p.changed);
	free(threads);
	free(p.jobs);
	return skipped;
}

static int finish(struct trace *t, const struct input_list *in, long skipped, const struct load_options *o,
		  struct rpd_error *err)
{
	if (skipped > 0 && (size_t)skipped == in->n)
		return err_set(err, _("none of the %zu inputs could be read"), in->n);
	if (skipped > 0)
		fprintf(stderr, _("rpdtop: skipped %ld of %zu inputs that could not be read\n"), skipped,
			in->n);
	if ((o->what & LOAD_OPS) && t->ops.n == 0) {
		if (in->n == 1)
			return err_set(err, _("%s: trace has no GPU ops"), in->paths[0]);
		return err_set(err, _("none of the %zu inputs has GPU ops"), in->n);
	}
	trace_finish(t);
	return 0;
}

int trace_load(struct trace *t, const char *const *args, size_t nargs, const struct load_options *o,
	       struct rpd_error *err)
{
	struct input_list in;
	struct progress pr;
	trace_init(t);
	t->same_node = o->same_node;
	t->no_op_ids = (o->what & LOAD_NO_OP_IDS) != 0;
	if (inputs_expand(args, nargs, &in, err)) {
		trace_free(t);
		return -1;
	}
	progress_start(&pr, in.n, o->progress, in.n == 1);
	long skipped = 0;
	/* One input is read straight into the trace, with no merge. */
	if (in.n == 1)
		skipped = load_one(t, in.paths[0], o->what, o->jobs > 0 ? o->jobs : cores(), err) ? -1 : 0;
	else
		skipped = load_parallel(t, &in, o, &pr, err);
	progress_end(&pr);
	int rc = skipped < 0 ? -1 : finish(t, &in, skipped, o, err);
	inputs_free(&in);
	if (rc)
		trace_free(t);
	return rc;
}

int trace_load_apis(struct trace *t, struct rpd_error *err)
{
	int rc = trace_read_apis(t, err);
	trace_finish(t);
	return rc;
}

int trace_read_apis(struct trace *t, struct rpd_error *err)
{
	int rc = 0;
	/* API rows are linked to ops by id. */
	assert(!t->no_op_ids);
	for (size_t i = 0; rc == 0 && i < t->ninputs; i++) {
		sqlite3 *db;
		if (t->inputs[i].format != INPUT_RPD)
			continue;
		if (dbfile_open(t->inputs[i].path, &db, err))
			return -1;
		rc = rpd_read(t, db, (uint32_t)i, LOAD_APIS, cores(), err);
		sqlite3_close(db);
	}
	return rc;
}
