/* Human units for durations. */
#include "config.h"

#include "check.h"
#include "util/units.h"

int main(void)
{
	char buf[UNITS_BUFSZ];
	CHECK_STR(units_format_ns(0, buf, sizeof(buf)), "0 ns");
	CHECK_STR(units_format_ns(999, buf, sizeof(buf)), "999 ns");
	CHECK_STR(units_format_ns(1000, buf, sizeof(buf)), "1.00 us");
	CHECK_STR(units_format_ns(4800, buf, sizeof(buf)), "4.80 us");
	CHECK_STR(units_format_ns(157178063, buf, sizeof(buf)), "157.18 ms");
	CHECK_STR(units_format_ns(2964070817LL, buf, sizeof(buf)), "2.96 s");
	CHECK_STR(units_format_ns(-2500, buf, sizeof(buf)), "-2.50 us");
	/* Exact to a step: the digits down to its power of ten. */
	CHECK_STR(units_format_exact(319830512, 10, buf, sizeof(buf)), "319.83051 ms");
	CHECK_STR(units_format_exact(319830512, 99, buf, sizeof(buf)), "319.83051 ms");
	CHECK_STR(units_format_exact(319830512, 100, buf, sizeof(buf)), "319.8305 ms");
	CHECK_STR(units_format_exact(319830512, 1, buf, sizeof(buf)), "319.830512 ms");
	CHECK_STR(units_format_exact(319830512, 0, buf, sizeof(buf)), "319.830512 ms");
	CHECK_STR(units_format_exact(319830512, 5000000, buf, sizeof(buf)), "319.83 ms");
	CHECK_STR(units_format_exact(17553, 1, buf, sizeof(buf)), "17.553 us");
	CHECK_STR(units_format_exact(17553, 1000, buf, sizeof(buf)), "17.55 us");
	CHECK_STR(units_format_exact(2964070817LL, 1, buf, sizeof(buf)), "2.964070817 s");
	CHECK_STR(units_format_exact(-2500, 1, buf, sizeof(buf)), "-2.500 us");
	CHECK_STR(units_format_exact(999, 1, buf, sizeof(buf)), "999 ns");
	CHECK_STR(units_format_exact(0, 1, buf, sizeof(buf)), "0 ns");
	return check_done();
}
