/* An export written on a thread of its own, so that the viewer keeps
 * answering keys meanwhile and can stop it. The job works on its own
 * copies of the filter, window and selection: the user may change them
 * while it runs. The trace must not change until the job is finished. */
#ifndef RPDTOP_EXPORT_JOB_H
#define RPDTOP_EXPORT_JOB_H

#include "export/export.h"

struct export_job;

/* Start exporting r (its pointers are copied from, not kept). Never
 * fails: without a thread the export is written before returning. */
struct export_job *export_job_start(const struct export_request *r);
int export_job_done(const struct export_job *j);
/* Ask the export to stop: it ends with "interrupted", leaving no file. */
void export_job_stop(struct export_job *j);
/* Seconds since the job started. */
double export_job_seconds(const struct export_job *j);
/* Wait for the job and free it; its result as export_trace gives it. */
int export_job_finish(struct export_job *j, struct export_result *res, struct rpd_error *err);

#endif
