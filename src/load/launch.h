/* What a kernel was launched with, read from its input when someone asks
 * for one kernel: too much to keep for every op of a large trace, cheap
 * for the one under a cursor. */
#ifndef RPDTOP_LAUNCH_H
#define RPDTOP_LAUNCH_H

#include <stdint.h>

#include "trace/launch_dims.h"
#include "trace/trace.h"

/* The grid and workgroup sizes of op, a kernel. Returns 0, or -1 when the
 * op is not a kernel or its input does not record them (or cannot be
 * read now). */
int load_launch_dims(const struct trace *t, uint32_t op, struct launch_dims *out);

#endif
