/* Writing an rpd (schema version 2) database safely: rows go to a temporary
 * file beside the target, which is renamed into place only when complete. */
#ifndef RPDTOP_RPD_WRITER_H
#define RPDTOP_RPD_WRITER_H

#include <stdint.h>

#include "util/error.h"

struct rpd_writer;

struct rpd_kernel_launch {
	int64_t grid[3], workgroup[3];
	const char *kernel; /* kernel name */
};

struct rpd_copy_launch {
	int64_t size;
	int kind; /* hipMemcpyKind: 1 H2D, 2 D2H, 3 D2D */
	int64_t src_device, dst_device;
	int sync;
	const char *src, *dst; /* addresses as recorded ("0x7f59c1260000"), NULL: "0x0" */
};

/* Start writing path. An existing file is an error unless force is set. */
int rpd_writer_open(struct rpd_writer **w, const char *path, int force, struct rpd_error *err);

int rpd_writer_op(struct rpd_writer *w, int64_t id, int64_t gpu, int64_t queue, int64_t start, int64_t end,
		  const char *desc, const char *type);
int rpd_writer_api(struct rpd_writer *w, int64_t id, int64_t pid, int64_t tid, int64_t start, int64_t end,
		   const char *name, const char *args);
int rpd_writer_link(struct rpd_writer *w, int64_t api_id, int64_t op_id);
int rpd_writer_kernel(struct rpd_writer *w, int64_t api_id, const struct rpd_kernel_launch *k);
int rpd_writer_copy(struct rpd_writer *w, int64_t api_id, const struct rpd_copy_launch *c);
int rpd_writer_metadata(struct rpd_writer *w, const char *tag, const char *value);
/* A sample of a device's monitor (deviceType "gpu", monitorType "sclk"),
 * its value as rpd keeps it: text. */
int rpd_writer_monitor(struct rpd_writer *w, const char *device_type, int64_t device, const char *type,
		       int64_t start, int64_t end, const char *value);

/* Finish: views, commit, and move the file into place. Frees w. */
int rpd_writer_commit(struct rpd_writer *w, struct rpd_error *err);
/* Give up: the temporary file is removed and the target left untouched. Frees w. */
void rpd_writer_abort(struct rpd_writer *w);
/* The error of the last failed row call. */
const char *rpd_writer_errmsg(const struct rpd_writer *w);

#endif
