#include "config.h"
#include "util/units.h"

#include <inttypes.h>
#include <stdio.h>

static const struct {
	double scale;
	int digits; /* log10(scale) */
	const char *unit;
} units[] = {
	{ 1e9, 9, "s" },
	{ 1e6, 6, "ms" },
	{ 1e3, 3, "us" },
};

/* ns in the largest unit that keeps it >= 1, exact to 10^drop ns: the
 * unit's digits less drop decimals, at least two, at most to the ns. */
static const char *format(int64_t ns, int drop, char *buf, size_t size)
{
	double mag = ns < 0 ? -(double)ns : (double)ns;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (mag >= units[i].scale) {
			int decimals = units[i].digits - drop;
			decimals = decimals < 2 ? 2 : decimals > units[i].digits ? units[i].digits : decimals;
			snprintf(buf, size, "%.*f %s", decimals, (double)ns / units[i].scale, units[i].unit);
			return buf;
		}
	}
	snprintf(buf, size, "%" PRId64 " ns", ns);
	return buf;
}

const char *units_format_ns(int64_t ns, char *buf, size_t size)
{
	return format(ns, 9, buf, size);
}

const char *units_format_exact(int64_t ns, int64_t step, char *buf, size_t size)
{
	int drop = 0; /* the power of ten at or below step */
	for (int64_t p = 10; step > 0 && p <= step && drop < 9; p *= 10)
		drop++;
	return format(ns, drop, buf, size);
}

const char *units_format_relative(int64_t ns, int64_t step, char *buf, size_t size)
{
	char u[UNITS_BUFSZ];
	/* The magnitude of INT64_MIN has no int64_t: it is clamped. */
	int64_t mag = ns < 0 ? (ns == INT64_MIN ? INT64_MAX : -ns) : ns;
	snprintf(buf, size, "%s%s", ns < 0 ? "-" : "+", units_format_exact(mag, step, u, sizeof(u)));
	return buf;
}
