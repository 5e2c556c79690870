/* State of reading one rpd input, shared by its two paths: rows decoded
 * straight from the file's pages (rpd_pages.c) and through SQL (rpd.c). */
#ifndef RPDTOP_RPD_READER_H
#define RPDTOP_RPD_READER_H

#include "load/strcache.h"
#include "trace/trace.h"
#include "util/fastpath.h"
#include "util/search.h"

/* Rows of the trace with a database string id each. */
struct raw_rows {
	uint32_t *row;
	int64_t *raw;
	size_t n, cap;
};

void raw_rows_push(struct raw_rows *x, uint32_t row, int64_t raw);
void raw_rows_free(struct raw_rows *x);

/* Which API rows a reader keeps as the pages stream by. */
enum api_keep {
	KEEP_EVERY_CALL,
	KEEP_NO_MARKERS,   /* the calls that are not roctx markers */
	KEEP_MARKERS_ONLY, /* the roctx markers alone */
};

struct rpd_reader {
	struct sqlsrc src;
	struct trace *t;
	uint32_t input;
	int version;
	int threads;                      /* for the page path */
	struct strcache strings;          /* rocpd_string */
	struct strcache ustrings;         /* rocpd_ustring (version 3 args) */
	size_t op_base, op_end, api_base; /* this input's rows in the trace */
	uint32_t marker;                  /* interned "UserMarker": its args are its text */
	int64_t marker_raw[8];            /* rocpd_string ids of "UserMarker" */
	int nmarker_raw;
	int64_t graph_raw[8]; /* rocpd_string ids of graph launch names (trace_graph_launch_name) */
	int ngraph_raw;
	/* The graph launch calls the page reader met, in row order: their
	 * rows and args ids (graph_args_read: every call was met so). */
	struct raw_rows graph_args;
	int graph_args_read;
	enum api_keep keep;            /* the API rows read (LOAD_NO_MARKERS, LOAD_MARKERS_ONLY) */
	int order;                     /* the calls are to be put in order */
	struct api_order_job *sorting; /* meanwhile, once they are all read */
};

/* Page path for each table: FAST_DECLINED leaves the table to SQL (nothing
 * was added to the trace). */
enum fastpath rpd_pages_ops(struct rpd_reader *r);
enum fastpath rpd_pages_apis(struct rpd_reader *r);
enum fastpath rpd_pages_links(struct rpd_reader *r);
/* The links, then only the API rows they name (LOAD_LAUNCHES). */
enum fastpath rpd_pages_launches(struct rpd_reader *r);

/* Rows were read in id order, so an id is found by binary search: its
 * row in [lo, end), or TRACE_NONE. */
static inline uint32_t rpd_find_row(const int64_t *ids, size_t lo, size_t end, int64_t id)
{
	size_t at = lower_bound_i64(ids, lo, end, id);
	return at < end && ids[at] == id ? (uint32_t)at : TRACE_NONE;
}

#endif
