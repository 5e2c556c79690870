#include "config.h"
#include "analysis/timeline_job.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct timeline_job {
	pthread_t thread;
	int threaded;
	const struct trace *t;
	struct selection sel;
	int all; /* no selection: every row */
	const struct api_order *order;
	struct timeline tl;
	atomic_int done;
};

static void *build(void *arg)
{
	struct timeline_job *j = arg;
	timeline_build_ordered(j->t, j->all ? NULL : &j->sel, j->order, &j->tl);
	atomic_store(&j->done, 1);
	return NULL;
}

struct timeline_job *timeline_job_start(const struct trace *t, const struct selection *sel,
					const struct api_order *order)
{
	struct timeline_job *j = xcalloc(1, sizeof(*j));
	j->t = t;
	/* An order made for other rows is not used (nor looked at again:
	 * the session may remake it while the job runs). */
	j->order = order && order->rows && order->napis == t->apis.n ? order : NULL;
	j->all = sel == NULL;
	if (sel)
		selection_copy(t, sel, &j->sel);
	atomic_init(&j->done, 0);
	j->threaded = pthread_create(&j->thread, NULL, build, j) == 0;
	if (!j->threaded)
		build(j);
	return j;
}

int timeline_job_done(const struct timeline_job *j)
{
	return atomic_load(&j->done);
}

void timeline_job_finish(struct timeline_job *j, struct timeline *out)
{
	if (j->threaded)
		pthread_join(j->thread, NULL);
	*out = j->tl;
	if (!j->all)
		selection_free(&j->sel);
	free(j);
}
