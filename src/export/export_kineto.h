/* Export of a Kineto (PyTorch profiler) input: a new Chrome-trace JSON
 * file of the input's own layout, gzipped when FILE ends in .gz, holding
 * the input's events that the filter and window keep, each as it was.
 *
 * The trace in memory holds no raw events: the input is read twice more.
 * A first reading finds the correlation ids of the kept ops and the
 * file's baseTimeNanoseconds (written after the events); a second copies
 * every key outside traceEvents and the kept events, their fields and
 * args in their order, numbers as their text (never through a double),
 * strings re-escaped. The ops are found again by their place among the
 * file's GPU ops (kineto_role), the calls and CPU ranges likewise.
 *
 * What goes (the manual's EXPORT has it for users):
 * - metadata events ("ph": "M"), all of them;
 * - the GPU ops the selection keeps;
 * - calls (cuda_runtime, cuda_driver): those the rpd export would keep
 *   (the selection's, all of them without a filter or window) and those
 *   that share args.correlation with a kept op;
 * - CPU ranges (cpu_op, user_annotation, python_function): those that
 *   overlap the window (all of them without one) and those the selection
 *   keeps around a kept call; gpu_user_annotation events that overlap it;
 * - ac2g flow events ("ph" s, f, t) whose id is a kept op's correlation;
 * - any other event when it is in the window (all without one; without
 *   a readable ts it is in none).
 * Elements of traceEvents that are no objects are left out. A top-level
 * "rpdtop" object records the export (an input's own is replaced). */
#ifndef RPDTOP_EXPORT_KINETO_H
#define RPDTOP_EXPORT_KINETO_H

#include "export/export.h"

/* Is any input a Kineto trace (the export is then this one's)? */
int export_kineto_wanted(const struct trace *t);

/* export_trace for Kineto inputs: 0, or -1 with *err one line and
 * nothing left at r->path or beside it. */
int export_kineto(const struct export_request *r, struct export_result *res, struct rpd_error *err);

#endif
