/* Reader for rocmProfileData ("rpd") databases, schema versions 2 and 3. */
#ifndef RPDTOP_RPD_H
#define RPDTOP_RPD_H

#include <sqlite3.h>

#include "trace/api_order.h"
#include "trace/op_span.h"
#include "trace/trace.h"
#include "util/error.h"

/* What to read: the reports need only the ops; the viewer needs all. */
enum load_what {
	LOAD_OPS = 1,
	LOAD_APIS = 2, /* API rows and their links to ops */
	LOAD_ALL = LOAD_OPS | LOAD_APIS,
	LOAD_NO_OP_IDS = 4, /* reports only: ops are never linked to API rows */
	/* With LOAD_APIS: the calls that launched ops may be all that is read
	 * (reports on launches; rpd files read through their pages). */
	LOAD_LAUNCHES = 8,
	/* Without LOAD_APIS: the API rows are read apart once the ops are
	 * shown (the viewer), so a one-pass reader leaves them for then. */
	LOAD_APIS_LATER = 16,
	/* With LOAD_APIS: the roctx markers' rows may be left out (the api
	 * report of a view nothing narrows, which lists the calls alone). */
	LOAD_NO_MARKERS = 32,
	/* With LOAD_APIS: the markers' rows alone may be read, and no links
	 * (the steps report of a view nothing narrows). */
	LOAD_MARKERS_ONLY = 64,
	/* With LOAD_OPS: no op is read after (the api report of a view
	 * nothing narrows), so that a reader may leave the ops and the links
	 * to them out (rpd files do when they have ops). */
	LOAD_OPS_UNUSED = 128,
	/* With LOAD_APIS: no API row is needed, only what is read with them
	 * that is none (an rpd file's counters). */
	LOAD_NO_CALLS = 256,
};

/* Check that db is an rpd trace of a supported version; store it in *version. */
int rpd_detect(sqlite3 *db, const char *path, int *version, struct rpd_error *err);

/* Append the rows of one rpd input to t, using up to threads threads. */
int rpd_read(struct trace *t, sqlite3 *db, uint32_t input, unsigned what, int threads, struct rpd_error *err);
/* The same into a trace of this input alone, with sorting given: once
 * every API row is read, they are put in order on a thread of their own
 * (api_order_start) while the rest is read. *sorting is that job, for the
 * caller to finish, or NULL (none started, or the read failed). */
int rpd_read_ordered(struct trace *t, sqlite3 *db, uint32_t input, unsigned what, int threads,
		     struct api_order_job **sorting, struct rpd_error *err);

/* The span of the ops of an rpd trace (load/span.h), read without them. */
int rpd_span(sqlite3 *db, const char *path, struct op_span *out, struct rpd_error *err);

#endif
