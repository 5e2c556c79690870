/* Writing a rocprofiler-sdk rocpd database (schema version 3), safely as
 * dbwriter does. */
#ifndef RPDTOP_ROCPD_WRITER_H
#define RPDTOP_ROCPD_WRITER_H

#include <stdint.h>

#include "util/error.h"

struct rocpd_writer;

/* A CPU range: an API call, or a roctx range when marker is set (its text
 * is name). correlation links an API call to the GPU work it launched. */
struct rocpd_region_row {
	int64_t pid, tid, start, end;
	const char *name;
	int marker;
	int64_t correlation;
};

/* GPU work: a kernel dispatch (kernel set) or a memory copy (copy_kind 1
 * host to device, 2 device to host, 3 device to device). */
struct rocpd_gpu_row {
	int64_t pid, gpu, queue, start, end;
	const char *kernel;
	int copy_kind;
	int64_t size;
	int64_t grid[3], workgroup[3];
	int64_t correlation; /* 0: none */
};

/* node names the machine (rocpd_info_node.hostname). */
int rocpd_writer_open(struct rocpd_writer **w, const char *path, int force, const char *node,
		      struct rpd_error *err);
int rocpd_writer_region(struct rocpd_writer *w, const struct rocpd_region_row *r);
int rocpd_writer_gpu(struct rocpd_writer *w, const struct rocpd_gpu_row *g);
int rocpd_writer_commit(struct rocpd_writer *w, struct rpd_error *err);
void rocpd_writer_abort(struct rocpd_writer *w);
const char *rocpd_writer_errmsg(const struct rocpd_writer *w);

#endif
