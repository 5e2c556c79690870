#include "config.h"
#include "analysis/findings_thresholds.h"

#include "analysis/findings.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The settings' names of the thresholds and where each goes. */
#define THRESHOLDS(DO)                                                                                       \
	DO(host_wait_pct, 5)                                                                                 \
	DO(sync_call_pct, 1)                                                                                 \
	DO(launch_bound_min, 100)                                                                            \
	DO(launch_bound_pct, 0.5)                                                                            \
	DO(outlier_z, 3)                                                                                     \
	DO(outlier_ratio, 2)                                                                                 \
	DO(outlier_pct, 0.5)                                                                                 \
	DO(slow_step_ratio, 1.2)                                                                             \
	DO(warmup_ratio, 1.5)                                                                                \
	DO(exposed_comm_pct, 5)                                                                              \
	DO(straggler_pct, 5)                                                                                 \
	DO(low_util_busy_pct, 50)                                                                            \
	DO(low_util_pct, 2)                                                                                  \
	DO(imbalance_points, 10)                                                                             \
	DO(graph_gap_pct, 2)

void findings_thresholds_init(struct findings_thresholds *th)
{
#define INIT(name, value) th->name = value;
	THRESHOLDS(INIT)
#undef INIT
}

/* The settings' names of each rule's thresholds, for the viewer's details. */
void findings_thresholds_text(const struct findings_thresholds *th, int id, char *buf, size_t size)
{
	switch (id) {
	case FINDING_host_wait:
		snprintf(buf, size, "host_wait_pct = %g", th->host_wait_pct);
		break;
	case FINDING_sync_call:
		snprintf(buf, size, "sync_call_pct = %g", th->sync_call_pct);
		break;
	case FINDING_launch_bound:
		snprintf(buf, size, "launch_bound_min = %llu, launch_bound_pct = %g",
			 (unsigned long long)th->launch_bound_min, th->launch_bound_pct);
		break;
	case FINDING_outlier:
		snprintf(buf, size, "outlier_z = %g, outlier_ratio = %g, outlier_pct = %g", th->outlier_z,
			 th->outlier_ratio, th->outlier_pct);
		break;
	case FINDING_slow_step:
		snprintf(buf, size, "slow_step_ratio = %g", th->slow_step_ratio);
		break;
	case FINDING_warmup:
		snprintf(buf, size, "warmup_ratio = %g", th->warmup_ratio);
		break;
	case FINDING_exposed_comm:
		snprintf(buf, size, "exposed_comm_pct = %g", th->exposed_comm_pct);
		break;
	case FINDING_straggler:
		snprintf(buf, size, "straggler_pct = %g", th->straggler_pct);
		break;
	case FINDING_low_util:
		snprintf(buf, size, "low_util_busy_pct = %g, low_util_pct = %g", th->low_util_busy_pct,
			 th->low_util_pct);
		break;
	case FINDING_imbalance:
		snprintf(buf, size, "imbalance_points = %g", th->imbalance_points);
		break;
	default:
		snprintf(buf, size, "graph_gap_pct = %g", th->graph_gap_pct);
		break;
	}
}

int findings_threshold_set(struct findings_thresholds *th, const char *name, const char *value)
{
	char *end;
	errno = 0;
	double v = strtod(value, &end);
	if (end == value || *end || errno || !isfinite(v) || v < 0 || v > 1e15)
		return -1;
#define SET(field, dflt)                                                                                     \
	if (strcmp(name, #field) == 0) {                                                                     \
		th->field = (__typeof__(th->field))v;                                                        \
		return 0;                                                                                    \
	}
	THRESHOLDS(SET)
#undef SET
	return -1;
}
