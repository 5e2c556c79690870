/* What of the inputs' API rows a trace is read with: the reports say
 * which they need, the loader reads them. */
#ifndef RPDTOP_TRACE_API_NEED_H
#define RPDTOP_TRACE_API_NEED_H

/* Which API rows a trace is read with, besides its ops. */
enum api_need {
	API_NEED_NONE,
	API_NEED_LAUNCHES, /* the calls that launched ops are enough */
	/* Every call but the roctx markers' rows (which are most rows of a
	 * trace marked throughout): what a report listing calls by their own
	 * names needs of a view that nothing narrows. A filter, a window or
	 * a place filter keeps a call by the markers around it too, so that a
	 * narrowed view needs them all (api_need_narrowed). */
	API_NEED_CALLS,
	/* The roctx markers' rows alone, without the links of calls to ops:
	 * what a report of steps needs of a view that nothing narrows. */
	API_NEED_MARKERS,
	/* No call: only what some inputs keep beside them (an rpd file's
	 * counters, read with its API rows), what a report of counters
	 * needs of a view that nothing narrows. */
	API_NEED_COUNTERS,
	API_NEED_ALL,
};

/* What need becomes in a view narrowed (or not) by a filter, a window or
 * a place filter. */
static inline enum api_need api_need_narrowed(enum api_need need, int narrowed)
{
	return (need == API_NEED_CALLS || need == API_NEED_MARKERS || need == API_NEED_COUNTERS) && narrowed
		       ? API_NEED_ALL
		       : need;
}

#endif
