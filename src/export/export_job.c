#include "config.h"
#include "export/export_job.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/interrupt.h"
#include "util/xalloc.h"

struct export_job {
	pthread_t thread;
	int threaded;
	struct export_request req;
	struct filter filter;
	struct window window;
	struct selection sel;
	char *path;
	struct timespec started;
	struct export_result res;
	struct rpd_error err;
	int rc;
	atomic_int done;
};

static void *run(void *arg)
{
	struct export_job *j = arg;
	j->rc = export_trace(&j->req, &j->res, &j->err);
	atomic_store(&j->done, 1);
	return NULL;
}

struct export_job *export_job_start(const struct export_request *r)
{
	struct export_job *j = xcalloc(1, sizeof(*j));
	j->req = *r;
	filter_copy(r->filter, &j->filter);
	j->window = *r->window;
	selection_copy(r->t, r->sel, &j->sel);
	j->path = xstrdup(r->path);
	j->req.filter = &j->filter;
	j->req.window = &j->window;
	j->req.sel = &j->sel;
	j->req.path = j->path;
	clock_gettime(CLOCK_MONOTONIC, &j->started);
	atomic_init(&j->done, 0);
	/* A stop asked of an earlier export is not this one's. */
	interrupt_clear();
	j->threaded = pthread_create(&j->thread, NULL, run, j) == 0;
	if (!j->threaded)
		run(j);
	return j;
}

int export_job_done(const struct export_job *j)
{
	return atomic_load(&j->done);
}

void export_job_stop(struct export_job *j)
{
	(void)j;
	/* The writer polls the process's interrupt flag, as for Ctrl-C in
	 * batch mode. */
	interrupt_raise();
}

double export_job_seconds(const struct export_job *j)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - j->started.tv_sec) + (double)(now.tv_nsec - j->started.tv_nsec) / 1e9;
}

int export_job_finish(struct export_job *j, struct export_result *res, struct rpd_error *err)
{
	if (j->threaded)
		pthread_join(j->thread, NULL);
	int rc = j->rc;
	*res = j->res;
	*err = j->err;
	interrupt_clear();
	filter_free(&j->filter);
	selection_free(&j->sel);
	free(j->path);
	free(j);
	return rc;
}
