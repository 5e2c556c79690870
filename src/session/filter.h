/* Regex filters (PCRE2) over names. A filter is a stack of rules; a name
 * passes when it passes every rule: an include rule when its pattern
 * matches, an exclude rule ("!pattern") when it does not. Smart case:
 * caseless unless the pattern has an upper-case letter. */
#ifndef RPDTOP_FILTER_H
#define RPDTOP_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

#define FILTER_MAX_RULES 16

struct filter_rule {
	char *text; /* as typed, with a leading '!' for exclude */
	int exclude;
	void *code; /* pcre2_code (its match data is each thread's) */
	int limit;  /* PCRE2's error once a match ran into one of its limits, or 0 */
};

struct filter {
	struct filter_rule rules[FILTER_MAX_RULES];
	size_t n;
};

void filter_init(struct filter *f);
void filter_free(struct filter *f);
/* Add a rule ("pattern" or "!pattern"). On a bad pattern returns -1 with
 * PCRE2's message and the offset in err; the filter is unchanged. */
int filter_push(struct filter *f, const char *text, char *err, size_t errsize);
/* A copy of from, compiled anew. */
void filter_copy(const struct filter *from, struct filter *to);
/* Remove the last rule; returns 0 when there was none. */
int filter_pop(struct filter *f);
/* Does the text pass every rule? A match that runs into one of PCRE2's
 * limits (its match limit of 10 million steps, its depth or heap limit)
 * counts as none, and is remembered for filter_limit_hit. */
int filter_passes(const struct filter *f, const char *s, size_t len);
/* 1, with err naming the pattern and PCRE2's reason, when a match of f
 * ran into one of PCRE2's limits: what f kept is not what it says. */
int filter_limit_hit(const struct filter *f, char *err, size_t errsize);
/* The rules for people: "/gemm/ & !/nccl/". */
void filter_describe(const struct filter *f, char *buf, size_t size);

/* Which strings of t pass, indexed by string id; only ids in want (or all
 * when want is NULL) are matched. A new array the caller frees. */
uint8_t *filter_strings(const struct filter *f, const struct trace *t, const uint8_t *want);
/* The same over the names of t's kernels only (the communication
 * pattern: which kernels are collectives). */
uint8_t *filter_kernel_names(const struct filter *f, const struct trace *t);

#endif
