/* Human-readable time: nanoseconds shown as ns, us, ms or s. */
#ifndef RPDTOP_UNITS_H
#define RPDTOP_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define UNITS_BUFSZ 32

/* Write ns with the largest unit that keeps the value >= 1, e.g. "157.18 ms". */
const char *units_format_ns(int64_t ns, char *buf, size_t size);

/* The same unit, with as many decimals as a time exact to step ns needs
 * (the digits down to the power of ten at or below step): at least two,
 * at most down to the ns. "+319.83051 ms" for a step of 10 ns. */
const char *units_format_exact(int64_t ns, int64_t step, char *buf, size_t size);

/* A time from an origin, signed: "+1.20 ms", or "-3.57 ms" before it;
 * exact to step ns as above. buf needs UNITS_BUFSZ + 2 bytes. */
const char *units_format_relative(int64_t ns, int64_t step, char *buf, size_t size);

#endif
