/* The host side at given moments of a trace read with its launching calls
 * alone (LOAD_LAUNCHES): the calls of the inputs are read again, row by
 * row, and none is kept, so that a report on a 10M-op trace names what
 * the CPU did in a gap without holding every API row. */
#ifndef RPDTOP_LOAD_CALL_PROBE_H
#define RPDTOP_LOAD_CALL_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "trace/probe.h"
#include "trace/trace.h"
#include "util/error.h"

/* For each probe, of its thread's calls with start <= time < end, the one
 * that started last; at equal starts the one that ended first, then the
 * first in the input (the rows in memory for inputs read whole, the
 * file's for the others); when none runs then, the call the thread
 * finished last before (the latest end; at equal ends the one that
 * started first), after set. Names are interned into t. Returns 0, or -1
 * with *err naming the input. */
int trace_probe_calls(struct trace *t, struct call_probe *p, size_t n, struct rpd_error *err);

#endif
