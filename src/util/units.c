#include "config.h"
#include "util/units.h"

#include <inttypes.h>
#include <stdio.h>

const char *units_format_ns(int64_t ns, char *buf, size_t size)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = {
		{ 1e9, "s" },
		{ 1e6, "ms" },
		{ 1e3, "us" },
	};
	double mag = ns < 0 ? -(double)ns : (double)ns;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (mag >= units[i].scale) {
			snprintf(buf, size, "%.2f %s", (double)ns / units[i].scale, units[i].unit);
			return buf;
		}
	}
	snprintf(buf, size, "%" PRId64 " ns", ns);
	return buf;
}
