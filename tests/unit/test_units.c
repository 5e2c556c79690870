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
	return check_done();
}
