/* What a kernel was launched with: its grid and workgroup sizes. The
 * readers fill it in when asked for one kernel (load/launch.h); the
 * viewer shows it. */
#ifndef RPDTOP_LAUNCH_DIMS_H
#define RPDTOP_LAUNCH_DIMS_H

#include <stdint.h>

struct launch_dims {
	int64_t grid[3]; /* work-items, as the runtime records them */
	int64_t workgroup[3];
};

#endif
