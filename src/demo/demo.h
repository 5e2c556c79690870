/* The generated trace, delivered either straight into memory (--demo) or
 * as an rpd file (rpdgen), from the same generator. */
#ifndef RPDTOP_DEMO_H
#define RPDTOP_DEMO_H

#include "demo/generator.h"
#include "trace/trace.h"
#include "util/error.h"

/* Name the built-in trace goes by where a file name would be shown. */
#define DEMO_INPUT_NAME "demo"

/* Build the generated trace in t (initialised here). */
void demo_trace_build(struct trace *t, const struct gen_params *p);

struct demo_output {
	int format;       /* enum input_format: rpd, rocpd, Kineto, nsys, rocprof or rocprofv3 */
	const char *node; /* rocpd: the machine named in the file */
	int force;        /* replace an existing file */
};

/* Write the generated trace to a database file at path, or for
 * INPUT_KINETO a Kineto JSON file (gzipped when path ends in .gz), for
 * INPUT_NSYS an Nsight Systems SQLite export, for INPUT_ROCPROF a rocprof
 * results.db, for INPUT_ROCPROFV3 a rocprofv3 JSON file (gzipped when
 * path ends in .gz). */
int demo_write_file(const char *path, const struct gen_params *p, const struct demo_output *out,
		    struct rpd_error *err);
/* The Kineto JSON file (demo_kineto.c). */
int demo_write_kineto(const char *path, const struct gen_params *p, const struct demo_output *out,
		      struct rpd_error *err);
/* The Nsight Systems SQLite export (demo_nsys.c). */
int demo_write_nsys(const char *path, const struct gen_params *p, const struct demo_output *out,
		    struct rpd_error *err);
/* The rocprof results.db (demo_rocprof.c). */
int demo_write_rocprof(const char *path, const struct gen_params *p, const struct demo_output *out,
		       struct rpd_error *err);
/* The rocprofv3 JSON file (demo_rocprofv3.c). */
int demo_write_rocprofv3(const char *path, const struct gen_params *p, const struct demo_output *out,
			 struct rpd_error *err);

#endif
