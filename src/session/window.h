/* A time window [start, end): the events that overlap it are in view
 * (session/select.h has the rule). */
#ifndef RPDTOP_WINDOW_H
#define RPDTOP_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

struct window {
	int active;
	int64_t start, end; /* absolute ns */
};

/* Parse START:END against the trace's span. Each side is absolute ns
 * ("3489389201751353"), an offset from the trace start ("+2500000",
 * "+1.5s", or a bare value with a unit, "200ms", "40us", "1.5s", "30ns"),
 * or a share of the span ("25%"); an empty side is the trace's start or
 * end. Returns -1 with a reason in err. */
int window_parse(const char *text, int64_t trace_start, int64_t trace_end, struct window *w, char *err,
		 size_t errsize);
/* A length of time: ns, or a value with a unit ("5us", "1.5ms"). */
int window_parse_duration(const char *text, int64_t *ns);
/* "+1.20 s .. +2.00 s" relative to the trace start. */
void window_describe(const struct window *w, int64_t trace_start, char *buf, size_t size);

#endif
