#include "config.h"
#include "analysis/findings_thresholds.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
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
