/* Conversion: the part of a trace an export keeps (export.h: the ops in
 * view, their launching calls and the calls the filter and window keep),
 * whatever the inputs' formats, written from the trace in memory as a new
 * database of another format (rpd, rocpd) through the writers rpdgen
 * uses. Internal to the exporter: convert.c plans what goes and under
 * which ids, convert_rpd.c and convert_rocpd.c write it. */
#ifndef RPDTOP_CONVERT_H
#define RPDTOP_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "export/export.h"
#include "trace/trace.h"
#include "util/error.h"

/* Numbers of places (a GPU's device number, a process's pid) made
 * distinct across domains: two machines' GPU 0 cannot both be gpuId 0 of
 * one rpd file. A number only one domain uses stays as it is; the same
 * number of a later domain (by domain index) becomes one past every
 * number in use. */
struct convert_renumber {
	size_t n, cap;
	int64_t *value; /* sorted by value, then domain */
	uint32_t *domain;
	int64_t *out;
};

struct convert {
	const struct export_request *req;
	const struct trace *t;
	struct rpd_error *err;
	int format;         /* enum export_format */
	int64_t *op_out;    /* per op row: its id in the output, 0: left out */
	int64_t *api_out;   /* per API row: its id in the output, 0: left out */
	uint32_t *op_input; /* per op row: its input */
	uint64_t nops, napis, nhosts;
	uint64_t left_barriers, left_hosts; /* what the format cannot hold */
	int64_t span_start, span_end;       /* of the ops that go */
	struct graph_calls graph_calls;
};

/* Did a call named name launch a graph replay? */
int convert_graph_call(struct convert *c, uint32_t api);
/* A copy's direction from its op's name: enum rocpd_copy_kind, or -1
 * when the name gives none. */
int convert_copy_kind(const char *name);
/* Is API row api a roctx marker (a range or a mark)? */
int convert_is_marker(const struct convert *c, size_t api);

void convert_renumber_init(struct convert_renumber *r);
/* Add the place (domain, value); then build before asking. */
void convert_renumber_add(struct convert_renumber *r, uint32_t domain, int64_t value);
void convert_renumber_build(struct convert_renumber *r);
int64_t convert_renumber_get(const struct convert_renumber *r, uint32_t domain, int64_t value);
void convert_renumber_free(struct convert_renumber *r);

/* The metadata rows that say where the file came from, handed to put
 * one by one (tag, value); stops at the first that fails. */
int convert_metadata(struct convert *c, int (*put)(void *ctx, const char *tag, const char *value), void *ctx);

/* Each format's writer: 0, or -1 with c->err set and nothing left. */
int convert_rpd(struct convert *c);
int convert_rocpd(struct convert *c);

#endif
