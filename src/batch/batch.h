/* Batch reports read node group by node group: the inputs are grouped by
 * the node they were recorded on (read without loading them), each group
 * is loaded alone and reduced to its report's partial result, encoded as
 * bytes, and the partials are merged into the report. A process running
 * one group at a time holds one group's trace at most; processes of an
 * MPI job can each reduce some of the groups and send rank 0 their bytes.
 * The result equals the report of the whole load, byte for byte. */
#ifndef RPDTOP_BATCH_H
#define RPDTOP_BATCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "batch/batch_plan.h"
#include "present/report.h"
#include "session/session.h"
#include "session/window.h"
#include "util/error.h"

/* Does this report, with these options, go group by group (else: the
 * whole load)? With plan NULL: could it, were there several groups (a
 * plan need not be made otherwise)? */
int batch_groupwise(const struct batch_plan *plan, const struct batch_request *req);

/* A window (START:END) is placed on the span of the whole trace: a first
 * pass over the groups finds it. Does the request need it? */
int batch_needs_span(const struct batch_request *req);
/* The span of group g's ops, read without loading them (*ops 0: it has
 * none). -1 with *err set. */
int batch_span_group(const struct batch_plan *plan, size_t g, int64_t *lo, int64_t *hi, uint64_t *ops,
		     struct rpd_error *err);
/* The span of every group's ops (their minimum and maximum). */
void batch_plan_set_span(struct batch_plan *plan, int64_t lo, int64_t hi);
/* The request's window on the plan's span: 0 (w inactive without one),
 * or -1 with the reason in msg, a usage error. */
int batch_window(const struct batch_plan *plan, const struct batch_request *req, struct window *w, char *msg,
		 size_t size);

/* Load group g, reduce it to its partial result, encode it into *buf and
 * *len (malloc'd), free the group. -1 with *err set, or -2 for a usage
 * error (a pattern that runs into PCRE2's limits on the group's names). */
int batch_reduce_group(const struct batch_plan *plan, size_t g, const struct batch_request *req,
		       unsigned char **buf, size_t *len, struct rpd_error *err);

/* Decode and merge the encoded partials (parts[g] for each group g) and
 * write the report as the whole load would. -1 with *err set. */
int batch_finish(const struct batch_plan *plan, const struct batch_request *req, unsigned char *const *parts,
		 const size_t *lens, FILE *out, struct rpd_error *err);

/* The groups listed, which[0 .. n), are read several at once when -j
 * leaves threads for it: as many as its threads can read with a thread
 * per file of the largest group (one at a time when one group alone takes
 * them). Each group is still loaded, reduced and freed whole, so memory
 * is that of the groups at work. After a failure no further group
 * starts; the error is that of the first failing group in the list's
 * order, as reading them in turn would find it (*failed: its group).
 * show: the RPDTOP_SHOW_GROUPS lines' prefix, or NULL for none. */

/* The span of the listed groups' ops (*ops 0: none); -1 with *err. */
int batch_span_groups(struct batch_plan *plan, const size_t *which, size_t n, int64_t *lo, int64_t *hi,
		      uint64_t *ops, size_t *failed, struct rpd_error *err);
/* Each listed group g reduced into parts[g], lens[g]; -1 (-2: a usage
 * error) with *err, from the first listed group that failed. */
int batch_reduce_groups(struct batch_plan *plan, const struct batch_request *req, const size_t *which,
			size_t n, const char *show, unsigned char **parts, size_t *lens, size_t *failed,
			struct rpd_error *err);

/* In one process: the span when needed, the groups reduced, then
 * finished. -1 with *err set, -2 for a window that does not fit the
 * span (a usage error). */
int batch_run(struct batch_plan *plan, const struct batch_request *req, FILE *out, struct rpd_error *err);

#endif
