/* The findings' thresholds (analysis/findings.h), part of the analyses'
 * parameters: defaults, and the settings file's [findings] section. */
#ifndef RPDTOP_FINDINGS_THRESHOLDS_H
#define RPDTOP_FINDINGS_THRESHOLDS_H

#include <stddef.h>
#include <stdint.h>

/* The thresholds, as --help and the manual give them; the settings file's
 * [findings] section sets them by these names. */
struct findings_thresholds {
	double host_wait_pct;      /* host-wait: of the GPU's span */
	double sync_call_pct;      /* sync-call: of the GPU's span */
	uint64_t launch_bound_min; /* launch-bound: instances at least */
	double launch_bound_pct;   /* launch-bound: of the GPU's span */
	double outlier_z;          /* outlier: z-score above it */
	double outlier_ratio;      /* outlier: and duration above ratio x median */
	double outlier_pct;        /* outlier: of the GPU time */
	double slow_step_ratio;    /* slow-step: above ratio x median step */
	double warmup_ratio;       /* warmup: the first step above ratio x median */
	double exposed_comm_pct;   /* exposed-comm: of the GPU's span */
	double straggler_pct;      /* straggler: of the others' communication time */
	double low_util_busy_pct;  /* low-util: chunks busy under it */
	double low_util_pct;       /* low-util: stretch of the GPU's span at least */
	double imbalance_points;   /* imbalance: busy shares' spread at least */
	double graph_gap_pct;      /* graph-gap: of the GPU's span */
};

void findings_thresholds_init(struct findings_thresholds *th);
/* The thresholds of rule id (enum finding_id) as the settings name them. */
void findings_thresholds_text(const struct findings_thresholds *th, int id, char *buf, size_t size);
/* Set one threshold by its settings name (host_wait_pct...): 0, or -1
 * for an unknown name or a value out of range (negative, not a number). */
int findings_threshold_set(struct findings_thresholds *th, const char *name, const char *value);

#endif
