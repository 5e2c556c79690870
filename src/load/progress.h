/* Progress of a long load on stderr, only when stderr is a terminal and
 * only once the load has taken half a second. */
#ifndef RPDTOP_PROGRESS_H
#define RPDTOP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/* Readers call this for every row read; it is cheap (counted per thread
 * and published in batches). */
void progress_row(void);
/* Publish this thread's rows not yet counted (at the end of an input). */
void progress_flush(void);

struct progress {
	int enabled;
	double started, last_shown;
	int shown;
	size_t total;
	int groups;     /* of node groups read at once, not of inputs */
	uint64_t rows0; /* rows counted before the start */
};

/* With inline set, rows read on this thread also redraw the progress line:
 * for a single input, read by the main thread. */
void progress_start(struct progress *p, size_t inputs, int enabled, int inline_updates);
/* The same for node groups read at once (whose loads show none): "groups
 * read / total, rows, rows/s". */
void progress_start_groups(struct progress *p, size_t groups, int enabled);
/* Show "inputs done / total, rows, rows/s" if it is time to. */
void progress_update(struct progress *p, size_t done);
/* Erase the progress line. */
void progress_end(struct progress *p);

#endif
