/* Windows named by what people see in a trace: roctx ranges by their
 * text and kernels by their name, instead of numbers.
 *
 *   marker:REGEX       from the first matching range's start to the last
 *                      one's end (all of them)
 *   marker:REGEX#N     the N-th matching range (1-based; -1 the last)
 *   kernel:REGEX[#N]   the same over kernels
 *   A..B               from A's start to B's end (A, B named as above)
 *
 * REGEX is matched as the filter matches (PCRE2, caseless unless it has
 * a capital) against a range's text or a kernel's name, as recorded.
 * Instances are numbered in time order over the whole trace: by start,
 * the longer first at equal starts, then by row. */
#ifndef RPDTOP_NAMED_H
#define RPDTOP_NAMED_H

#include <stddef.h>
#include <stdint.h>

#include "session/window.h"
#include "trace/trace.h"

/* Is text a named window (it begins with marker: or kernel:)? */
int window_is_named(const char *text);
/* Does it name roctx ranges (which are API rows: they must be read)? */
int window_names_markers(const char *text);
/* Resolve a named window on t. -1 with a reason in err when the text is
 * not well formed, a pattern does not compile or nothing matches. */
int window_named(const char *text, const struct trace *t, struct window *w, char *err, size_t errsize);

/* The API rows of t's roctx ranges and marks whose text passes (pass is
 * indexed by string id; NULL: all), in time order; *n of them. */
uint32_t *named_marker_rows(const struct trace *t, const uint8_t *pass, size_t *n);
/* The kernels whose name passes, in time order (start, then row). */
uint32_t *named_kernel_rows(const struct trace *t, const uint8_t *pass, size_t *n);
/* Time order of API rows (named_marker_rows'). */
int named_api_cmp(const struct trace *t, uint32_t a, uint32_t b);

#endif
