/* What readers of files that keep GPU ops and calls in tables of their own
 * (Nsight Systems exports, rocprof's results.db) share: an input's ops
 * read, then its calls and links with them or apart after them, and where
 * each input's rows begin and end in the trace. */
#ifndef RPDTOP_LOAD_TABLED_H
#define RPDTOP_LOAD_TABLED_H

#include <stdint.h>

#include "trace/trace.h"

/* A reader's two passes over its file, each 0 or -1 with its error set:
 * ops (new rows, or with the ops read before only finding them) and calls
 * (the API rows and the links). */
struct tabled_reader {
	int (*ops)(void *ctx);
	int (*calls)(void *ctx);
	void *ctx;
};

/* The ops of input, and with apis its calls too; its rows noted. */
int tabled_read(struct trace *t, uint32_t input, const struct tabled_reader *rd, int apis);
/* The calls of input, whose ops were read before without them. */
int tabled_read_apis(struct trace *t, uint32_t input, const struct tabled_reader *rd);
/* The input of t read from path in format, or -1. */
long tabled_input_of(const struct trace *t, const char *path, int format);

#endif
