/* A cache of loaded traces, so that opening the same inputs again maps a
 * file instead of reading them: one file per list of inputs and what was
 * read of them, in $RPDTOP_CACHE_DIR, else $XDG_CACHE_HOME/rpdtop, else
 * ~/.cache/rpdtop; never beside the inputs. A file is used only while
 * every input is as it was when the file was written (path, size,
 * modification time, inode, device, and a hash of its first page, where
 * SQLite counts its changes). Nothing about the cache is ever an error:
 * without it the inputs are read as before. */
#ifndef RPDTOP_CACHE_H
#define RPDTOP_CACHE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"
#include "util/error.h"

/* The default cap on the cache directory's size. */
#define CACHE_DEFAULT_CAP ((uint64_t)8 << 30)

/* --no-cache (enabled 0) and --cache-size (the cap in bytes; 0: write
 * nothing). Before any load. */
void cache_configure(int enabled, uint64_t cap);

/* What a load that found no file would write (a key and the inputs'
 * stamps taken before the load). */
struct cache_entry;

/* Look for a file of these inputs (expanded: files) that serves a load
 * of what (enum load_what); want_all: only a file with every API row
 * will do (they are read next anyway). 1 with t loaded as that load
 * leaves it (its columns borrow the file's mapping), else 0 with
 * *entry set (NULL when the cache is off) for cache_save. */
int cache_load(struct trace *t, char *const *paths, size_t n, unsigned what, int same_node, int want_all,
	       struct cache_entry **entry);

/* Write t as e's file, unless an input changed since e was made: into a
 * new file renamed over the old (readers never see half a file), then
 * the oldest files go until the directory fits its cap. call_order: the
 * order of t's calls to keep with it (cache_format_write), or NULL. 0
 * (written or not needed), or -1 with *err saying why it could not be
 * written; with stop, writing ends when *stop is set. */
int cache_save(const struct cache_entry *e, const struct trace *t, const uint32_t *call_order,
	       const atomic_int *stop, struct rpd_error *err);
void cache_entry_free(struct cache_entry *e);

/* cache_save of e (taken over) on a thread of its own, without a word
 * about failures; t and call_order must not change until cache_job_end.
 * NULL when there is nothing to write. */
struct cache_job;
struct cache_job *cache_job_start(struct cache_entry *e, const struct trace *t, const uint32_t *call_order);
/* Wait for the job (stop: end its writing at once, writing nothing) and
 * free it. */
void cache_job_end(struct cache_job *j, int stop);

#endif
