/* Natural order: numbers in names by value. */
#include "config.h"

#include "check.h"
#include "util/natcmp.h"

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

int main(void)
{
	CHECK_INT(sign(natcmp("rank2", "rank10")), -1);
	CHECK_INT(sign(natcmp("rank10", "rank2")), 1);
	CHECK_INT(sign(natcmp("rank10.rpd:0", "rank10.rpd:0")), 0);
	CHECK_INT(sign(natcmp("rank2.rpd:10", "rank2.rpd:9")), 1);
	CHECK_INT(sign(natcmp("node-a/4100/4103", "node-a/4100/4100")), 1);
	CHECK_INT(sign(natcmp("a", "b")), -1);
	CHECK_INT(sign(natcmp("a", "a1")), -1);
	CHECK_INT(sign(natcmp("", "")), 0);
	CHECK_INT(sign(natcmp("x02", "x2")), 1);
	CHECK_INT(sign(natcmp("x2", "x02")), -1);
	CHECK_INT(sign(natcmp("x002", "x10")), -1);
	CHECK_INT(sign(natcmp("18446744073709551616z", "18446744073709551617a")), -1);
	CHECK_INT(sign(natcmp("2b", "2a")), 1);
	return check_done();
}
