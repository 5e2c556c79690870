/* The settings file's [findings] section: NAME = VALUE lines setting the
 * findings' thresholds (analysis/findings_thresholds.h). */
#ifndef RPDTOP_FINDINGS_FILE_H
#define RPDTOP_FINDINGS_FILE_H

#include "analysis/findings_thresholds.h"

/* Read the settings file's thresholds into th; a line it cannot take is
 * named on stderr and ignored. */
void settings_findings_load(struct findings_thresholds *th);

#endif
