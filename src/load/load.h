/* Loading inputs into one trace: every input read by its own connection,
 * in parallel, and merged in the order given. */
#ifndef RPDTOP_LOAD_H
#define RPDTOP_LOAD_H

#include <stdatomic.h>
#include <stddef.h>

#include "load/rpd.h"
#include "trace/trace.h"
#include "util/error.h"

/* The inputs a load skipped, told to its caller: each one's path and
 * why, in the order of the load's inputs. */
struct load_skipped {
	char **paths, **why;
	size_t n, cap;
};

void load_skipped_free(struct load_skipped *s);
/* What a load says of the inputs it skipped: each one's line, then how
 * many of how many; none read is an error (-1 with *err). */
void load_say_skipped(const char *why);
int load_say_skipped_count(size_t skipped, size_t inputs, struct rpd_error *err);

struct load_options {
	unsigned what; /* enum load_what */
	int skip_bad;  /* load what can be read, warn about the rest */
	/* With skip_bad: the skipped inputs go here instead of to stderr, a
	 * single input is skipped as one of several would be, and none read
	 * is no error: the caller says what was skipped, of how many (a
	 * node group's load, one of many). */
	struct load_skipped *skipped;
	int same_node;   /* inputs that do not name their node share one */
	int progress;    /* show progress on stderr when it is a terminal */
	int allow_empty; /* no GPU op in any input is no error */
	/* The cache (load/cache.h): looked in when cache_entry is given,
	 * which then says what cache_save writes after a load that found
	 * nothing (NULL: nothing to write). want_all: only a file with every
	 * API row will do. */
	struct cache_entry **cache_entry;
	int cache_want_all;
	/* Given, and the API rows of one rpd file read with its ops: their
	 * order (api_order_build's) is made on a thread of its own while the
	 * rest of the file is read and the trace finished, into *order (else
	 * left empty: the caller sets it empty before the load). */
	struct api_order *order;
};

/* What is read of an input once its format is known (load_input): a
 * rocpd file's processes, an rpd file of that schema version, a Kineto
 * JSON trace (load/kineto.h), an Nsight Systems export or a rocprof
 * results.db with what it holds (load/nsys.h, load/rocprof.h), or a
 * rocprofv3 JSON trace (load/rocprofv3.h); again: forget what was read,
 * the file changed meanwhile and is read again. */
struct rocpd_file;
struct nsys_file;
struct rocprof_file;
struct input_reader {
	int (*rocpd)(void *ctx, sqlite3 *db, const char *path, const struct rocpd_file *f,
		     struct rpd_error *err);
	int (*rpd)(void *ctx, sqlite3 *db, const char *path, int version, struct rpd_error *err);
	int (*kineto)(void *ctx, const char *path, struct rpd_error *err);
	int (*nsys)(void *ctx, sqlite3 *db, const char *path, const struct nsys_file *f,
		    struct rpd_error *err);
	int (*rocprof)(void *ctx, sqlite3 *db, const char *path, const struct rocprof_file *f,
		       struct rpd_error *err);
	int (*rocprofv3)(void *ctx, const char *path, struct rpd_error *err);
	void (*again)(void *ctx);
	void *ctx;
};

/* Read the input at path through rd, one snapshot of it: read again when
 * it changed meanwhile (a database: a few times without SQLite's locks,
 * then under them). Its format is told by its bytes: JSON is for the
 * rocprofv3 reader when its first key says so, else for the Kineto
 * reader; anything else is a database. 0, or -1 with *err naming the
 * input. */
int load_input(const char *path, const struct input_reader *rd, struct rpd_error *err);

/* Is the JSON file at path (plain or gzipped) a trace of a format read
 * here, as its first key (rocprofv3's) or its first megabyte (Kineto's
 * traceEvents) tells? A directory's JSON files that are not, such as
 * configurations, are passed over. */
int load_json_is_trace(const char *path);

/* As many readers as the descriptor limit (ulimit -n) lets open their
 * files at once: more would fail for want of a descriptor, not for any
 * fault of their input. At least one: its failure then says why. Loads
 * running at once share them. */
size_t load_readers_that_fit(void);

/* Read every input (files, or directories of .rpd/.db files) into t,
 * initialised here. Returns 0, or -1 with *err set to one line naming the
 * input at fault; t is then already freed. */
int trace_load(struct trace *t, const char *const *args, size_t nargs, const struct load_options *o,
	       struct rpd_error *err);

/* Add the API rows and their links to a trace loaded with the ops only
 * (rpd inputs; rocpd inputs keep none). Returns -1 with *err set; the
 * trace then has the API rows read so far. */
int trace_load_apis(struct trace *t, struct rpd_error *err);
/* The same without deriving what the rows imply (trace_finish): for a
 * side trace (trace/side.h). With stop given, the reading ends (-1)
 * before the next input once *stop is set. */
int trace_read_apis(struct trace *t, const atomic_int *stop, struct rpd_error *err);

#endif
