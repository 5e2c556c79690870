/* A timeline index built on a thread of its own, so that the viewer keeps
 * answering keys while a large trace is indexed. The trace must not change
 * until the job is finished; the selection is copied. */
#ifndef RPDTOP_TIMELINE_JOB_H
#define RPDTOP_TIMELINE_JOB_H

#include "analysis/timeline.h"

struct timeline_job;

/* NULL sel: every row. order: the trace's calls by thread and start, or
 * NULL (see timeline_build_ordered); it must stay as it is until the job
 * is finished. Never fails: without a thread the index is built before
 * returning. */
struct timeline_job *timeline_job_start(const struct trace *t, const struct selection *sel,
					const struct api_order *order);
int timeline_job_done(const struct timeline_job *j);
/* Wait for the index, move it into *out, free j. */
void timeline_job_finish(struct timeline_job *j, struct timeline *out);

#endif
