/* Progress of a long load on stderr, only when stderr is a terminal and
 * only once the load has taken half a second. */
#ifndef RPDTOP_PROGRESS_H
#define RPDTOP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/* Rows read so far by every reader; readers add to it as they go. */
void progress_add_rows(uint64_t rows);

struct progress {
	int enabled;
	double started, last_shown;
	int shown;
	size_t total;
};

void progress_start(struct progress *p, size_t inputs, int enabled);
/* Show "inputs done / total, rows, rows/s" if it is time to. */
void progress_update(struct progress *p, size_t done);
/* Erase the progress line. */
void progress_end(struct progress *p);

#endif
