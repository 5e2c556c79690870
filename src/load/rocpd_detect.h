/* Which processes a rocpd file holds and how each is laid out: found
 * before anything is read, so that a layout rpdtop cannot read is refused
 * with one line. */
#ifndef RPDTOP_ROCPD_DETECT_H
#define RPDTOP_ROCPD_DETECT_H

#include <sqlite3.h>
#include <stddef.h>

#include "util/error.h"

/* Table layouts, told by their columns rather than by the version text. */
enum rocpd_layout {
	ROCPD_LAYOUT_3,     /* ROCm 7.0 and after: "3", "3.0.1" .. "3.0.5" */
	ROCPD_LAYOUT_LZ4,   /* the same columns, JSON columns LZ4-compressed */
	ROCPD_LAYOUT_TRACK, /* 4.1: agents, queues, threads moved to rocpd_track */
	ROCPD_LAYOUT_SPINE, /* times in rocpd_timestamp, rows point at them */
};

/* One process of a file: its table suffix ("" or "_<uuid>"). */
struct rocpd_part {
	char suffix[128];
	char guid[64];
	char version[32]; /* schema_version as written */
	enum rocpd_layout layout;
};

struct rocpd_file {
	struct rocpd_part *parts;
	size_t n;
};

/* Is db a rocpd database? Returns 1 yes, 0 no, -1 on an error. */
int rocpd_is(sqlite3 *db, const char *path, struct rpd_error *err);
/* Find the processes in db and check that each can be read; -1 with one
 * line naming the file (and the layout) when one cannot. */
int rocpd_detect(sqlite3 *db, const char *path, struct rocpd_file *f, struct rpd_error *err);
void rocpd_file_free(struct rocpd_file *f);

/* The names of a rocpd process's tables: base and suffix, in buf. */
const char *rocpd_table(const struct rocpd_part *p, const char *base, char *buf, size_t size);

#endif
