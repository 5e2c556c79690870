#include "config.h"
#include "analysis/findings_thresholds.h"

#include "analysis/findings.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The settings' names of the thresholds, their defaults and their rules. */
#define THRESHOLDS(DO)                                                                                       \
	DO(host_wait_pct, 5, host_wait)                                                                      \
	DO(sync_call_pct, 1, sync_call)                                                                      \
	DO(launch_bound_min, 100, launch_bound)                                                              \
	DO(launch_bound_pct, 0.5, launch_bound)                                                              \
	DO(outlier_z, 3, outlier)                                                                            \
	DO(outlier_ratio, 2, outlier)                                                                        \
	DO(outlier_pct, 0.5, outlier)                                                                        \
	DO(slow_step_ratio, 1.2, slow_step)                                                                  \
	DO(warmup_ratio, 1.5, warmup)                                                                        \
	DO(exposed_comm_pct, 5, exposed_comm)                                                                \
	DO(straggler_pct, 5, straggler)                                                                      \
	DO(low_util_busy_pct, 50, low_util)                                                                  \
	DO(low_util_pct, 2, low_util)                                                                        \
	DO(imbalance_points, 10, imbalance)                                                                  \
	DO(graph_gap_pct, 2, graph_gap)

void findings_thresholds_init(struct findings_thresholds *th)
{
#define INIT(name, value, rule) th->name = value;
	THRESHOLDS(INIT)
#undef INIT
}

void findings_thresholds_text(const struct findings_thresholds *th, int id, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
#define TEXT(field, dflt, rule)                                                                              \
	if (id == FINDING_##rule && o < size)                                                                \
		o += (size_t)snprintf(buf + o, size - o, "%s%s = %g", o ? ", " : "", #field,                 \
				      (double)th->field);
	THRESHOLDS(TEXT)
#undef TEXT
}

int findings_threshold_set(struct findings_thresholds *th, const char *name, const char *value)
{
	char *end;
	errno = 0;
	double v = strtod(value, &end);
	if (end == value || *end || errno || !isfinite(v) || v < 0 || v > 1e15)
		return -1;
#define SET(field, dflt, rule)                                                                               \
	if (strcmp(name, #field) == 0) {                                                                     \
		th->field = (__typeof__(th->field))v;                                                        \
		return 0;                                                                                    \
	}
	THRESHOLDS(SET)
#undef SET
	return -1;
}
