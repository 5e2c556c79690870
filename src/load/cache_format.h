/* The layout of a cache file, which holds one loaded trace: a header, a
 * block of the trace's small tables with the key it was written for
 * (the inputs and their stamps), a directory of sections, and the
 * trace's columns, each 64-byte aligned with its own hash. The header,
 * the block and the directory are hashed too: a file that does not
 * match is never used. */
#ifndef RPDTOP_CACHE_FORMAT_H
#define RPDTOP_CACHE_FORMAT_H

#include <stdatomic.h>
#include <stddef.h>

#include "trace/trace.h"

/* Changes whenever the layout or the trace's columns change. */
#define CACHE_VERSION 8
/* Every cache file begins with these 8 bytes. */
#define CACHE_MAGIC "rpdtopC\n"

/* What a trace holds, each level more than the last: ops without their
 * ids, ops with ids, the calls that launched ops beside them, every API
 * row (with counters, copies and texts). */
enum cache_level { CACHE_NO_IDS, CACHE_OPS, CACHE_LAUNCHES, CACHE_ALL, CACHE_LEVELS };

/* Write t, read at level, with its key to fd from its start, and the
 * order of its calls by thread and start (struct api_order's rows, or
 * NULL: none kept), which a trace read back borrows as t->call_order. 0,
 * or -1 with errno set (ECANCELED when *stop was set meanwhile). */
int cache_format_write(int fd, const struct trace *t, const uint32_t *call_order, int level, const char *key,
		       const atomic_int *stop);

/* Check the file at fd (of size bytes) and, when it holds level and its
 * key is key, build t (initialised here) as a load of what want asks
 * for leaves it (want <= level): its columns borrow a mapping of the
 * file, released by trace_free. 0, or -1 (t then empty, as trace_free
 * leaves one) when the file is damaged, of another version or key, or
 * cannot be mapped. */
int cache_format_read(int fd, size_t size, struct trace *t, int level, int want, const char *key);

/* For tests and fuzzing, which change a file's columns on purpose to see
 * them refused for what they hold, not for their hashes: every hash of
 * the file (its columns', directory's, facts' and header's) made anew for
 * its bytes. -1 when it has no header and directory to go by. */
int cache_format_rehash(unsigned char *file, size_t size);
/* Where column id lies in the file: its offset, item size and items; -1
 * when it is not there. */
int cache_format_section(const unsigned char *file, size_t size, uint32_t id, size_t *off, size_t *item,
			 size_t *n);

/* The key a file says it holds and its level (malloc'd; NULL when it
 * says none), for harnesses that read files they did not write. */
char *cache_format_key(const unsigned char *file, size_t size, int *level);

#endif
