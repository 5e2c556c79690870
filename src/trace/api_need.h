/* What of the inputs' API rows a trace is read with: the reports say
 * which they need, the loader reads them. */
#ifndef RPDTOP_TRACE_API_NEED_H
#define RPDTOP_TRACE_API_NEED_H

/* Which API rows a trace is read with, besides its ops. */
enum api_need {
	API_NEED_NONE,
	API_NEED_LAUNCHES, /* the calls that launched ops are enough */
	API_NEED_ALL,
};

#endif
