/* A minimal check harness for the unit tests: each failed check prints
 * where and what, and the test exits 1 if any failed. */
#ifndef RPDTOP_CHECK_H
#define RPDTOP_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                                          \
	do {                                                                                                 \
		if (!(cond)) {                                                                               \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);             \
			check_failures++;                                                                    \
		}                                                                                            \
	} while (0)

#define CHECK_INT(a, b)                                                                                      \
	do {                                                                                                 \
		int64_t a_ = (int64_t)(a), b_ = (int64_t)(b);                                                \
		if (a_ != b_) {                                                                              \
			fprintf(stderr, "%s:%d: %s == %" PRId64 ", expected %" PRId64 "\n", __FILE__,        \
				__LINE__, #a, a_, b_);                                                       \
			check_failures++;                                                                    \
		}                                                                                            \
	} while (0)

#define CHECK_STR(a, b)                                                                                      \
	do {                                                                                                 \
		const char *a_ = (a), *b_ = (b);                                                             \
		if (strcmp(a_, b_) != 0) {                                                                   \
			fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a,    \
				a_, b_);                                                                     \
			check_failures++;                                                                    \
		}                                                                                            \
	} while (0)

static inline int check_done(void)
{
	if (check_failures)
		fprintf(stderr, "%d check(s) failed\n", check_failures);
	return check_failures ? 1 : 0;
}

#endif
