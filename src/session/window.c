#include "config.h"
#include "session/window.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"

static const struct {
	const char *name;
	double ns;
} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 } };

/* v ns (v >= 0) as a whole number, at most INT64_MAX. */
static int64_t whole_ns(double v)
{
	return v >= 0x1p63 ? INT64_MAX : (int64_t)llround(v);
}

/* One side of the window, as absolute ns. */
static int parse_point(const char *s, int64_t start, int64_t end, int64_t dflt, int64_t *out)
{
	if (!*s) {
		*out = dflt;
		return 0;
	}
	int relative = s[0] == '+';
	char *rest;
	/* A bare whole number of ns, read exactly: times since 1970 (a
	 * Kineto trace's, from its baseTimeNanoseconds) have more digits
	 * than a double keeps. */
	size_t digits = strspn(s + relative, "0123456789");
	if (digits > 0 && s[relative + digits] == '\0') {
		errno = 0;
		long long n = strtoll(s + relative, &rest, 10);
		if (errno)
			return -1;
		*out = relative ? sat_add(start, (int64_t)n) : (int64_t)n;
		return 0;
	}
	errno = 0;
	double v = strtod(s + relative, &rest);
	if (rest == s + relative || errno || !isfinite(v) || v < 0)
		return -1;
	if (strcmp(rest, "%") == 0) {
		/* The offset alone in a double: the times themselves (ns since
		 * 1970) would lose their last digits there. */
		double off = (double)sat_sub(end, start) * v / 100.0;
		*out = sat_add(start, whole_ns(off));
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(rest, units[i].name) == 0) {
			*out = sat_add(start, whole_ns(v * units[i].ns));
			return 0;
		}
	}
	if (*rest)
		return -1;
	/* A bare number is nanoseconds: absolute, or from the start with '+'. */
	*out = relative ? sat_add(start, whole_ns(v)) : whole_ns(v);
	return 0;
}

int window_parse_duration(const char *text, int64_t *ns)
{
	if (!*text || text[0] == '+' || strchr(text, '%'))
		return -1;
	return parse_point(text, 0, 0, 0, ns);
}

int window_parse(const char *text, int64_t trace_start, int64_t trace_end, struct window *w, char *err,
		 size_t errsize)
{
	const char *colon = strchr(text, ':');
	if (!colon) {
		snprintf(err, errsize, _("invalid window '%s' (expected START:END)"), text);
		return -1;
	}
	char first[128];
	snprintf(first, sizeof(first), "%.*s", (int)(colon - text), text);
	struct window out = { .active = 1 };
	if (parse_point(first, trace_start, trace_end, trace_start, &out.start) ||
	    parse_point(colon + 1, trace_start, trace_end, trace_end, &out.end)) {
		snprintf(err, errsize,
			 _("invalid window '%s' (a side is ns, +OFFSET, N%%, or a "
			   "value with ns, us, ms or s)"),
			 text);
		return -1;
	}
	if (out.end <= out.start) {
		snprintf(err, errsize, _("invalid window '%s' (it ends before it starts)"), text);
		return -1;
	}
	*w = out;
	return 0;
}

void window_describe(const struct window *w, int64_t trace_start, char *buf, size_t size)
{
	char a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	snprintf(buf, size, "+%s .. +%s", units_format_ns(sat_sub(w->start, trace_start), a, sizeof(a)),
		 units_format_ns(sat_sub(w->end, trace_start), b, sizeof(b)));
}
