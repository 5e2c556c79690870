/* Export: the selected part of a trace (filter and window) written as a new,
 * trimmed, valid database of the inputs' own format, or converted to
 * another (export/convert.h). */
#ifndef RPDTOP_EXPORT_H
#define RPDTOP_EXPORT_H

#include <stdint.h>

#include "session/filter.h"
#include "session/select.h"
#include "session/window.h"
#include "trace/trace.h"
#include "util/error.h"

/* What an export writes: the inputs' own format, or a conversion of any
 * inputs to an rpd or a rocpd database. */
enum export_format { EXPORT_FORMAT_INPUT, EXPORT_FORMAT_RPD, EXPORT_FORMAT_ROCPD };

struct export_request {
	const struct trace *t;
	const struct selection *sel; /* the ops to export */
	const struct filter *filter; /* API calls are judged by it too */
	const struct window *window;
	const char *path;
	int force;  /* replace an existing file */
	int format; /* enum export_format */
};

struct export_result {
	uint64_t ops, apis;
	int64_t bytes; /* size of the file written */
};

/* Is an export of sel, t's ops under a window alone (no name filter f,
 * no place filter), one that picks the calls to keep as the input's API
 * rows stream by, so that they need not be read before (one rpd input)? */
int export_streams_window(const struct trace *t, const struct filter *f, const struct selection *sel);

/* Write the export; on failure nothing is left at path (or beside it). */
int export_trace(const struct export_request *r, struct export_result *res, struct rpd_error *err);
/* The same as a conversion (r->format rpd or rocpd), from the trace in
 * memory; export_trace hands such requests here. */
int convert_trace(const struct export_request *r, struct export_result *res, struct rpd_error *err);
/* An export format by name ("input", "rpd", "rocpd"): 0, or -1. */
int export_format_parse(const char *name, int *format);

#endif
