/* Which reader a file is for, told by its bytes (never its name): the
 * JSON readers tell their formats apart by the first key of the file's
 * object, read from its first bytes alone (gzip data inflated as far as
 * that). */
#ifndef RPDTOP_JSON_KIND_H
#define RPDTOP_JSON_KIND_H

enum json_kind {
	JSON_NONE,      /* no JSON: a database, or no file (its reader says why) */
	JSON_KINETO,    /* gzip data or JSON, and not rocprofv3's */
	JSON_ROCPROFV3, /* an object whose first key is "rocprofiler-sdk-tool" */
};

/* Gzip data, or a file whose first byte other than white space (after a
 * UTF-8 byte order mark) opens an object or array, is JSON: rocprofv3's
 * when its first key is rocprofv3's, else the Kineto reader's (which says
 * what is wrong with what is no Kineto trace). */
enum json_kind json_kind(const char *path);

#endif
