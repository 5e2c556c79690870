#include "config.h"
#include "analysis/params.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/diff.h"
#include "analysis/gaps.h"

void analysis_params_init(struct analysis_params *p)
{
	char err[512];
	memset(p, 0, sizeof(*p));
	p->gap_threshold = GAPS_DEFAULT_THRESHOLD;
	p->diff_tolerance = DIFF_DEFAULT_TOLERANCE;
	filter_init(&p->comm);
	filter_init(&p->step);
	categories_init(&p->cats);
	findings_thresholds_init(&p->findings);
	/* A pattern of the program's own: it compiles. */
	filter_push(&p->comm, BREAKDOWN_DEFAULT_COMM, err, sizeof(err));
}

void analysis_params_free(struct analysis_params *p)
{
	filter_free(&p->comm);
	filter_free(&p->step);
	categories_free(&p->cats);
}

/* f becomes the one rule pattern, or stays as it was. */
static int set_pattern(struct filter *f, const char *pattern, char *err, size_t errsize)
{
	struct filter next;
	filter_init(&next);
	if (filter_push(&next, pattern, err, errsize))
		return -1;
	filter_free(f);
	*f = next;
	return 0;
}

int analysis_params_set_comm(struct analysis_params *p, const char *pattern, char *err, size_t errsize)
{
	return set_pattern(&p->comm, pattern, err, errsize);
}

int analysis_params_set_step(struct analysis_params *p, const char *pattern, char *err, size_t errsize)
{
	return set_pattern(&p->step, pattern, err, errsize);
}

void analysis_params_copy(const struct analysis_params *from, struct analysis_params *to)
{
	*to = *from;
	filter_copy(&from->comm, &to->comm);
	filter_copy(&from->step, &to->step);
	categories_copy(&from->cats, &to->cats);
}

const struct filter *analysis_params_step(const struct analysis_params *p)
{
	return p->step.n ? &p->step : NULL;
}

/* f over every string of t: what it would keep is left aside, a limit
 * reached is what is asked. */
static int limit_hit(const struct filter *f, const struct trace *t, char *err, size_t errsize)
{
	free(filter_strings(f, t, NULL));
	return filter_limit_hit(f, err, errsize);
}

int analysis_params_check(const struct analysis_params *p, const struct trace *t, char *err, size_t errsize)
{
	if (limit_hit(&p->comm, t, err, errsize) || limit_hit(&p->step, t, err, errsize))
		return -1;
	for (size_t i = 0; i < p->cats.n; i++)
		if (limit_hit(&p->cats.patterns[i], t, err, errsize))
			return -1;
	return 0;
}
